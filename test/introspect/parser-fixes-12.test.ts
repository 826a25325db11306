/**
 * Notations met in parser fixes round 11 (issue 12), each pinned on a minimal help: first defaults
 * and choices that must not be invented, then value-taking, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults that are no default', () => {
  it('jackspeak `This defaults to \'true\' on macOS and Windows platforms, and false on all others.`: a per-platform default is none', () => {
    const help =
      'Usage:\n  glob [options] [<pattern> ...]\n\nOptions:\n  --nocase   Perform a case-insensitive match. This defaults to\n             \'true\' on macOS and Windows platforms, and false on all\n             others.\n  --dot      Match dotfiles. This defaults to \'true\'.\n';
    expect(option(help, 'nocase')?.default).toBeNull();
    expect(option(help, 'dot')?.default).toBe(true);
  });
});

describe('defaults in brackets written by hand', () => {
  it('http-server `Show directory listings [true]`, `… when possible [false]` over a next sentence: literal defaults; `Measure only function [name]` is none', () => {
    const help =
      'usage: http-server [path] [options]\n\noptions:\n  -d           Show directory listings [true]\n  -b --brotli  Serve brotli files when possible [false]\n               If both brotli and gzip are enabled, brotli takes precedence\n  --perf [name]  Measure only function [name]\n  -s --silent  Suppress log messages from output\n';
    expect(option(help, 'd')?.default).toBe(true);
    expect(option(help, 'brotli')?.default).toBe(false);
    expect(option(help, 'perf')?.default).toBeNull();
  });
});

describe('hand-written helps shown by their own examples (http-server)', () => {
  const help =
    'usage: http-server [path] [options]\n\noptions:\n  -p --port    Port to use. If 0, look for open port. [8080]\n  -a           Address to use [0.0.0.0]\n  -d           Show directory listings [true]\n  -e --ext     Default file extension if none supplied [none]\n  -s --silent  Suppress log messages from output\n  --cors[=headers]   Enable CORS via the "Access-Control-Allow-Origin" header\n  -c           Cache time (max-age) in seconds [3600], e.g. -c10 for 10 seconds.\n  -P --proxy   Fallback proxy if the request cannot be resolved. e.g.: http://someurl.com\n  --proxy-options  Pass options to proxy using nested dotted objects. e.g.: --proxy-options.secure false\n  --username   Username for basic authentication [none]\n  -v --version  Print the version and exit.\n';

  it('`-c … e.g. -c10 for 10 seconds` (its own letter glued to a number) and `--proxy-options.secure false` take values; then the help is hand-written', () => {
    expect(option(help, 'c')).toMatchObject({ takes_value: true, default: 3600 });
    expect(option(help, 'proxy-options')?.takes_value).toBe(true);
  });

  it('…so its bracketed literals are defaults that say a value is taken, `[none]` a value without one, an example URL a value; `[true]` stays a flag', () => {
    expect(option(help, 'port')).toMatchObject({ takes_value: true, default: 8080 });
    expect(option(help, 'a')).toMatchObject({ takes_value: true, default: '0.0.0.0' });
    expect(option(help, 'ext')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'username')?.takes_value).toBe(true);
    expect(option(help, 'proxy')?.takes_value).toBe(true);
    expect(option(help, 'd')).toMatchObject({ takes_value: false, default: true });
    expect(option(help, 'silent')?.takes_value).toBe(false);
  });

  it('ts-node `-v  Print module version information.  -vvv to print additional information`: letters glued are a count, no value', () => {
    const counted = 'Usage: ts-node [options]\n\nOptions:\n  -e, --eval [code]   Evaluate code\n  -V, --verbose       Print more.  -VVV to print additional information\n  -p, --print         Print result\n';
    expect(option(counted, 'verbose')?.takes_value).toBe(false);
  });
});

describe('value-taking', () => {
  it('yargs epilog `If neither -o, --dir, or` / `--replace is passed, it writes to stdout.`: a flag opening a wrapped sentence is prose', () => {
    const help =
      'Usage:\npostcss [input.css] [OPTIONS] [-o|--output output.css]\n\nOptions:\n  -o, --output   Output file                                            [string]\n  -r, --replace  Replace (overwrite) the input file                    [boolean]\n  -h, --help     Show help                                             [boolean]\n\nIf neither -o, --dir, or\n--replace is passed, it writes to stdout.\n';
    expect(option(help, 'replace')).toMatchObject({ takes_value: false });
    expect(option(help, 'replace')?.value_optional).toBeUndefined();
  });
});

describe('hand-written helps in the meow layout', () => {
  it('serve (over `arg`) `  USAGE` / `    $ serve …` / `  OPTIONS` in capitals: descriptions say which bare options take a value', () => {
    const help =
      '\n  serve - Static file serving\n\n  USAGE\n\n    $ serve --help\n    $ serve [-l listen_uri [-l ...]] [directory]\n\n  OPTIONS\n\n    --help                Shows this help message\n\n    -l, --listen listen_uri   Specify a URI endpoint on which to listen\n\n    -p                    Specify custom port\n\n    -s, --single          Rewrite all not-found requests to `index.html`\n\n    --ssl-cert            Optional path to an SSL/TLS certificate to serve with HTTPS\n\n    -d, --debug           Show debugging information\n';
    expect(option(help, 'p')?.takes_value).toBe(true);
    expect(option(help, 'ssl-cert')?.takes_value).toBe(true);
    expect(option(help, 'single')?.takes_value).toBe(false);
    expect(option(help, 'debug')?.takes_value).toBe(false);
  });

  it('oclif capitals stand flush left (`USAGE` / `  $ prog`): its bare flags stay flags', () => {
    const help = 'USAGE\n  $ mycli [FILE]\n\nOPTIONS\n  -p, --pretty    Specify pretty output\n  -o, --out=out   Output file\n';
    expect(option(help, 'pretty')?.takes_value).toBe(false);
  });
});

describe('yargs switches', () => {
  it('an untagged `-m, --map` whose `--no-map` is listed as an option of its own is a switch; an untagged `--env` still takes a value', () => {
    const help =
      'Options:\n  -m, --map      Create an external sourcemap\n      --no-map   Disable the default inline sourcemaps\n      --env      A shortcut for setting NODE_ENV\n  -h, --help     Show help                                             [boolean]\n';
    expect(option(help, 'map')?.takes_value).toBe(false);
    expect(option(help, 'env')?.takes_value).toBe(true);
  });
});

describe('positionals', () => {
  it('yargs forms flush left under `Usage:`, one a line: `prog [input.css]` then `prog <input.css>... --dir <d>` make the optional input variadic', () => {
    const help =
      'Usage:\npostcss [input.css] [OPTIONS] [-o|--output output.css]\npostcss <input.css>... [OPTIONS] --dir <output-directory>\n\nOptions:\n  -o, --output   Output file                                            [string]\n  -d, --dir      Output directory                                       [string]\n  -h, --help     Show help                                             [boolean]\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['input.css', false, true]]);
  });

  it('stylelint `  Input: Files(s), glob(s), or nothing to use stdin.` (the text on the indented title\'s line, a noun counted `(s)`): `[input]` is variadic', () => {
    const help =
      '\n  A mighty CSS linter.\n\n  Usage: stylelint [input] [options]\n\n  Input: Files(s), glob(s), or nothing to use stdin.\n\n  Options:\n\n    --fix   Fix problems.\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['input', false, true]]);
  });

  it('GNU ln `ln [OPTION]... TARGET LINK_NAME` then `ln [OPTION]... TARGET... DIRECTORY`: modes, the first form\'s required TARGET stays single', () => {
    const help = 'Usage: ln [OPTION]... [-T] TARGET LINK_NAME\n  or:  ln [OPTION]... TARGET... DIRECTORY\n\n  -f, --force   remove existing destination files\n';
    expect(parseHelp(help).positionals.find((positional) => positional.name === 'TARGET')?.variadic).toBe(false);
  });
});

describe('descriptions under a blank line (stylelint)', () => {
  const help =
    '\n  Usage: stylelint [input] [options]\n\n  Options:\n\n    -c <path_or_module>, --config=<path_or_module>\n\n      A path to a specific configuration file, searched in these places:\n\n        - a "stylelint" property in "package.json"\n        - a ".stylelintrc" file\n\n    --fix[=<mode>]\n\n      Automatically fix problems of certain rules. The modes are as follows:\n\n        strict       only fixing when there are no syntax errors (default)\n        lax          attempting to fix as much as possible even with syntax errors\n\n    --cache-strategy=<strategy>\n\n      A strategy for the cache to use for detecting changed files. Either one of:\n\n        metadata     by metadata of a file (default)\n        content      by content of a file\n\n      The "content" strategy can be useful in cases where the modification time changes.\n\n    --globby-options=<json>\n\n      Options in JSON format. Supported options are "braceExpansion", "dot", "extglob" and "ignore".\n\n    -q, --quiet\n\n      Only register problems for rules with an "error"-level severity.\n';

  it('a head alone over a blank line owns the deeper paragraphs under it: their definition list gives choices, the item marked `(default)` the default', () => {
    expect(option(help, 'fix')).toMatchObject({ choices: ['strict', 'lax'], default: 'strict' });
    expect(option(help, 'cache-strategy')).toMatchObject({ choices: ['metadata', 'content'], default: 'metadata' });
    expect(option(help, 'quiet')?.description).toContain('Only register problems');
  });

  it('a bullet list whose lines all open with `a` is prose, and the words listed for a `<json>` value are its keys: no choices', () => {
    expect(option(help, 'config')?.choices).toBeNull();
    expect(option(help, 'globby-options')?.choices).toBeNull();
  });
});

describe('sade commands', () => {
  it('`  Available Commands` (no colon, indented by two) lists commands; `  For more info, run …` at the title\'s indent is no command; `<command>` is then no positional', () => {
    const help =
      '\n  Usage\n    $ microbundle <command> [options]\n\n  Available Commands\n    build    Build once and exit\n    watch    Rebuilds on any change\n\n  For more info, run any command with the `--help` flag\n    $ microbundle build --help\n\n  Options\n    -w, --watch          Rebuilds on any change  (default false)\n    -h, --help           Displays this message\n';
    const spec = parseHelp(help);
    expect(spec.subcommands.map((command) => command.name)).toEqual(['build', 'watch']);
    expect(spec.positionals).toEqual([]);
  });
});

describe('sade examples and own spellings', () => {
  const help =
    '\n  Usage\n    $ microbundle <command> [options]\n\n  Available Commands\n    build    Build once and exit\n    watch    Rebuilds on any change\n\n  Options\n    -w, --watch          Rebuilds on any change  (default false)\n    --define             Replace constants with hard-coded values\n    --css-modules        Turns on css-modules. Passing a string will override the scopeName. eg --css-modules="_[hash]"\n    --strict             Enforce undefined global context\n    --raw                Show raw byte size  (default false)\n    -h, --help           Displays this message\n\n  Examples\n    $ microbundle --define API_KEY=1234\n    $ microbundle build --strict\n';

  it('`$ microbundle --define API_KEY=1234` gives a value: `<command>` over listed commands is no positional the word could be', () => {
    expect(option(help, 'define')?.takes_value).toBe(true);
    expect(option(help, 'strict')?.takes_value).toBe(false);
  });

  it('`eg --css-modules="_[hash]"` in its own description: a value attached by `=`', () => {
    expect(option(help, 'css-modules')?.takes_value).toBe(true);
    expect(option(help, 'raw')?.takes_value).toBe(false);
  });
});

describe('sade choices', () => {
  const help =
    '\n  Usage\n    $ microbundle [options]\n\n  Options\n    -f, --format         Only build specified formats (any of modern,esm,cjs,umd or iife)  (default modern,esm,cjs,umd)\n    -w, --watch          Rebuilds on any change  (default false)\n    --target             Specify your target environment (node or web)  (default web)\n    --cwd                Use an alternative working directory  (default .)\n    --raw                Show raw byte size  (default false)\n    -h, --help           Displays this message\n';

  it('`(any of modern,esm,cjs,umd or iife)` on an option a stated default makes value-taking: its choices, the comma-joined default kept', () => {
    expect(option(help, 'format')).toMatchObject({ takes_value: true, choices: ['modern', 'esm', 'cjs', 'umd', 'iife'], default: 'modern,esm,cjs,umd' });
  });

  it('`-i, --entry  Entry module(s)`: a noun phrase counted `(s)`, the whole description, names a value in a help without placeholders', () => {
    const bare = `${help}    -i, --entry          Entry module(s)\n    --strict             Enforce undefined global context\n`;
    expect(option(bare, 'entry')?.takes_value).toBe(true);
    expect(option(bare, 'strict')?.takes_value).toBe(false);
  });

  it('`Declares the module specifier to be used for …` names a value; `Disallow undefined variables to be used …` does not', () => {
    const bare = `${help}    --jsxImportSource    Declares the module specifier to be used for importing jsx factory functions\n    --strict             Disallow undefined variables to be used within the template\n`;
    expect(option(bare, 'jsxImportSource')?.takes_value).toBe(true);
    expect(option(bare, 'strict')?.takes_value).toBe(false);
  });

  it('`(node or web)  (default web)`: a parenthesized pair holding the default', () => {
    expect(option(help, 'target')).toMatchObject({ takes_value: true, choices: ['node', 'web'], default: 'web' });
    expect(option(help, 'cwd')?.choices).toBeNull();
  });
});

describe('cac optional values', () => {
  it('`-c, --commit [msg]  Commit message (default: true)`: on unless negated, a default; `--changed [since] (default: false)` states none; `[mode]` with the choice `true` names it', () => {
    const help =
      'bumpp/11.1.0\n\nUsage:\n  $ bumpp [...files]\n\nOptions:\n  -c, --commit [msg]   Commit message (default: true) \n  --changed [since]    Run tests that are affected by the changed files (default: false) \n  --split-css [mode]   Whether to output CSS. Options: true, false, multi, single (default: true)\n  -h, --help           Display this message \n';
    expect(option(help, 'commit')).toMatchObject({ takes_value: true, default: true });
    expect(option(help, 'changed')?.default).toBeNull();
    expect(option(help, 'split-css')?.default).toBe('true');
  });
});

describe('clipanion (napi build) defaults', () => {
  const help =
    'Build the NAPI-RS project\n\n$ napi build ...\n\nOptions\n\n  --dts-cache               Whether to enable the dts cache, default to true\n  --format #0               The module format of the generated JS binding file. Defaults to `commonjs`.\n  --esm                     Alias for `--format esm`.\n  --commonjs                Alias for `--format commonjs`.\n  --names #0                Mock names default to \'Mock\'+ interfaceName suffix.\n  --sel #0                  Selector to filter on. If present, default to ".*" for the pod-query.\n';

  it('`…, default to true` closing a clause is a default; `Mock names default to …` and `default to ".*" for …` go on as prose', () => {
    expect(option(help, 'dts-cache')?.default).toBe(true);
    expect(option(help, 'names')?.default).toBeNull();
    expect(option(help, 'sel')?.default).toBeNull();
  });

  it('``Defaults to `commonjs` `` beside a flag `--commonjs  Alias for --format commonjs`: a shortcut flag for the value, so the value is the default', () => {
    expect(option(help, 'format')?.default).toBe('commonjs');
  });
});

describe('clipanion prompt forms', () => {
  it('`$ napi build ...` under the description, no usage title: the form, its words the command path, the lone ellipsis no positional', () => {
    const help = 'Build the NAPI-RS project\n\n$ napi build ...\n\nOptions\n\n  --target,-t #0            Build for the target triple\n  --release,-r              Build in release mode\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('napi_build');
    expect(spec.positionals).toEqual([]);
  });

  it('`$ cowsay hello` opening a help is an example with a real value, no form naming a command path', () => {
    const help = 'Make a cow speak\n\n$ cowsay hello\n\nOptions\n\n  --eyes,-e #0    Eye string\n  --think         Think instead of speaking\n';
    expect(parseHelp(help).name).not.toBe('cowsay_hello');
  });
});

describe('oclif forms wrapped inside a bracket', () => {
  it('`$ asyncapi diff OLD NEW [-h] [-t` / `    breaking|non-breaking|all] [-o <value>]`: one form, no subcommands from its pieces', () => {
    const help =
      'Find diff between two asyncapi files\n\nUSAGE\n  $ asyncapi diff OLD NEW [-h] [-t\n    breaking|non-breaking|unclassified|all] [--markdownSubtype json|yaml|yml]\n    [-o <value>]\n\nARGUMENTS\n  OLD  old spec path\n  NEW  new spec path\n\nFLAGS\n  -h, --help\n      Show CLI help.\n\n  -o, --overrides=<value>\n      path to JSON file\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('asyncapi_diff');
    expect(spec.subcommands).toEqual([]);
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['OLD', 'NEW']);
  });
});

describe('titles with a colon', () => {
  it('`  Commands:` listing its entries at its own indent still lists them (only a title without a colon sets them deeper)', () => {
    const help = 'Usage: tool <command>\n\n  Commands:\n  build   Build it\n  serve   Serve it\n';
    expect(parseHelp(help).subcommands.map((command) => command.name)).toEqual(['build', 'serve']);
  });
});

describe('forms that disagree on their positionals', () => {
  it('serve `$ serve --help`, `$ serve folder_name`, `$ serve [-l listen_uri [-l ...]] [directory]`: the bare word may be a literal example; the placeholder form decides', () => {
    const help =
      '\n  serve - Static file serving\n\n  USAGE\n\n    $ serve --help\n    $ serve folder_name\n    $ serve [-l listen_uri [-l ...]] [directory]\n\n  OPTIONS\n\n    -l, --listen listen_uri   Specify a URI endpoint\n\n    -d, --debug               Show debugging information\n';
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['directory', false, false]]);
  });
});
