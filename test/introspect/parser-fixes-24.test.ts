/**
 * Notations met in parser fixes round 14 (issue 12, batch 12 JS/TS, Rust and Go texts), each pinned
 * on a minimal help: first defaults and choices that must not be invented, then value-taking,
 * choices, defaults, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults and choices not invented', () => {
  it("meow `[Default: 'a.ts' or '.tsx']`: quoted alternatives are no one default, yet say a value is taken", () => {
    const help =
      "\n  Check things\n\n  Usage\n    $ tsd [path]\n\n  Options\n    --typings    -t  Type definition file to test  [Default: \"types\" property in package.json]\n    --files      -f  Glob of files to test         [Default: '/path/test-d/**/*.test-d.ts' or '.tsx']\n    --show-diff      Show type error diffs         [Default: don't show]\n";
    expect(option(help, 'files')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'typings')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'show-diff')?.takes_value).toBe(false);
  });

  it('pflag `(default "a" or "b" depending on dcs-type.)`: one default per case is none', () => {
    const help =
      'Usage of vip:\n      --dcs-endpoints string    DCS endpoint(s). (default "http://127.0.0.1:2379" or "http://127.0.0.1:8500" depending on dcs-type.)\n      --interval string         DCS scan interval in milliseconds. (default "1000")\n';
    expect(option(help, 'dcs-endpoints')?.default).toBeNull();
    expect(option(help, 'interval')?.default).toBe('1000');
  });

  it('Go flag `i.e: "column:{field}", "field_name={field}"`: templates the program fills in are no closed set', () => {
    const help =
      'Usage of tags:\n  -template string\n    \tFormat the given tag\'s value. i.e: "column:{field}", "field_name={field}"\n  -transform string\n    \tTransform rule. Current options: [snakecase, camelcase, keep] (default "snakecase")\n  -w\tWrite results to file\n';
    expect(option(help, 'template')).toMatchObject({ takes_value: true, choices: null });
    expect(option(help, 'transform')?.choices).toEqual(['snakecase', 'camelcase', 'keep']);
  });
});

describe('literal-value lines', () => {
  it('`--formats=liquid,md`: a comma list after `=` is one example value, no one-item enum', () => {
    const help = 'Usage: site\n\nArguments:\n\n     --formats=liquid,md\n       Allow only certain template types (default: `*`)\n\n     --quiet\n       Be quiet\n';
    expect(option(help, 'formats')).toMatchObject({ takes_value: true, choices: null, default: '*' });
  });

  it('`--to=json` / `--to=ndjson` lines with `(default: `fs`)`: the stated one-word default is one more value', () => {
    const help = 'Usage: site\n\nArguments:\n\n     --to=json\n     --to=ndjson\n       Change the output to JSON or NDJSON (default: `fs`)\n\n     --quiet\n       Be quiet\n';
    expect(option(help, 'to')).toMatchObject({ takes_value: true, choices: ['json', 'ndjson', 'fs'], default: 'fs' });
  });
});

describe('hand-written heads over a blank line (parseArgs wait-on)', () => {
  const help =
    'Usage: wait-on {OPTIONS} resource [...resource]\n\nStandard Options:\n\n -d, --delay\n\n  Initial delay before checking for resources in ms, default 0\n\n --httpTimeout\n\n  Maximum time in ms to wait for an HTTP request,\n  default 0 which results in no timeout.\n  Use postfix \'ms\', \'s\', \'m\' or \'h\' to change the unit.\n\n -i, --interval\n\n  Interval to poll resources in ms, default 250ms\n\n -l, --log\n\n  Log resources begin waited on\n\n  --tcpTimeout\n\n  Maximum time in ms for tcp connect\n\n -w, --window\n\n  Stability window in ms, default 750ms. If less than interval, it will be reset.\n';

  it('a paragraph one deeper than a head alone over a blank line (then at that indent) is its description', () => {
    expect(option(help, 'delay')).toMatchObject({ takes_value: true, default: 0 });
    expect(option(help, 'log')).toMatchObject({ takes_value: false, description: 'Log resources begin waited on' });
    expect(option(help, 'tcpTimeout')?.description).toBe('Maximum time in ms for tcp connect');
  });

  it('`in ms, default 250ms` is the number; `default 750ms. If …`: a period ends the value', () => {
    expect(option(help, 'interval')).toMatchObject({ takes_value: true, type: 'integer', default: 250 });
    expect(option(help, 'window')).toMatchObject({ takes_value: true, default: 750 });
  });

  it("`Use postfix 'ms', 's', 'm' or 'h'` lists suffixes, no values", () => {
    expect(option(help, 'httpTimeout')).toMatchObject({ takes_value: true, choices: null, default: 0 });
    const placeholders = "Usage: wait [options]\n\nOptions:\n  -t, --timeout <time>  Maximum time to wait. Use postfix 'ms', 's', 'm' or 'h' to change the unit.\n";
    expect(option(placeholders, 'timeout')?.choices).toBeNull();
  });
});

describe('defaults not invented (expressions)', () => {
  it('clap `Goal width, default ~0.94*WIDTH.`: an approximate product is computed, no default', () => {
    const help = 'Usage: fmt [OPTION]... [FILE]...\n\nOptions:\n  -g, --goal <GOAL>           Goal width, default ~0.94*WIDTH. Must be less than WIDTH.\n  -T, --tab-width <TABWIDTH>  Treat tabs as TABWIDTH spaces, default 8.\n';
    expect(option(help, 'goal')?.default).toBeNull();
    expect(option(help, 'tab-width')?.default).toBe(8);
  });
});

describe('usage-only long options', () => {
  it('live-server `[-q|--quiet] [--port=PORT] [--mount=ROUTE:PATH]`: capital value words after `=`, a short spelling before the long', () => {
    const help = 'Usage: live-server [-v|--version] [-h|--help] [-q|--quiet] [--port=PORT] [--no-browser] [--mount=ROUTE:PATH] [PATH]\n';
    expect(option(help, 'quiet')).toMatchObject({ short: 'q', takes_value: false });
    expect(option(help, 'port')).toMatchObject({ takes_value: true, value_name: 'PORT' });
    expect(option(help, 'mount')).toMatchObject({ takes_value: true, value_name: 'ROUTE:PATH' });
    expect(option(help, 'version')).toBeUndefined();
  });
});

describe('dot leaders', () => {
  it('nodemon `-x, --exec app ........... execute script`: the dot leader ends the head, so a bare value word stays its value', () => {
    const help =
      'Execution\n  -C, --on-change-only ..... execute script on change only, not startup\n  -x, --exec app ........... execute script with "app", ie. -x "python -v"\n  -d, --delay n ............ debounce restart for "n" seconds\n';
    expect(option(help, 'exec')).toMatchObject({ takes_value: true, value_name: 'app' });
    expect(option(help, 'delay')).toMatchObject({ takes_value: true, value_name: 'n' });
    expect(option(help, 'on-change-only')?.takes_value).toBe(false);
  });

  it('cwebp `-m <int> ....` over `-segments <int> ....`: a one-dash long at the same indent is an option of its own', () => {
    const help = 'Usage:\n cwebp [options] -q quality input.png -o output.webp\n\n  -m <int> ............... compression method (0=fast, 6=slowest), default=4\n  -segments <int> ........ number of segments to use (1..4), default=4\n';
    const spec = parseHelp(help);
    expect(spec.options.find((candidate) => candidate.short === 'm')?.long ?? null).toBeNull();
    expect(spec.options.find((candidate) => candidate.long === 'segments')?.short ?? null).toBeNull();
  });
});

describe('description cues in helps without placeholders', () => {
  it('browserify `A module name or file to …`, `An entry point of your app`, `… for the supplied export name.`', () => {
    const help =
      'Usage: bundle [entry files] {OPTIONS}\n\nStandard Options:\n\n    --require, -r  A module name or file to bundle.require()\n      --entry, -e  An entry point of your app\n  --standalone -s  Generate a UMD bundle for the supplied export name.\n       --debug -d  Enable source maps\n      --list, -l   Show files\n       --full -f   Use a long listing\n';
    expect(option(help, 'require')?.takes_value).toBe(true);
    expect(option(help, 'entry')?.takes_value).toBe(true);
    expect(option(help, 'standalone')?.takes_value).toBe(true);
    expect(option(help, 'debug')?.takes_value).toBe(false);
    expect(option(help, 'full')?.takes_value).toBe(false);
  });
});

describe('choices of bare options', () => {
  it('eleventy `Set to "esm" to …, "cjs" to …, or "auto" (default) to …`: the quoted settings are the values, the marked one the default', () => {
    const help =
      'Usage: site\n\nArguments:\n\n     --quiet\n       Be quiet\n\n     --loader\n       Set to "esm" to force ESM mode, "cjs" to force CommonJS mode, or "auto" (default) to infer it from package.json.\n';
    expect(option(help, 'loader')).toMatchObject({ takes_value: true, choices: ['esm', 'cjs', 'auto'], default: 'auto' });
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });
});

describe('meow', () => {
  const help =
    '\n  Get the gzipped size of a file or stdin\n\n  Usage\n    $ gzip-size <file>\n    $ cat <file> | gzip-size\n\n  Options\n    --level             Compression level [0-9] (Default: 9)\n    --raw               Display value in bytes\n    --include-original  Include original size\n';

  it('however few its options, a stated number default says a value is taken', () => {
    expect(option(help, 'level')).toMatchObject({ takes_value: true, default: 9 });
    expect(option(help, 'raw')?.takes_value).toBe(false);
  });

  it('`$ cat <file> | gzip-size`: a form fed by a pipe from a producer given a placeholder runs without the positional', () => {
    expect(parseHelp(help).positionals).toMatchObject([{ name: 'file', required: false, variadic: false }]);
  });
});

describe('names', () => {
  it('yargs `--dr, --dryrun`: the full word names the option, the abbreviation is its alias', () => {
    const help =
      'Options:\n  -h, --help          Show help                                        [boolean]\n      --dr, --dryrun  Prints out the contents       [boolean] [default: false]\n      --kill-signal, --ks  Signal to send                           [string]\n';
    expect(option(help, 'dryrun')).toMatchObject({ aliases: ['--dr'], takes_value: false });
    expect(option(help, 'dr')).toBeUndefined();
    expect(option(help, 'kill-signal')?.aliases).toEqual(['--ks']);
  });

  it('yargs `typeorm migration:generate <path>`: a `topic:command` word after the program is its command path', () => {
    const help =
      'typeorm migration:generate <path>\n\nGenerates a new migration file.\n\nPositionals:\n  path  Path of the migration file                           [string] [required]\n\nOptions:\n  -h, --help          Show help                                        [boolean]\n  -p, --pretty        Pretty-print generated SQL      [boolean] [default: false]\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('typeorm_migration_generate');
    expect(spec.positionals).toMatchObject([{ name: 'path', required: true, variadic: false }]);
  });

  it('`license-checker@25.0.1` opening the help names the program; a one-word title over options names none', () => {
    expect(parseHelp('license-checker@25.0.1\n\n   --production only show production dependencies.\n   --json output in json format.\n', { fileName: 'x.wasm' }).name).toBe('license-checker');
    expect(parseHelp('\nConfiguration\n  --config <file> .......... alternate config file to use\n  --exitcrash .............. exit on crash\n', { fileName: 'nodemon.wasm' }).name).toBe('nodemon');
  });
});

describe('positionals', () => {
  it('citty `[-- ...extraArgs]` beside an `Arguments:` list that leaves it out: passed-through arguments, optional and repeated', () => {
    const help =
      'Usage: untun [tunnel] [url] [options] [-- ...extraArgs]\n\nArguments:\n  url                       The URL of the tunnel\n\nOptions:\n  --port <port>             The port of the tunnel (default: 3000)\n';
    expect(parseHelp(help).positionals).toMatchObject([
      { name: 'url', required: false, variadic: false },
      { name: 'extraArgs', required: false, variadic: true },
    ]);
    expect(parseHelp(help).positionals).toHaveLength(2);
  });
});

describe('defaults', () => {
  it("commander `Defaults to a double \\`quote\\`, '\"\"'.`: the quoted value after a gloss in words", () => {
    const help =
      'Usage: json2csv [options]\n\nOptions:\n  -Q, --escaped-quote <escapedQuote>  Character(s) to use as a escaped quote.\n                                      Defaults to a double `quote`, \'""\'.\n  -b, --with-bom                      Includes BOM character.\n';
    expect(option(help, 'escaped-quote')?.default).toBe('""');
  });
});

describe('hand-wrapped defaults', () => {
  it('wait-on `…, default Infinity` / `Setting this to 1 …`: a line ending in the default, the next opening a sentence', () => {
    const help =
      'Usage: wait-on {OPTIONS} resource\n\nStandard Options:\n\n -s, --simultaneous\n\n  Simultaneous connections to a resource, default Infinity\n  Setting this to 1 would delay new requests.\n\n -t, --timeout\n\n  Maximum time in ms to wait before exiting,\n  default Infinity\n  Use postfix \'ms\' or \'s\' to change the unit.\n\n  --tcpTimeout\n\n  Maximum time in ms for tcp connect, default 300ms\n  Use postfix \'ms\' or \'s\' to change the unit.\n\n -l, --log\n\n  Log resources\n\n -v, --verbose\n\n  Enable debug output\n';
    expect(option(help, 'simultaneous')).toMatchObject({ takes_value: true, default: 'Infinity' });
    expect(option(help, 'timeout')).toMatchObject({ takes_value: true, default: 'Infinity' });
    expect(option(help, 'tcpTimeout')).toMatchObject({ takes_value: true, default: 300 });
    expect(option(help, 'log')?.takes_value).toBe(false);
  });
});

describe('dot leaders only after the head', () => {
  it("GNU sort `-M, --month-sort  compare (unknown) < 'JAN' < ... < 'DEC'`: an ellipsis in the description stays", () => {
    const help = "Usage: sort [OPTION]... [FILE]...\n\n  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'\n  -n, --numeric-sort          compare according to string numerical value\n";
    expect(option(help, 'month-sort')?.description).toBe("compare (unknown) < 'JAN' < ... < 'DEC'");
  });
});

describe('description cues (hand-written wait-on)', () => {
  it('`ex: -H "Authorization: …"` gives the option a value; `js or json config file, useful for …` names a file', () => {
    const help =
      'Usage: wait-on {OPTIONS} resource\n\nStandard Options:\n\n -c, --config\n\n  js or json config file, useful for http(s) options\n\n -H, --header\n\n  HTTP header to send with requests.\n  ex: -H "Authorization: Bearer TOKEN"\n\n -l, --log\n\n  Log resources\n\n -r, --reverse\n\n  Reverse operation\n\n -v, --verbose\n\n  Enable debug output\n';
    expect(option(help, 'config')?.takes_value).toBe(true);
    expect(option(help, 'header')?.takes_value).toBe(true);
    expect(option(help, 'log')?.takes_value).toBe(false);
  });
});

describe('Go flag defaults', () => {
  it('`(default: module of first package) (default "<module>")`: the value the flag package prints outranks the prose before it', () => {
    const help =
      'Usage of deadcode:\n  -filter string\n    \treport only packages matching this regular expression (default: module of first package) (default "<module>")\n  -test\n    \tinclude implicit test packages\n';
    expect(option(help, 'filter')?.default).toBe('<module>');
  });
});

describe('urfave value lists', () => {
  it('`specify smux version, available 1,2 (default: 1)`: the values named `available`, holding the default', () => {
    const help =
      'USAGE:\n   client [global options] command [command options] [arguments...]\n\nGLOBAL OPTIONS:\n   --smuxver value                  specify smux version, available 1,2 (default: 1)\n   --smuxbuf value                  the overall de-mux buffer in bytes (default: 4194304)\n';
    expect(option(help, 'smuxver')).toMatchObject({ choices: ['1', '2'], default: '1' });
    expect(option(help, 'smuxbuf')?.choices).toBeNull();
  });
});

describe('layouts typed by hand (hand-layout.ts)', () => {
  it('nodemon dot leaders: a bare option with a stated number default takes a value; a stated `default=off` is a switch', () => {
    const help =
      'Watching\n  -d, --delay n ............ debounce restart for "n" seconds\n  -L, --legacy-watch ....... use polling to watch for changes\n  -P, --polling-interval ... combined with -L, milliseconds to poll for (default 100)\n  -q, --quiet .............. minimise messages\n  -l, --lossless ........... encode losslessly, default=off\n';
    expect(option(help, 'polling-interval')).toMatchObject({ takes_value: true, default: 100 });
    expect(option(help, 'lossless')).toMatchObject({ takes_value: false, default: null });
    expect(option(help, 'legacy-watch')?.takes_value).toBe(false);
  });

  it('license-checker: descriptions a single space after the head; description cues count', () => {
    const help =
      'license-checker@25.0.1\n\n   --production only show production dependencies.\n   --json output in json format.\n   --csv output in csv format.\n   --csvComponentPrefix column prefix for components in csv file\n   --out [filepath] write the data to a specific file.\n';
    expect(option(help, 'csvComponentPrefix')?.takes_value).toBe(true);
    expect(option(help, 'production')?.takes_value).toBe(false);
    expect(option(help, 'out')?.takes_value).toBe(true);
  });
});

describe('example-valued heads (eleventy)', () => {
  const help =
    'Usage: site\n\nArguments:\n\n     --input=.\n       Input template files (default: `.`)\n\n     --config=filename.js\n       Override the config file path (default: `.site.js`)\n\n     --pathprefix=\'/\'\n       Change all url template filters to use this subdirectory.\n\n     --serve\n       Run web server on --port (default 8080) and watch them too\n\n     --port\n       Run the --serve web server on this port (default 8080)\n\n     --quiet\n       Don’t print all written files (off by default)\n';

  it('heads giving example values are typed by hand: a bare option with a stated default takes a value', () => {
    expect(option(help, 'port')).toMatchObject({ takes_value: true, default: 8080 });
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });

  it('`on --port (default 8080) and …`: a parenthesis after another option\'s spelling is that option\'s', () => {
    expect(option(help, 'serve')).toMatchObject({ takes_value: false, default: null });
  });
});

describe('usage spellings then a value', () => {
  it('json2ts `[--input, -i] [IN_FILE] [--output, -o] [OUT_FILE]`: options taking the bracketed value, which stays a positional too', () => {
    const help = 'Usage: json2ts [--input, -i] [IN_FILE] [--output, -o] [OUT_FILE] [OPTIONS]\n\n  --cwd=XXX\n      Root directory for resolving $ref\n';
    const spec = parseHelp(help);
    expect(option(help, 'input')).toMatchObject({ short: 'i', takes_value: true, value_name: 'IN_FILE' });
    expect(option(help, 'output')).toMatchObject({ short: 'o', takes_value: true });
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['IN_FILE', 'OUT_FILE']);
  });
});

describe('filler placeholders (json2ts)', () => {
  it('`--cwd=XXX`, `--style.XXX=YYY` are typed by hand: `Maximum number of …` on a bare option says a value is taken', () => {
    const help =
      'Usage: json2ts [OPTIONS]\n\n  --cwd=XXX\n      Root directory for resolving $ref\n  --format\n      Format code? Set this to false to improve performance.\n  --maxItems\n      Maximum number of unioned tuples to emit.\n  --style.XXX=YYY\n      Prettier configuration\n  --unknownAny\n      Output unknown type instead of any type\n';
    expect(option(help, 'maxItems')?.takes_value).toBe(true);
    expect(option(help, 'format')?.takes_value).toBe(false);
    expect(option(help, 'unknownAny')?.takes_value).toBe(false);
  });
});

describe('description cues in hand-written helps', () => {
  it('nodemon `ignore specific files or directories`, `extensions to look for, ie. "js,pug,hbs"`; license-checker `to add a custom Format file`', () => {
    const help =
      'Configuration\n  --config <file> .......... alternate config file to use\n  -i, --ignore ............. ignore specific files or directories\n  -e, --ext ................ extensions to look for, ie. "js,pug,hbs"\n  --custom ................. to add a custom Format file in JSON\n  --exitcrash .............. exit on crash, allows it to work with other watchers\n  -V, --verbose ............ show detail on what is causing restarts\n';
    expect(option(help, 'ignore')?.takes_value).toBe(true);
    expect(option(help, 'ext')?.takes_value).toBe(true);
    expect(option(help, 'custom')?.takes_value).toBe(true);
    expect(option(help, 'exitcrash')?.takes_value).toBe(false);
    expect(option(help, 'verbose')?.takes_value).toBe(false);
  });
});

describe('`Use a … module/command` cues', () => {
  it('browserify `Use a transform module on top-level files.` takes a value; `Use a long listing` stays a switch', () => {
    const help =
      'Usage: bundle [entry files] {OPTIONS}\n\nStandard Options:\n\n  --transform, -t  Use a transform module on top-level files.\n    --command, -c  Use a transform command on top-level files.\n       --debug -d  Enable source maps\n      --list, -l   Show files\n       --full -f   Use a long listing\n        --pager    Use a pager to show output\n';
    expect(option(help, 'transform')?.takes_value).toBe(true);
    expect(option(help, 'command')?.takes_value).toBe(true);
    expect(option(help, 'full')?.takes_value).toBe(false);
    expect(option(help, 'pager')?.takes_value).toBe(false);
  });
});
