/**
 * The generic check on positionals (evidence-positionals.ts), table-driven over notations written
 * for the test: each usage token the text names as something else (an option group, a command slot,
 * a shell construct, an option's value, a URL, a prose word) is dropped, and its twin, differing only
 * in that cue, keeps the positional.
 */
import { describe, expect, it } from 'vitest';
import { DROP_AT, positionalEvidence, weighPositionals } from '../../src/introspect/evidence-positionals.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';

const OPTIONS = '\n\nOptions:\n  -v, --verbose  Talk more\n';

/** [what, help text, positional the cue speaks against, twin text without the cue, the token the twin keeps]. */
const twins: [string, string, string, string, string][] = [
  ['a bracketed word titling a section of options', `Usage: packer [plugins] FILE\n\nPlugins:\n  --gzip  Use gzip\n  --xz    Use xz\n`, 'plugins', `Usage: packer [plugins] FILE\n\nFormats:\n  --gzip  Use gzip\n  --xz    Use xz\n`, 'plugins'],
  ['a program after a pipe', `Usage: lister FILE | pager${OPTIONS}`, 'pager', `Usage: lister FILE pager${OPTIONS}`, 'pager'],
  ["a word after an option's spelling", `Usage: writer -o OUT FILE${OPTIONS}`, 'OUT', `Usage: writer [-o] OUT FILE${OPTIONS}`, 'OUT'],
  ["a word after an option's spelling, not a listed flag's", `Usage: writer -o OUT FILE${OPTIONS}`, 'OUT', `Usage: writer -v OUT FILE${OPTIONS}`, 'OUT'],
  ['a URL pattern', `Usage: getter https://host/path${OPTIONS}`, 'https://host/path', `Usage: getter host/path${OPTIONS}`, 'host/path'],
  ["a shell variable's expansion", `Usage: reader $HOME/.readerrc FILE${OPTIONS}`, '$HOME/.readerrc', `Usage: reader HOME/.readerrc FILE${OPTIONS}`, 'HOME/.readerrc'],
  ['a prose word of a usage line', `Usage: mover [options] file then${OPTIONS}`, 'then', `Usage: mover [options] file there${OPTIONS}`, 'there'],
];

describe('parseHelp drops a positional the text names as something else', () => {
  for (const [what, text, name, twin, kept] of twins) {
    it(`${what}: dropped`, () => {
      expect(parseHelp(text).positionals.map((positional) => positional.name)).not.toContain(name);
    });
    it(`${what}: its twin keeps it`, () => {
      expect(parseHelp(twin).positionals.map((positional) => positional.name)).toContain(kept);
    });
  }
  it('keeps the real argument beside a dropped one', () => {
    expect(parseHelp(twins[1]?.[1] ?? '').positionals.map((positional) => positional.name)).toEqual(['FILE']);
  });
  it("an argument section's entry outweighs an option's spelling before it", () => {
    const text = `Usage: writer -o OUT FILE\n\nArguments:\n  OUT   Where to write\n  FILE  What to read${OPTIONS}`;
    expect(parseHelp(text).positionals.map((positional) => positional.name)).toContain('OUT');
  });
});

describe('positionalEvidence: one score per proposed positional', () => {
  const lines = (text: string): string[] => text.split('\n');
  const against: [string, string, string, { name: string }[], { name: string }[]][] = [
    ['a command slot over parsed subcommands', `Usage: tool <command>\n\nNotes:\n  build  Build it\n`, 'command', [{ name: 'build' }], []],
    ['a parsed subcommand word', `Usage: tool build\n`, 'build', [{ name: 'build' }], []],
  ];
  for (const [what, text, name, commands, none] of against) {
    it(`${what}: at most the drop score with the commands listed, above it without`, () => {
      expect(positionalEvidence(name, { lines: lines(text), subcommands: commands }).score).toBeLessThanOrEqual(DROP_AT);
      expect(positionalEvidence(name, { lines: lines(text), subcommands: none }).score).toBeGreaterThan(DROP_AT);
    });
  }
  const named: [string, string, string][] = [
    ['an option group', 'flags', 'FILES'],
    ['a global option group', 'global-options', 'globals'],
    ['an environment assignment', 'DEBUG=1', 'DEBUG'],
    ['a redirection', '>out.txt', 'out.txt'],
  ];
  for (const [what, name, twin] of named) {
    it(`${what} (${name}) is dropped, ${twin} is kept`, () => {
      const context = { lines: [`Usage: tool [${name}] [${twin}]`], subcommands: [] };
      expect(weighPositionals([{ name }, { name: twin }], context).map((positional) => positional.name)).toEqual([twin]);
    });
  }
  it("a word of another program before the program's own in a pipeline", () => {
    const piped = { lines: ['Usage: cat data | sorter [options]'], subcommands: [], program: 'sorter' };
    const plain = { lines: ['Usage: sorter data [options]'], subcommands: [], program: 'sorter' };
    expect(positionalEvidence('data', piped).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('data', plain).score).toBeGreaterThan(DROP_AT);
  });
  it('a bare word of a usage line written as a sentence', () => {
    const sentence = { lines: ['Usage: helper [options] file, see more info in the manual'], subcommands: [] };
    const form = { lines: ['Usage: helper [options] file manual'], subcommands: [] };
    expect(positionalEvidence('manual', sentence).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('manual', form).score).toBeGreaterThan(DROP_AT);
  });
  it('a placeholder in capitals is not the prose word of another case on a line that reads as usage', () => {
    // a described `usage:` value under a formatter option reads as a usage line: its `file` is prose, not `FILE`
    const lines = ['Usage: runner [options] [<GLOB|DIR|FILE[:LINE]>...]', '', 'Formatters:', '      usage: Prints where steps are used, which can be output to a file and then read'];
    expect(positionalEvidence('GLOB|DIR|FILE', { lines, subcommands: [] }).score).toBeGreaterThan(DROP_AT);
    expect(positionalEvidence('file', { lines, subcommands: [] }).score).toBeLessThanOrEqual(DROP_AT);
  });
  it('sentence punctuation glued to a one-word name', () => {
    const context = { lines: ['Usage: helper [options] input: FILE'], subcommands: [] };
    expect(weighPositionals([{ name: 'input:' }, { name: 'input' }, { name: "'(docs)" }, { name: 'docs' }], context).map((positional) => positional.name)).toEqual(['input', 'docs']);
  });
  it('a prose word in any case but all capitals', () => {
    const context = { lines: ['Usage: helper [If] [IF]'], subcommands: [] };
    expect(weighPositionals([{ name: 'If' }, { name: 'IF' }], context).map((positional) => positional.name)).toEqual(['IF']);
  });
  it('a wrapped line of prose opening with the word is no entry for it; an aligned entry is', () => {
    const wrapped = ['Usage: helper [options] file to', '', 'Options:', '  -o FILE  write the result', '           to a file'];
    const aligned = ['Usage: helper [options] file to', '', 'Arguments:', '  to    where the result goes'];
    expect(positionalEvidence('to', { lines: wrapped, subcommands: [] }).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('to', { lines: aligned, subcommands: [] }).score).toBeGreaterThan(DROP_AT);
  });
  it("a word after a listed flag is no value of it", () => {
    const lines = ['Usage: copier -r SOURCE'];
    expect(positionalEvidence('SOURCE', { lines, subcommands: [] }).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('SOURCE', { lines, subcommands: [], isFlag: (spelling) => spelling === '-r' }).score).toBeGreaterThan(DROP_AT);
  });
  it('a command slot over a Commands section the parser did not read as subcommands', () => {
    const listed = ['Usage: tool <command>', '', 'Commands:', '  build   Build it'];
    const none = ['Usage: tool <command>', '', 'Notes:', '  build   Build it'];
    expect(positionalEvidence('command', { lines: listed, subcommands: [] }).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('command', { lines: none, subcommands: [] }).score).toBeGreaterThan(DROP_AT);
  });
  it('a literal word listed under Commands; a placeholder listed there is the default command\'s argument', () => {
    const literal = ['Usage: tool build', '', 'Commands:', '  build    Build it'];
    const placeholder = ['Usage: tool [build]', '', 'Commands:', '  [build]  Build it'];
    expect(positionalEvidence('build', { lines: literal, subcommands: [] }).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('build', { lines: placeholder, subcommands: [] }).score).toBeGreaterThan(DROP_AT);
  });
  // round 17: cues met on batches 13 and 21, each beside a twin that differs only in the cue
  const round17: [string, string[], string, string[], string?][] = [
    ["an option group's bracketed argument", ['Usage: loader [OPTION [ARG]] ...'], 'ARG', ['Usage: loader [MODE [ARG]] ...']],
    ['an option group written with its value', ['Usage: styler [option option=parameter ...] <source>'], 'option=parameter', ['Usage: styler [name name=parameter ...] <source>'], 'name=parameter'],
    ['an `[action]` slot over an `Actions:` list', ['Usage: tagger [ action ] file ...', '', 'Actions:', '  ad | adjust   Adjust stamps', '  pr | print    Print data'], 'action', ['Usage: tagger [ action ] file ...', '', 'Notes:', '  ad | adjust   Adjust stamps', '  pr | print    Print data']],
    ['an alternative of the placeholder before a spaced bar', ['Usage: builder [OPTIONS] PATH | URL | -'], 'URL', ['Usage: builder [OPTIONS] PATH URL -']],
    ["the program's own name after a bar (another form on the line)", ['Usage: packer [entries...] [options] | packer [command] [options]'], 'packer', ['Usage: packer [entries...] [options] [packer]']],
    ['a bare word after the global options (the command path)', ['Usage: infra [global options] fmt [options] [target...]'], 'fmt', ['Usage: infra [input options] fmt [options] [target...]']],
    ['a bare word after the global options is the command path only with its own options group after it', ['Usage: infra [global options] fmt [options] [target...]'], 'fmt', ['Usage: infra [global options] fmt [target...]']],
    ['a bare word set by a bar beside an option whose value is written `<x>` (a literal mode word)', ['Usage:', '    fetcher (-l <url> | -s <query> | me) [-a]'], 'me', ['Usage:', '    fetcher (-l url | -s query | me) [-a]']],
    ["an option's value on the next line of a wrapped form", ['Usage:', '  runner SCRIPT [-t <value>] [--platform', '    local|cloud:x] [--count <value>]'], 'cloud:x', ['Usage:', '  runner SCRIPT [-t <value>] [--platform]', '    local|cloud:x [--count <value>]']],
  ];
  for (const [what, lines, name, twin, twinName] of round17) {
    it(`${what}: dropped, its twin kept`, () => {
      expect(positionalEvidence(name, { lines, subcommands: [], program: lines[0]?.split(/\s+/)[1] ?? null }).score).toBeLessThanOrEqual(DROP_AT);
      expect(positionalEvidence(twinName ?? name, { lines: twin, subcommands: [], program: twin[0]?.split(/\s+/)[1] ?? null }).score).toBeGreaterThan(DROP_AT);
    });
  }
  it("a listed flag's name written without its dashes; an option's line is no entry of it", () => {
    const lines = ['Usage:', '  sharer [--readonly] [--public] [no-tls] [--verbose]', '', 'Flags:', '  -no-tls', '    \tDo not use TLS', '  -readonly', '    \tRead only'];
    const isFlag = (spelling: string): boolean => ['--no-tls', '--readonly'].includes(spelling);
    expect(positionalEvidence('no-tls', { lines, subcommands: [], isFlag }).score).toBeLessThanOrEqual(DROP_AT);
    expect(positionalEvidence('no-tls', { lines, subcommands: [], isFlag }).cues).not.toContain('listed as an entry');
    expect(positionalEvidence('no-tls', { lines, subcommands: [], isFlag: () => false }).score).toBeGreaterThan(DROP_AT);
  });
  it('a bar list holding every alternative of the name is its word', () => {
    const lines = ['Usage:', '  runner SCRIPT [--platform', '    local|aws:lambda|az:aci]'];
    expect(positionalEvidence('aws:lambda|az:aci', { lines, subcommands: [] }).cues).toContain("follows an option's spelling");
  });
  it('round 18: a title without a colon (`Plugins`, `   Flags `) over option lines titles an options section; over prose it does not', () => {
    const lines = ['Usage:', '  shipper [options] [plugins]', '', 'Plugins', '  --notify  Who to tell  [array]'];
    expect(positionalEvidence('plugins', { lines, subcommands: [] }).cues).toContain('titles an options section');
    const twin = ['Usage:', '  shipper [options] [plugins]', '', 'Plugins', '  Names of plugins to load.'];
    expect(positionalEvidence('plugins', { lines: twin, subcommands: [] }).cues).not.toContain('titles an options section');
  });
  it("round 18: meow's indented `  Commands` title over deeper entries makes `[command]` the command slot", () => {
    const lines = ['', '  Usage', '    $ emo [option] [command]', '  Commands', '    list    List all', '    init    Set up'];
    expect(positionalEvidence('command', { lines, subcommands: [] }).cues).toContain('command slot over listed commands');
    const flat = ['', '  Usage', '    $ emo [option] [command]', '  Commands', '  list    List all', '  init    Set up'];
    expect(positionalEvidence('command', { lines: flat, subcommands: [] }).cues).not.toContain('command slot over listed commands');
  });
  it('names the cues it weighed', () => {
    const { cues } = positionalEvidence('FILE', { lines: ['Usage: tool <FILE>', '', 'Arguments:', '  FILE  What to read'], subcommands: [] });
    expect(cues).toEqual(['placeholder notation', 'listed as an entry']);
  });
});
