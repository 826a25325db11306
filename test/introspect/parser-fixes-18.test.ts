/**
 * Notations met in parser fixes round 12 on batch 16's JS/TS and Rust/Go texts (issue 12), each
 * pinned on a minimal help: choices, defaults, value-taking, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('choices', () => {
  it('a definition list written `name: meaning` under a line ending in `:`; an item left in an open parenthesis runs on', () => {
    const help =
      'Usage: rm <path>\n\nOptions:\n  -g --glob       Treat arguments as glob patterns\n  --impl=<type>   Specify the implementation to use:\n                  rimraf: choose the best option (default)\n                  native: the built-in implementation\n                  windows: the Windows implementation (falls back to\n                           move-remove on ENOTEMPTY)\n                  move-remove: a slow reliable fallback\n';
    expect(option(help, 'impl')).toMatchObject({ choices: ['rimraf', 'native', 'windows', 'move-remove'], default: 'rimraf' });
  });

  it('a capitalized `Note: …` line under a colon line is no definition item', () => {
    const help = 'Options:\n  --mode <m>   Pick one:\n               Note: see the manual\n               Example: fast\n';
    expect(option(help, 'mode')?.choices).toBeNull();
  });
});

describe('value-taking', () => {
  it('unified-args `--resolve-from cwd|dir`: lower-case values joined by bare pipes take a value and are its choices', () => {
    const help = 'Options:\n      --resolve-from cwd|dir  resolve patterns from its directory or cwd\n      --source path|glob      where to read\n  -q  --quiet                 output only errors\n';
    expect(option(help, 'resolve-from')).toMatchObject({ takes_value: true, choices: ['cwd', 'dir'] });
    // every alternative a kind of value: one placeholder
    expect(option(help, 'source')).toMatchObject({ takes_value: true, choices: null });
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });
});

describe('defaults', () => {
  it('stylus `--ext   …, default .css`: a bare option whose stated default is a file suffix or path takes that value', () => {
    const help =
      'Usage: stylus [options]\n\nOptions:\n    -u, --use <path>    Use the plugin at <path>\n    --ext               Specify custom file extension for compiled file, default .css\n    --dest              Output directory, default ./out\n    -c, --compress      Compress CSS output, default on\n';
    expect(option(help, 'ext')).toMatchObject({ takes_value: true, default: '.css' });
    expect(option(help, 'dest')).toMatchObject({ takes_value: true, default: './out' });
    expect(option(help, 'compress')).toMatchObject({ takes_value: false, default: null });
    expect(option('Options:\n  -c, --config <file>  Config file\n  --no-config          Skip the config file, default ~/.foorc\n', 'no-config')?.takes_value).toBe(false);
  });

  it('`, default <value>` closing a description; not a pattern holding a `<placeholder>`', () => {
    const help = 'Options:\n  --format <f>   Output format, default json\n  --output <o>   output file name, default srcdir/<type>_string.go\n';
    expect(option(help, 'format')?.default).toBe('json');
    expect(option(help, 'output')?.default).toBeNull();
  });

  it('csso `none (default), inline, file or <filename>`: a word marked among listed values is the default, even `none`', () => {
    const help = 'Options:\n  -s, --source-map <destination>  Generate source map: none (default), inline, file or <filename>\n  -o, --output <filename>         Output file (default: none)\n';
    expect(option(help, 'source-map')).toMatchObject({ default: 'none', choices: null });
    // `none` alone names no value
    expect(option(help, 'output')?.default).toBeNull();
  });

  it('unified-args `--[no-]color … (on by default)`: a negatable switch stated on (and off)', () => {
    const help = 'Options:\n      --[no-]color    specify color in report (on by default)\n      --[no-]watch    watch files (off by default)\n      --stdout        write to stdout (on by default)\n';
    expect(option(help, 'color')).toMatchObject({ takes_value: false, default: true, negation: '--no-color' });
    expect(option(help, 'watch')).toMatchObject({ takes_value: false, default: false });
    // a switch without a negation states no value to pass
    expect(option(help, 'stdout')?.default).toBeNull();
  });
});

describe('positionals', () => {
  it('stylus `[< in [> out]]`: a shell redirection and its file are no positional; `<file>` still is', () => {
    const spec = parseHelp('Usage: stylus [options] [< in [> out]] [file ...]\n\nOptions:\n  -w, --watch   Watch files\n');
    expect(spec.positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['file', false, true]]);
    const plain = parseHelp('Usage: conv [options] <input> > out.txt\n\nOptions:\n  -w, --watch   Watch files\n');
    expect(plain.positionals.map((positional) => positional.name)).toEqual(['input']);
  });

  it('bpaf `Usage: [-c=<FILE>] [PATH]...`: a form naming no program still gives its positionals, and the name comes from the file', () => {
    const spec = parseHelp('Usage: [-c=<FILE>] [PATH]...\n\nAvailable options:\n    -c, --config=<FILE>  Config file\n', { fileName: 'oxlint.wasm' });
    expect(spec.positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['PATH', false, true]]);
    expect(spec.name).toBe('oxlint');
  });
});
