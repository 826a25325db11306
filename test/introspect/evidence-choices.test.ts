/**
 * The generic choices fallback (evidence-choices.ts): a run of items in an option's description is
 * its choices only when words around it vouch for it. Notations here are written for the test (no
 * corpus text): each positive one is missed by the first-match rules (so `parseHelp` finds it only
 * through the fallback), and each negative one is paired with a twin that differs only in the cue
 * that must stop it, so the negative case fails if that cue is ignored.
 */
import { describe, expect, it } from 'vitest';
import { evidenceChoices } from '../../src/introspect/evidence-choices.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function choicesOf(head: string, description: string): string[] | null | undefined {
  const spec = parseHelp(`Usage: tool [options]\n\nOptions:\n  ${head.padEnd(22)}${description}\n`, { fileName: 'tool.wasm' });
  return spec.options.find((option) => option.takes_value)?.choices;
}

describe('choices the description vouches for, in notations no rule reads', () => {
  const cases: [string, string, string, string[]][] = [
    ['a cue word in a parenthesized sentence', '--engine <name>', 'Rendering engine (Available engines are gl, vulkan and metal.)', ['gl', 'vulkan', 'metal']],
    ['quoted values before "are acceptable values"', '--on-error <how>', "What to do with bad rows. 'drop', 'keep' and 'abort' are acceptable values", ['drop', 'keep', 'abort']],
    ['numbers glossed with `=word` after a noun naming a mode', '--hash <n>', 'Hashing mode (0=fast, 1=normal, 2=thorough)', ['0', '1', '2']],
    ['a ` | ` list after a noun and a colon', '--codec <c>', 'Compression algorithm: zstd | lz4 | none', ['zstd', 'lz4', 'none']],
    ['a sentence of bare values after one naming the placeholder', '--shape SHAPE', 'Set panel kind to SHAPE. round, square, hex', ['round', 'square', 'hex']],
    ['items glossed in parentheses joined by semicolons, the default marked', '--sync <mode>', 'Sync strategy (Available modes: eager (default); lazy (on first read); never (keep local))', ['eager', 'lazy', 'never']],
    ['quoted values before "are supported"', '--enc <e>', 'Text encoding. "utf8", "latin1" and "ascii" are supported', ['utf8', 'latin1', 'ascii']],
    ['quoted values each glossed by a phrase, after "Set to"', '--runtime <r>', 'Set to "node" to run under Node, "deno" to run under Deno, or "bun" (default) to pick it from the lockfile.', ['node', 'deno', 'bun']],
    ['quoted items each glossed by a phrase, the last one up to the closing bracket', '--store <s>', 'key store ("mem", "disk" for a local file or "vault" for a remote one)', ['mem', 'disk', 'vault']],
    ['a bracketed `|` list of dotted format names', '--pack <p>', 'Bundle packing [tar.xz|tar.zst|zip]', ['tar.xz', 'tar.zst', 'zip']],
    ['a counted list, glosses holding angle brackets', '--wrap <w>', 'How to wrap long lines. Three choices here: off (no wrapping); word (at <space> only); char (anywhere)', ['off', 'word', 'char']],
  ];
  it.each(cases)('%s', (_title, head, description, expected) => {
    expect(choicesOf(head, description)).toEqual(expected);
  });
});

describe('glosses the module reads past (the rules read these notations too)', () => {
  it.each([
    ["How to tint the output. 'warm': shift to red, 'cool': shift to blue, 'off': leave it as is.", ['warm', 'cool', 'off']],
    ['Bell behaviour (*visual*, audible, none).', ['visual', 'audible', 'none']],
    ['Dialect to parse: ansi, sqlite, postgres (default), mysql', ['ansi', 'sqlite', 'postgres', 'mysql']],
    ["Tint ('warm' - shift to red, 'cool' - shift to blue, 'off' - as is)", ['warm', 'cool', 'off']],
  ])('%s', (text, expected) => {
    expect(evidenceChoices(text, null)).toEqual(expected);
  });
});

describe('runs of items that are no choices give null', () => {
  // [what stops it, the text, its twin without that cue (accepted), the value name]
  const cases: [string, string, string, string][] = [
    ['an example cue (e.g.)', 'Available formats, e.g. json, yaml or toml', 'Available formats: json, yaml or toml', 'FMT'],
    ['an example cue (such as)', 'Supported languages such as rust, go and zig', 'Supported languages are rust, go and zig', 'LANG'],
    ['an ellipsis after the items', 'Available targets: web, ios, android, ...', 'Available targets: web, ios, android.', 'TARGET'],
    ['items naming kinds of value', 'Where to read from, one of: file, directory or url', 'Where to read from, one of: disk, tape or cloud', 'SRC'],
    ['per-case phrasing after the items', 'Can be fast, safe or paranoid for trusted inputs only', 'Can be fast, safe or paranoid.', 'MODE'],
    ['a clause opening with a case', 'Marker style. For svg output, valid styles: dots, lines or grid', 'Marker style. Valid styles: dots, lines or grid', 'X'],
    ['a list of what the option leaves out', 'Valid checks to skip: lint, test, build', 'Valid checks to run: lint, test, build', 'CHECK'],
    ['a list that is the default value', 'Hosts to try, by default: alpha, beta, gamma', 'Hosts to try, one of: alpha, beta, gamma', 'HOST'],
    ['a stated default the list leaves out', 'Compression, one of zstd, lz4, gzip (default: brotli)', 'Compression, one of zstd, lz4, gzip (default: lz4)', 'ALGO'],
    ['an open alternative after the items', 'Output format, one of json, yaml, toml, or a template string', 'Output format, one of json, yaml, toml', 'FMT'],
    ['two lists, each with a cue', 'Available engines: gl, vulkan, metal. Available shaders: glsl, hlsl, spirv', 'Available engines: gl, vulkan, metal.', 'X'],
    ['a value that is a path', 'Path to the certificate. Supported formats: pem, der, p12', 'The certificate. Supported formats: pem, der, p12', 'CERT'],
    ['values of another option', 'Only valid with --format json, yaml or toml', 'Only valid as json, yaml or toml', 'X'],
    ['suffixes glued onto a value', "Maximum wait. Use postfix 'ms', 's', 'm' or 'h' to change the unit.", "Maximum wait. Use unit 'ms', 's', 'm' or 'h' to change the unit.", 'TIME'],
    ['an optional ending glued on (`unit(s)`)', 'Bill by. Units: day(s)|week(s)|flat', 'Bill by. Units: days|weeks|flat', 'UNIT'],
    ['a phrase closing the bracket after a lone unglossed pair (per case, no gloss)', 'Speed ("fast" or "safe" for trusted inputs)', 'Speed ("fast", "safe" or "paranoid")', 'X'],
    ['file names listed with commas', 'Config to read, one of: app.toml, app.yaml, app.json', 'Config to read, one of: toml, yaml, json', 'X'],
    ['a letter run standing for digits', 'Syntax level, "py3XX" or "latest"', 'Syntax level, "py312" or "latest"', 'X'],
    ['a stated boolean default: the option is a switch', 'Marker to look for. Either "@keep" or "@drop" must be present in the header. Defaults to false.', 'Marker to look for. Either "@keep" or "@drop" must be present in the header.', 'X'],
    ['template fields', 'Report layout; valid layouts are {flat}, {tree} or wide', 'Report layout; valid layouts are flat, tree or wide', 'X'],
    ['`common values` names examples of an open set (round 18)', 'Stage to deploy. Common values are "dev", "qa" and "prod".', 'Stage to deploy. Valid values are "dev", "qa" and "prod".', 'X'],
  ];
  it.each(cases)('%s', (_title, text, twin, valueName) => {
    expect(evidenceChoices(text, valueName)).toBeNull();
    expect(evidenceChoices(twin, valueName)).not.toBeNull();
  });

  it('a clause opening with a verb of choosing vouches for a pair after the placeholder (`Select … TYPE … (a or b)`)', () => {
    expect(evidenceChoices('Select render MODE of the scene (screen or paper)', 'MODE')).toEqual(['screen', 'paper']);
    expect(evidenceChoices('Render MODE of the scene (screen or paper)', 'MODE')).toBeNull();
  });

  it('quoted values set off by a comma or colon, closing the description', () => {
    expect(evidenceChoices('Signal sent to the worker, "SIGINT" or "SIGHUP"', 'signal')).toEqual(['SIGINT', 'SIGHUP']);
    expect(evidenceChoices('Where to put CSS: "inline" or "external".', null)).toEqual(['inline', 'external']);
    // (going on after the values, they are the sentence's words)
    expect(evidenceChoices('Signal sent to the worker, "SIGINT" or "SIGHUP" on reload', 'signal')).toBeNull();
  });

  it('a default stated at a sentence end is the value without its period (`Defaults to r4.`)', () => {
    expect(evidenceChoices('Protocol revision. Can be r5, r4 or r3. Defaults to r4.', null)).toEqual(['r5', 'r4', 'r3']);
  });

  it('a value name of several placeholders: a list describes one part (`KIND=PATH`)', () => {
    expect(evidenceChoices('KIND is one of alpha, beta, gamma', 'KIND=PATH')).toBeNull();
    expect(evidenceChoices('KIND is one of alpha, beta, gamma', 'KIND')).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('a comma-separated value of the fallback choices is a list of them (value_separator), as for the rules', () => {
    const spec = parseHelp('Usage: tool [options]\n\nOptions:\n  --kinds <k>   Comma-separated kinds to keep. Available kinds are fruit, grain and root.\n', { fileName: 'tool.wasm' });
    expect(spec.options[0]).toMatchObject({ choices: ['fruit', 'grain', 'root'], value_separator: ',' });
  });

  it('the fallback is asked only where the rules found nothing: their list stands', () => {
    // `[possible values: …]` is the rules' notation; the prose list in the same description is not read
    expect(choicesOf('--color <when>', 'Coloring; valid values are red, green, blue [possible values: auto, always, never]')).toEqual(['auto', 'always', 'never']);
  });
});

describe('round 17: runs that are parts of a value or another option\'s values', () => {
  it.each([
    [
      'an item ending in a dash is a prefix glued onto more of a value',
      'Debug aid (none | [fast-|full-|lean-] map).',
      'Debug aid (none | [fast|full|lean] map).',
      ['fast', 'full', 'lean'],
    ],
    [
      'a bracket closing the run glued to more of the value makes it one part of a pattern',
      'Target kind: [fast|full|lean]map',
      'Target kind: [fast|full|lean] map',
      ['fast', 'full', 'lean'],
    ],
    [
      'a dotted sub-option spelling before the bracketed values: they are its, not this option\'s',
      'Available settings: --web.base <path>, --web.strict <off|on|warn>',
      'Available settings: --web.base <path>, strict <off|on|warn>',
      ['off', 'on', 'warn'],
    ],
  ])('%s', (_title, description, twin, twinChoices) => {
    expect(choicesOf('--web <opts>', description) ?? null).toBeNull();
    expect(choicesOf('--web <opts>', twin)).toEqual(twinChoices);
  });

  it('the description gives the option a value outside the run (`Use -theme=file`): the set is open', () => {
    const spellings = ['theme', 't'];
    expect(evidenceChoices('Color theme, currently supports: Dark, Light, Solar. Use -theme=file to load one from disk.', 'name', spellings)).toBeNull();
    expect(evidenceChoices('Color theme, currently supports: Dark, Light, Solar. Use -theme=Dark to darken.', 'name', spellings)).toEqual(['Dark', 'Light', 'Solar']);
    expect(choicesOf('-theme <name>', 'Color theme, currently supports: Dark, Light, Solar. Use -theme=file to load one from disk.') ?? null).toBeNull();
  });
});

describe('round 17: a sentence that is only the bracketed run', () => {
  it('dart args `Output style. [tight (default), loose]`: the run filling a sentence of its own is the set', () => {
    expect(choicesOf('--layout=<NAME>', 'Output layout. [tight (default), loose]')).toEqual(['tight', 'loose']);
    // twin: a word of the sentence before the bracket, so the sentence is not only the run
    expect(choicesOf('--layout=<NAME>', 'Output layout. Uses [tight (default), loose]') ?? null).toBeNull();
  });
});

describe('round 17: bare words side by side closing the description after a colon', () => {
  it('`One of: flat smooth toon` (a vertical list reflowed): the words are the set where a cue vouches for them', () => {
    expect(choicesOf('--shade=STYLE', 'Set the shading. One of: flat smooth toon')).toEqual(['flat', 'smooth', 'toon']);
    // twin: a label that is no cue
    expect(choicesOf('--shade=STYLE', 'Set the shading. Try: flat smooth toon') ?? null).toBeNull();
  });
  it('`it must be known to pack: xz gzip bzip2`: `must be known` states a requirement, no example', () => {
    expect(choicesOf('--squeeze=PROG', 'compression program PROG - it must be known to pack: xz gzip bzip2')).toEqual(['xz', 'gzip', 'bzip2']);
    // twin: `known` alone introduces examples
    expect(choicesOf('--squeeze=PROG', 'compression program PROG - must be one of the known: xz gzip bzip2') ?? null).toBeNull();
  });
});

describe('round 17: a numbered repeated placeholder', () => {
  it('`alg1,[alg2]`: one placeholder numbered and repeated is a list of one kind, no several parts', () => {
    expect(evidenceChoices('Digest to use. legal values: crc,adler,fnv', 'alg1,[alg2]')).toEqual(['crc', 'adler', 'fnv']);
    // twin: two different placeholders are parts, and the list describes one of them
    expect(evidenceChoices('Digest to use. legal values: crc,adler,fnv', 'alg1,[key2]')).toBeNull();
  });
});

describe('round 17: a quoted item\'s phrase opened by a comma and a relative word', () => {
  const text = (relative: string): string =>
    `How to write. MODE can be either 'fast', ${relative} skips checks, 'safe' that checks every entry on the disk before it writes anything at all to it, and 'dry' which only reports.`;
  it('`\'fast\', which skips checks, \'safe\' that … (a long phrase), and \'dry\'`: the quoted items are the set', () => {
    expect(evidenceChoices(text('which'), 'MODE')).toEqual(['fast', 'safe', 'dry']);
  });
  it('twin: a comma then a word opening no relative clause ends the run there', () => {
    expect(evidenceChoices(text('then'), 'MODE')).not.toEqual(['fast', 'safe', 'dry']);
  });
});

describe('round 17: Ruby symbols as values', () => {
  it('`:fast (…), :safe (…) or :auto (…)`: every item a Ruby symbol, the set spelled with its colons', () => {
    expect(evidenceChoices('How to write. The possible values are :fast (skip checks), :safe (check all) or :auto (decide).', 'ARG')).toEqual([':fast', ':safe', ':auto']);
  });
  it('twin: a symbol beside a key given a value (`level=2|:category`) is a template, no set', () => {
    expect(evidenceChoices('How to warn. The possible values are level=2|:category|:all.', 'ARG')).toBeNull();
  });
});

describe('round 17: a spaced tail that is a sentence', () => {
  it('`Valid values: see smooth online` points elsewhere; `One of: Flat smooth online` is capitalized prose', () => {
    expect(evidenceChoices('Set the renderer. Valid values: see smooth online', 'STYLE')).toBeNull();
    expect(evidenceChoices('Set the renderer. One of: Flat smooth online', 'STYLE')).toBeNull();
    // twin: identifiers after the same cue are the set
    expect(evidenceChoices('Set the renderer. Valid values: flat smooth online', 'STYLE')).toEqual(['flat', 'smooth', 'online']);
  });
});
