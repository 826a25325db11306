/**
 * Notations first met in the corpus's first held-back part (issue 12), each pinned on a minimal help:
 * prose choices (`a | b | c`, `(a, b, or c)`, `NAME is 1 or 2`, a GNU `MODE determines …:` list),
 * argparse REMAINDER (`[progname] ...`), two bare words in brackets next to a bare positional, sed's
 * `-e script, --expression=script`, a default of a value's part (rustc), and `git describe <blob>`.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, long: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === long || candidate.short === long);
}

describe('choices written in prose', () => {
  it('a description that is only `a | b | c` after a type tag', () => {
    expect(option('Options:\n  -l, --logLevel <level>   [string] info | warn | error | silent\n', 'logLevel')?.choices).toEqual(['info', 'warn', 'error', 'silent']);
  });

  it('a parenthesized list of three or more; two in parentheses are not enough', () => {
    expect(option('Options:\n    --conflict <style>    conflict style (merge, diff3, or zdiff3)\n', 'conflict')?.choices).toEqual(['merge', 'diff3', 'zdiff3']);
    expect(option('Options:\n    --path <p>    where to look (file or directory)\n', 'path')?.choices).toBeNull();
  });

  it('`FILENUM is 1 or 2` names the choices of the option whose value is FILENUM', () => {
    const help = 'Usage: join [OPTION]... FILE1 FILE2\n\n  -a FILENUM             also print unpairable lines from file FILENUM, where\n                           FILENUM is 1 or 2, corresponding to FILE1 or FILE2\n';
    expect(option(help, 'a')?.choices).toEqual(['1', '2']);
  });

  it('a GNU `MODE determines …:` sentence after the options introduces the list of MODE values', () => {
    const help = 'Usage: tee [OPTION]... [FILE]...\n\n  -p                        diagnose errors\n      --output-error[=MODE]   set behavior on write error.  See MODE below\n\nMODE determines behavior with write errors on the outputs:\n  warn           diagnose errors writing to any output\n  exit           exit on error writing to any output\n';
    expect(option(help, 'output-error')?.choices).toEqual(['warn', 'exit']);
  });
});

describe('positionals', () => {
  it('argparse REMAINDER: `[progname] ...` is an optional progname and the variadic entry after it', () => {
    const help = 'usage: trace.py [-h] [-c] [progname] ...\n\npositional arguments:\n  progname    file to run as main program\n  arguments   arguments to the program\n';
    expect(parseHelp(help).positionals.map(({ name, required, variadic }) => ({ name, required, variadic }))).toEqual([
      { name: 'progname', required: false, variadic: false },
      { name: 'arguments', required: false, variadic: true },
    ]);
  });

  it('`binary [start end]`: bare words in brackets are separate when the form names positionals with bare words', () => {
    expect(parseHelp('usage: go tool objdump [-S] binary [start end]\n').positionals.map((positional) => positional.name)).toEqual(['binary', 'start', 'end']);
    expect(parseHelp('Usage:\n  compogen readme [config dir] [target file] [flags]\n').positionals.map((positional) => positional.name)).toEqual(['config dir', 'target file']);
  });
});

describe('options and names', () => {
  it('sed `-e script, --expression=script`: the long spelling repeats the placeholder, it is no literal value', () => {
    expect(option('Usage: sed [OPTION]...\n\n  -e script, --expression=script\n                 add the script\n', 'expression')).toMatchObject({ short: 'e', takes_value: true, choices: null });
  });

  it('rustc `-L [<KIND>=]<PATH> … KIND … (default: all)`: the default of a part is not the option’s', () => {
    const help = 'Options:\n    -L [<KIND>=]<PATH>  Add a directory to the library search path. The\n                        optional KIND can be one of\n                        <dependency|crate|all> (default:\n                        all).\n    -o <FILENAME>       Write output to FILENAME (default: out)\n';
    expect(option(help, 'L')?.default).toBeNull();
    expect(option(help, 'o')?.default).toBe('out');
  });

  it('`git describe <blob>` agrees with the other forms’ subcommand path', () => {
    const help = 'usage: git describe [--all] [<commit-ish>...]\n   or: git describe [--all] --dirty[=<mark>]\n   or: git describe <blob>\n';
    expect(parseHelp(help).name).toBe('git_describe');
  });
});

/** Notations first met in the corpus's second held-back part (kong, urfave/cli, tsc, esbuild, docopt). */
describe('second held-back part', () => {
  it('kong: the default stands in the placeholder, quoted (any framework) or bare (kong only)', () => {
    const kong = 'Usage: gum spin <command> ... [flags]\n\nArguments:\n  <command> ...    Command to run\n\nFlags:\n  -h, --help                  Show context-sensitive help.\n  -s, --spinner="dot"         Spinner type\n      --padding="0 0"         Padding\n      --timeout=0s            Timeout\n      --workers=4             Workers\n      --title=""              Title\n  -i, --in=STRING             Input format\n';
    const spec = parseHelp(kong);
    const byLong = (long: string) => spec.options.find((candidate) => candidate.long === long);
    expect(byLong('spinner')).toMatchObject({ takes_value: true, default: 'dot' });
    expect(byLong('padding')).toMatchObject({ takes_value: true, default: '0 0' });
    expect(byLong('timeout')).toMatchObject({ default: '0s' });
    expect(byLong('workers')).toMatchObject({ type: 'integer', default: 4 });
    expect(byLong('title')?.default).toBeNull();
    expect(byLong('in')?.default).toBeNull();
    expect(spec.name).toBe('gum_spin');
    expect(spec.positionals).toMatchObject([{ name: 'command', required: true, variadic: true }]);
    // outside kong a bare `--x=value` stays a literal spelling (zstd `--format=zstd`)
    expect(option('Options:\n  --format=zstd   compress to zstd\n  --format=gzip   compress to gzip\n', 'format')?.default).toBeNull();
  });

  it('urfave/cli: `(atom, rss, universal)` choices, `[global options] command` placeholders', () => {
    const help = 'NAME:\n   ftest - parse a feed\n\nUSAGE:\n   ftest [global options] command [command options] [arguments...]\n\nCOMMANDS:\n   help, h  Shows a list of commands or help for one command\n\nGLOBAL OPTIONS:\n   --type value, -t value  type of parser (atom, rss, universal) (default: "universal")\n   --help, -h              show help\n';
    const spec = parseHelp(help);
    expect(spec.options[0]).toMatchObject({ long: 'type', short: 't', choices: ['atom', 'rss', 'universal'], default: 'universal' });
    expect(spec.positionals).toEqual([{ name: 'arguments', required: false, variadic: true }]);
  });

  it('tsc: flags at the margin with `one of:` / `default:` lines under them', () => {
    const help = 'COMMON COMPILER OPTIONS\n\n--pretty\nEnable color.\ntype: boolean\ndefault: true\n\n--declaration, -d\nGenerate .d.ts files.\ntype: boolean\ndefault: `false`, unless `composite` is set\n\n--target, -t\nSet the language version.\none of: es5, es6/es2015, esnext\ndefault: es5\n\n--module, -m\nSpecify module code.\none of: none, commonjs\ndefault: undefined\n\n--lib\nLibrary files.\none or more: es5, dom\n';
    const spec = parseHelp(help);
    const byLong = (long: string) => spec.options.find((candidate) => candidate.long === long);
    expect(byLong('pretty')).toMatchObject({ takes_value: false, default: true });
    expect(byLong('declaration')).toMatchObject({ short: 'd', takes_value: false, default: null });
    expect(byLong('target')).toMatchObject({ short: 't', takes_value: true, choices: ['es5', 'es6', 'es2015', 'esnext'], default: 'es5' });
    expect(byLong('module')).toMatchObject({ takes_value: true, choices: ['none', 'commonjs'], default: null });
    expect(byLong('lib')).toMatchObject({ takes_value: true, choices: null });
  });

  it('esbuild: `--define:K=V` is the option `define`; `(a | b | c, default a)` gives choices and default', () => {
    const help = 'Simple options:\n  --define:K=V          Substitute K with V while parsing\n  --external:M          Exclude module M from the bundle\n  --platform=...        Platform target (browser | node | neutral,\n                        default browser)\n';
    expect(option(help, 'define')).toMatchObject({ takes_value: true });
    expect(option(help, 'external')).toMatchObject({ takes_value: true });
    expect(option(help, 'platform')).toMatchObject({ choices: ['browser', 'node', 'neutral'], default: 'browser' });
  });

  it('docopt: a positional is optional when another form runs with options only; `prog --version` does not count', () => {
    const help = 'Usage: check.py [-v] PATH...\n       check.py (--doctest | --testsuite=DIR)\n       check.py --version\n\nOptions:\n  -v --verbose  talk\n  --doctest     run doctests\n  --testsuite=DIR  run tests\n';
    expect(parseHelp(help).positionals).toEqual([{ name: 'PATH', required: false, variadic: true }]);
    const onlyVersion = 'Usage: check.py [-v] PATH...\n       check.py --version\n';
    expect(parseHelp(onlyVersion).positionals).toEqual([{ name: 'PATH', required: true, variadic: true }]);
  });
});
