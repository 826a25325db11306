/**
 * Notations met in parser fixes round 6 (issue 12), each pinned on a minimal help. Defaults that are
 * no value come first (an invented default is worse than a missing one).
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('defaults', () => {
  it('Getopt::Long `(default value: 5000 (roughly 60 lines))` is 5000; a quoted value keeps its spaces; prose is none', () => {
    const help =
      "Usage:\n    check [OPTION...] PATH\n\nOptions:\n    --tail=N        bytes to parse\n                    (default value: 5000 (roughly 60 lines))\n    --sep=PRINTF    separator (default value: ', ' (COMMA SPACE))\n    --check=REGEX   files to include\n                    (default value: common source files)\n    --scheme=NAME   scheme (default value: unset (use verbose description))\n";
    expect(option(help, 'tail')?.default).toBe(5000);
    expect(option(help, 'sep')?.default).toBe(', ');
    expect(option(help, 'check')?.default).toBeNull();
    expect(option(help, 'scheme')?.default).toBeNull();
  });
});

describe('negatable flags', () => {
  it('picocli `--[no-]force … The default is `--no-force``: off by default', () => {
    const help =
      'Usage: gen [-fhV] [--[no-]on] <classes>...\n  -f, --[no-]force        Overwrite templates. The default is `--no-force`,\n                            meaning processing is aborted.\n      --[no-]on           Keep going. The default is `--on`.\n  -h, --help              Show this help message and exit.\n';
    expect(option(help, 'force')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'on')).toMatchObject({ takes_value: false, default: true });
  });
});

describe('defaults that are no value', () => {
  it('argparse `(default: sys.executable)` is read from the runtime; `(default: setup.cfg)` is a value', () => {
    const help =
      'usage: lic [-h] [--python PYTHON_EXEC] [--config FILE]\n\noptions:\n  --python PYTHON_EXEC  path to python executable\n                        (default: sys.executable)\n  --config FILE         config file (default: setup.cfg)\n';
    expect(option(help, 'python')?.default).toBeNull();
    expect(option(help, 'config')?.default).toBe('setup.cfg');
  });
});

describe('value-taking', () => {
  it('meow: a prose default opening with a literal value (quoted, or a file name) says a value is taken', () => {
    const help =
      '\n  Usage\n    $ np <version>\n\n  Options\n    --any-branch   Allow publishing from any branch\n    --yolo         Skips cleanup and testing\n    --dry-run      Show tasks\n    --message      Commit message (default: \'%s\' with npm and \'v%s\' with yarn)\n    --manager      Use a manager (default: package.json packageManager)\n    --quiet        Less output (default: log as debug)\n';
    expect(option(help, 'message')?.takes_value).toBe(true);
    expect(option(help, 'manager')?.takes_value).toBe(true);
    expect(option(help, 'quiet')?.takes_value).toBe(false);
    expect(option(help, 'message')?.default).toBeNull();
  });
});

describe('spellings', () => {
  it('busybox `-I IFACE/IP`: upper-case placeholders joined by a slash are one value', () => {
    const help = 'Usage: ping [OPTIONS] HOST\n\nSend ICMP ECHO_REQUESTs to HOST\n\n\t-c CNT\t\tSend only CNT pings\n\t-I IFACE/IP\tSource interface or IP address\n\t-q\t\tQuiet\n';
    expect(option(help, 'I')).toMatchObject({ takes_value: true, choices: null });
  });

  it("argparse nargs='+' `-i PKG [PKG ...], --ignore-packages PKG [PKG ...]` is one option taking a value", () => {
    const help =
      'usage: lic [-h] [-i PKG [PKG ...]]\n\noptions:\n  -i PKG [PKG ...], --ignore-packages PKG [PKG ...]\n                        ignore package name in dumped list\n  --summary             dump summary\n';
    const spec = parseHelp(help);
    expect(option(help, 'ignore-packages')).toMatchObject({ short: 'i', takes_value: true });
    expect(spec.options.map((candidate) => candidate.long)).toEqual(['ignore-packages', 'summary']);
  });

  it('argparse `-nv, --no-version`: the several-letter single-dash spelling is the short one', () => {
    const help = 'usage: lic [-h] [-nv]\n\noptions:\n  -nv, --no-version     dump without package version\n  -s, --with-system     dump with system packages\n';
    expect(option(help, 'no-version')).toMatchObject({ short: 'nv', takes_value: false });
  });
});

describe('oclif v1', () => {
  it('`$ apollo client:codegen [OUTPUT]`: the `topic:command` word is the command path, OUTPUT the positional', () => {
    const spec = parseHelp('USAGE\n  $ apollo client:codegen [OUTPUT]\n\nOPTIONS\n  --watch\n      Watch for file changes\n');
    expect(spec.name).toBe('apollo_client_codegen');
    expect(spec.positionals.map((positional) => positional.name)).toEqual(['OUTPUT']);
  });

  it('`-c, --config=config`: a value named after its own flag is a placeholder, no choice', () => {
    const help = 'USAGE\n  $ apollo client:check\n\nOPTIONS\n  -c, --config=config\n      Path to your Apollo config file\n\n  --endpoint=endpoint\n      The URL for the CLI\n\n  --watch\n      Watch for file changes\n';
    expect(option(help, 'config')).toMatchObject({ short: 'c', takes_value: true, choices: null });
    expect(option(help, 'endpoint')).toMatchObject({ takes_value: true, choices: null });
  });
});

describe('choices', () => {
  it('yargs `[choices: "", "text", "json"]`: the quoted empty value is a choice', () => {
    const help = 'Options:\n      --print-config  print resolved config  [string] [choices: "", "text", "json"]\n  -q, --quiet         toggle console output  [boolean] [default: false]\n';
    expect(option(help, 'print-config')?.choices).toEqual(['', 'text', 'json']);
  });

  it('OptionParser `[INFO, WARN, ERROR, FATAL] (default: FATAL)`: an upper-case bracketed list holding the default', () => {
    const help =
      'Usage: asciidoctor [OPTION]... FILE...\n\n    -f, --failure-level LEVEL        set minimum log level: [INFO, WARN, ERROR, FATAL] (default: FATAL)\n    -o, --out-file FILE              output file [FILE, DIR] (default: stdout)\n';
    expect(option(help, 'failure-level')).toMatchObject({ choices: ['INFO', 'WARN', 'ERROR', 'FATAL'], default: 'FATAL' });
    expect(option(help, 'out-file')?.choices).toBeNull();
  });

  it('argparse: a line of quoted values under the description (`"name", "license"`, a slip `"classifier,`) gives the choices', () => {
    const help =
      'usage: lic [-h] [--from SOURCE] [-o COL] [--tag TAG]\n\noptions:\n  --from SOURCE        where to find license information\n                       "meta", "classifier, "mixed", "all"\n                       (default: mixed)\n  -o COL, --order COL  order by column\n                       "name", "license" "author", "url"\n                       (default: name)\n  --tag TAG            a tag, e.g. "alpha", "beta", "rc"\n';
    expect(option(help, 'from')).toMatchObject({ choices: ['meta', 'classifier', 'mixed', 'all'], default: 'mixed' });
    expect(option(help, 'order')).toMatchObject({ choices: ['name', 'license', 'author', 'url'], default: 'name' });
    expect(option(help, 'tag')?.choices).toBeNull();
  });

  it('oclif `(swift | flow | json-modern (exposes raw json types))`: the last item may carry a gloss', () => {
    const help = 'USAGE\n  $ gen [OUTPUT]\n\nOPTIONS\n  --target=target\n      (required) Type of code generator to use (swift | flow | json-modern\n      (exposes raw json types))\n\n  --watch\n      Watch for file changes\n';
    expect(option(help, 'target')?.choices).toEqual(['swift', 'flow', 'json-modern']);
  });
});

describe('busybox one-letter flags', () => {
  it('`-4,-6` (glued by a comma) are two flags; `-a, -b` stays one option with an alias', () => {
    const help = 'Usage: ping [OPTIONS] HOST\n\n\t-4,-6\t\tForce IP or IPv6 name resolution\n\t-c CNT\t\tSend only CNT pings\n\t-q, -Q\t\tQuiet\n';
    const spec = parseHelp(help);
    expect(spec.options.map((candidate) => candidate.short)).toEqual(['4', '6', 'c', 'q']);
    expect(option(help, '6')).toMatchObject({ takes_value: false, description: 'Force IP or IPv6 name resolution' });
    expect(option(help, 'q')?.aliases).toEqual(['-Q']);
  });

  it('usage cluster `[-1lctuC]`: `-lc` is a combination (its letters become flags), an unlisted `-C` a flag', () => {
    const help = 'Usage: ls [-1lctuC] [-w WIDTH] [FILE]...\n\nList directory contents\n\n\t-1\tOne column output\n\t-l\tLong format\n\t-lc\tList ctime\n\t-t\tSort by mtime\n\t-tu\tSort by atime\n\t-w N\tFormat N columns wide\n';
    const shorts = parseHelp(help).options.map((candidate) => candidate.short ?? candidate.long);
    expect([...shorts].sort()).toEqual(['1', 'C', 'c', 'l', 't', 'u', 'w']);
  });

  it("Go's `[-gnu]` naming a listed `-gnu` option is no cluster", () => {
    const help = 'usage: go tool objdump [-S] [-gnu] binary\n\n  -S\tprint Go code alongside assembly\n  -gnu\n    \tprint GNU assembly next to Go assembly\n';
    expect(parseHelp(help).options.map((candidate) => candidate.long ?? candidate.short)).toEqual(['S', 'gnu']);
  });
});

describe('busybox one-letter flags, not', () => {
  it("argparse's `[-nv]` naming a listed `-nv, --no-version` is no cluster", () => {
    const help = 'usage: lic [-h] [-v] [-nv]\n\noptions:\n  -v, --version      show version\n  -nv, --no-version  dump without package version\n';
    expect(parseHelp(help).options.map((candidate) => candidate.short)).toEqual(['nv']);
  });
});

describe('usage forms', () => {
  it('Getopt::Long forms set apart by blank lines under `Usage:` are all read (the option-only ones make PATH optional)', () => {
    const help =
      'Usage:\n        check [ --help | --version ]\n\n        check [ --list | --schemes ]\n\n        check [OPTION...] PATH [PATH...]\n\nOptions:\n    --list          list identifiers and exit\n    --schemes       list schemes and exit\n    -r, --recursive traverse directories\n';
    const spec = parseHelp(help);
    expect(spec.positionals).toMatchObject([{ name: 'PATH', required: false, variadic: true }]);
    expect(option(help, 'list')?.takes_value).toBe(false);
  });
});

describe('usage syntax is no example', () => {
  it('`check [ --list | --schemes ]`: the `|` after a flag is no value given to it', () => {
    const help = 'Usage:\n        check [ --list | --schemes ]\n\nOptions:\n    --list          list identifiers and exit\n    --schemes       list schemes and exit\n    -r, --recursive traverse directories\n';
    expect(option(help, 'list')?.takes_value).toBe(false);
  });
});

describe('value-taking from the rest of the help', () => {
  it('`--scheme` listed alone, written `--scheme=debian,spdx` in another description, takes a value; `--watch=forever` in its own does not', () => {
    const help =
      'Usage:\n        check [OPTION...] PATH\n\nOptions:\n    --scheme\n                    priority list of naming schemes\n\n    --[no-]deb-machine\n                    implies --copyright and --scheme=debian,spdx\n\n    --copyright     add copyright statements\n\n    --watch         rebuild on changes (use "--watch=forever" to ignore stdin)\n';
    expect(option(help, 'scheme')?.takes_value).toBe(true);
    expect(option(help, 'copyright')?.takes_value).toBe(false);
    expect(option(help, 'watch')?.takes_value).toBe(false);
  });
});

describe('positionals without a usage form', () => {
  it('yargs `[input] reads from stdin if …` above the options names an optional positional; a usage form outranks it', () => {
    const options = 'Options:\n  -e, --edit    read last commit message  [string]\n  -h, --help    Show help  [boolean]\n';
    const bare = parseHelp(`@lint/cli@1.0.0 - Lint your commit messages\n\n[input] reads from stdin if --edit is omitted\n\n${options}`);
    expect(bare.positionals).toMatchObject([{ name: 'input', required: false, variadic: false }]);
    const withUsage = parseHelp(`Usage: lint [options]\n\n[input] reads from stdin if --edit is omitted\n\n${options}`);
    expect(withUsage.positionals).toEqual([]);
  });
});
