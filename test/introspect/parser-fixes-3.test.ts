/**
 * Notations met in parser fixes round 3 (issue 12), each pinned on a minimal help: typer panels
 * that print a type for every option, cac's dot-nested names and quoted alternatives, click's long
 * choice heads and wrapped defaults, cobra's flush-left usage line, GNU's character-class choices
 * and extra usage forms, urfave's backquoted placeholders and prose lists, meow's hand-written
 * placeholders, Go flag's dashed definition lists, clap/commander value lists with parenthesized
 * words, and Pod::Usage spelling columns that overflow.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('typer panels with a type column for every option', () => {
  const panel = (rows: string): string =>
    ` Usage: app [OPTIONS]\n\n╭─ Options ──────────────────────────────────────────────────╮\n${rows}│ --help      -h                <bool>        Show this message.  │\n╰────────────────────────────────────────────────────────────╯\n`;

  it('the placeholder `--help` shows (`<bool>`) marks a flag: `--reload --no-reload <bool> [default: reload]` is a switch on by default', () => {
    const help = panel('│ --reload    --no-reload       <bool>        Enable reload.      │\n│                                             [default: reload]   │\n│ --verbose   -v                <bool>        Verbose output.     │\n│ --port                        <int>         The port.           │\n');
    expect(option(help, 'reload')).toMatchObject({ takes_value: false, default: true, negation: '--no-reload' });
    expect(option(help, 'verbose')).toMatchObject({ takes_value: false, short: 'v' });
    expect(option(help, 'port')).toMatchObject({ takes_value: true, type: 'integer' });
  });

  it('without `--help` showing it, `<bool>` stays a value; a `--help <topic>` placeholder marks nothing', () => {
    expect(option('Options:\n  --strict                      <bool>        Strict mode.\n  --help  Show this message.\n', 'strict')?.takes_value).toBe(true);
    expect(option('Options:\n  --run <topic>   Run a topic.\n  --help <topic>  Show help on a topic.\n', 'run')?.takes_value).toBe(true);
  });

  it('a container type in the type column (`<list[Path]>`) is a placeholder', () => {
    const help = panel('│ --reload-dir                  <list[Path]>  Set reload dirs.    │\n');
    expect(option(help, 'reload-dir')).toMatchObject({ takes_value: true, type: 'path' });
  });
});

describe('cac', () => {
  it('a dot-nested option (`--env.* <value>`) is an option named `env.*` taking a value', () => {
    const help = 'Usage:\n  $ tsup [...files]\n\nOptions:\n  --env.* <value>   Define compile-time env variables\n  -h, --help        Display this message\n';
    expect(option(help, 'env.*')).toMatchObject({ takes_value: true, value_name: 'value' });
  });
});

describe('quoted and slashed alternatives', () => {
  it('two quoted values joined by `or` after a comma are the choices (cac `Signal to kill child process, "SIGTERM" or "SIGKILL"`)', () => {
    expect(option('Options:\n  --killSignal <signal>  Signal to kill child process, "SIGTERM" or "SIGKILL"\n', 'killSignal')?.choices).toEqual(['SIGTERM', 'SIGKILL']);
  });

  it('an item ending in placeholder capitals (`"es20XX"`) is a pattern: the list names no choices', () => {
    expect(option('Options:\n  --target <target>  Bundle target, "es20XX" or "esnext" (default: es2017)\n', 'target')).toMatchObject({ choices: null, default: 'es2017' });
  });

  it('yargs prose `(SIGTERM/SIGKILL, defaults to SIGTERM)` names the values and the default', () => {
    const help = 'Options:\n  -h, --help         Show help  [boolean]\n      --kill-signal  Signal to send. (SIGTERM/SIGKILL, defaults to SIGTERM)\n                                                      [string]\n';
    expect(option(help, 'kill-signal')).toMatchObject({ takes_value: true, choices: ['SIGTERM', 'SIGKILL'], default: 'SIGTERM' });
  });

  it('a slashed pair whose stated default is not one of them names no choices', () => {
    const help = 'Options:\n  --mode <mode>  Mode (read/write, defaults to append)\n';
    expect(option(help, 'mode')?.choices).toBeNull();
  });
});

describe('click', () => {
  it('a head listing every choice past the head cap (`--feature [a|b|…]`, hundreds of characters) keeps them all', () => {
    const values = Array.from({ length: 30 }, (_, index) => `feature_number_${index}`);
    const help = `Options:\n  --feature [${values.join('|')}]\n                                  Enable a feature.\n  --check                         Check only.\n`;
    expect(option(help, 'feature')).toMatchObject({ takes_value: true, choices: values });
    expect(option(help, 'check')?.takes_value).toBe(false);
  });

  it('`--fast / --safe … [default: --safe]` names the negation with its dashes: the flag is off', () => {
    expect(option('Options:\n  --fast / --safe   Skip the safety check. [default:\n                    --safe]\n', 'fast')).toMatchObject({ takes_value: false, default: false, negation: '--safe' });
    expect(option('Options:\n  --fast / --safe   Skip the safety check. [default: --fast]\n', 'fast')?.default).toBe(true);
  });

  it('a default with parentheses of its own (`[default: (\\.pyi?|\\.ipynb)$]`) is the whole value, not a computed one', () => {
    const help = 'Options:\n  --include TEXT   Files to include.  [default:\n                   (\\.pyi?|\\.ipynb)$]\n';
    expect(option(help, 'include')?.default).toBe('(\\.pyi?|\\.ipynb)$');
  });

  it('a default longer than the width, chopped by textwrap over full lines, is rejoined', () => {
    const help = [
      'Options:',
      String.raw`  --exclude TEXT   A regular expression matching files`,
      String.raw`                   to skip. [default: /(\.git|\.hg|\.myp`,
      String.raw`                   y_cache|\.nox|\.tox|\.venv|\.vscode|b`,
      String.raw`                   uild|dist)/]`,
      '',
    ].join('\n');
    expect(option(help, 'exclude')?.default).toBe(String.raw`/(\.git|\.hg|\.mypy_cache|\.nox|\.tox|\.venv|\.vscode|build|dist)/`);
  });

  it('a bracketed default cut where the lines are not filled to the width (one more word before `]`) gives none', () => {
    const help = 'Options:\n  --exclude TEXT   A regular expression matching files\n                   to skip. [default: /(\\.git|\\.hg\n                   |build|dist)/]\n';
    expect(option(help, 'exclude')?.default).toBeNull();
  });

  it('short words that merely reach the width are joined with a space as before', () => {
    // the second line is the widest, and ends inside the bracket
    const help = 'Options:\n  --wait TEXT   How long to wait for the\n                server to start up. [default: 10\n                seconds]\n';
    // `10 seconds` stays two words (prose, so no default); `10seconds` would be taken as one value
    expect(option(help, 'wait')?.default).toBeNull();
  });
});

describe('cobra with a flush-left usage line', () => {
  it('the line right under `Usage:` is the form even at the margin (skopeo): program path and positional', () => {
    const spec = parseHelp('Return low-level information about "IMAGE-NAME"\n\nUsage:\nskopeo inspect [command options] IMAGE-NAME\n\nFlags:\n      --raw    output raw manifest\n  -h, --help   help for inspect\n');
    expect(spec.name).toBe('skopeo_inspect');
    expect(spec.positionals).toMatchObject([{ name: 'IMAGE-NAME', required: true, variadic: false }]);
  });

  it('prose at the margin under `Usage:` is no form', () => {
    const spec = parseHelp('Usage:\nRun the tool with the files to check.\n\nFlags:\n      --raw    output raw manifest\n');
    expect(spec.positionals).toEqual([]);
  });
});

describe('GNU', () => {
  it('`RADIX is one of [doxn]`: a character class, each letter a choice', () => {
    const help = 'Usage: od [OPTION]... [FILE]...\n  -A, --address-radix=RADIX   output format for file offsets; RADIX is one\n                                of [doxn], for Decimal, Octal, Hex or None\n';
    expect(option(help, 'address-radix')?.choices).toEqual(['d', 'o', 'x', 'n']);
  });

  it('later forms that repeat the first form\'s positionals and go on with optional ones add them; affixes glued to a name (`[+]OFFSET[.][b]`) are no positionals', () => {
    const help = 'Usage: od [OPTION]... [FILE]...\n  or:  od [-abcdfilosx]... [FILE] [[+]OFFSET[.][b]]\n  or:  od --traditional [OPTION]... [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]\n\n  -v, --output-duplicates     do not use * to mark line suppression\n';
    expect(parseHelp(help).positionals).toMatchObject([
      { name: 'FILE', required: false, variadic: true },
      { name: 'OFFSET', required: false, variadic: false },
      { name: 'LABEL', required: false, variadic: false },
    ]);
  });

  it('a form putting another positional in the place of one (jq `--args <jq filter> [strings...]`) or a required one adds nothing', () => {
    const jq = 'Usage:\tjq [options] <jq filter> [file...]\n\tjq [options] --args <jq filter> [strings...]\n\n  -n  use null as input\n';
    expect(parseHelp(jq).positionals.map((positional) => positional.name)).toEqual(['jq filter', 'file']);
    const cp = 'Usage: cp [OPTION]... [-T] SOURCE DEST\n  or:  cp [OPTION]... SOURCE DEST DIRECTORY\n\n  -a, --archive   same as -dR\n';
    expect(parseHelp(cp).positionals.map((positional) => positional.name)).toEqual(['SOURCE', 'DEST']);
  });
});

describe('urfave/cli', () => {
  const urfave = (rows: string): string => `USAGE:\n   swag init [command options] [arguments...]\n\nOPTIONS:\n${rows}   --help, -h                   show help (default: false)\n`;

  it('a backquoted placeholder (`--packageName --output`, repeated in the description) takes a value; it is no alias', () => {
    const help = urfave('   --packageName --output       A package name, the output directory name by default (check --output option)\n   --output value, -o value     Output directory (default: "./docs")\n');
    expect(option(help, 'packageName')).toMatchObject({ takes_value: true, value_name: '--output', aliases: [] });
    expect(option(help, 'output')).toMatchObject({ takes_value: true, short: 'o' });
  });

  it('two spellings separated by a space stay spellings when the description does not name the second', () => {
    expect(option('Options:\n  --colour --color   Colour the output\n', 'colour')).toMatchObject({ takes_value: false, aliases: ['--color'] });
  });

  it('a list after `like` names the values when the stated default is one of them', () => {
    const help = urfave('   --propertyStrategy value, -p value   Property Naming Strategy like snakecase,camelcase,pascalcase (default: "camelcase")\n   --sample value                       Sample names like foo,bar,baz (default: "qux")\n');
    expect(option(help, 'propertyStrategy')).toMatchObject({ choices: ['snakecase', 'camelcase', 'pascalcase'], default: 'camelcase' });
    expect(option(help, 'sample')).toMatchObject({ choices: null, default: 'qux' });
  });

  it('a prose list that leaves out the quoted default is not the values: the default stands', () => {
    const help = urfave('   --outputTypes value, --ot value   Output types of generated files (docs.go, swagger.json, swagger.yaml) like go,json,yaml (default: "go,json,yaml")\n');
    expect(option(help, 'outputTypes')).toMatchObject({ choices: null, default: 'go,json,yaml' });
  });

  it('levels counting up by one, each with its meaning (`0 disabled, 1 only parse models, 2 …`), are the choices', () => {
    const help = urfave('   --parseDependencyLevel value, --pdl value  Parse go files inside dependency folder, 0 disabled, 1 only parse models, 2 only parse operations, 3 parse all (default: 0)\n   --jobs value   Run with 2 workers, 4 threads, 8 queues\n');
    expect(option(help, 'parseDependencyLevel')).toMatchObject({ choices: ['0', '1', '2', '3'], default: '0' });
    expect(option(help, 'jobs')?.choices).toBeNull();
  });
});

describe('meow', () => {
  const meow = (rows: string): string => `\n  Copy files\n\n  Usage\n    $ cpy <source …> <destination>\n\n  Options\n${rows}\n  Examples\n    $ cpy src dist\n`;
  const rows = '    --cwd=<dir>          Working directory for files\n    --dot                Allow patterns to match dotfiles\n    --flat               Flatten directory structure\n    --dry-run            List files that would be copied\n    --update             Only overwrite if the source is newer\n    --concurrency        Number of files being copied concurrently\n';

  it('placeholders are written by hand: a bare option whose description names a value (`Number of files…`) takes one', () => {
    expect(option(meow(rows), 'concurrency')?.takes_value).toBe(true);
    expect(option(meow(rows), 'dot')?.takes_value).toBe(false);
    expect(option(meow(rows), 'dry-run')?.takes_value).toBe(false);
  });

  it('in a help whose framework prints placeholders, the same line stays a flag', () => {
    expect(option(`Usage: cpy [options]\n\nOptions:\n${rows}`, 'concurrency')?.takes_value).toBe(false);
  });
});

describe('Go flag', () => {
  it('a definition list with dashes under a line ending in `:` (benchstat `-format`) names the choices', () => {
    const help = 'Usage: benchstat [flags] inputs...\n  -alpha α\n    \tconsider change significant if p < α (default 0.05)\n  -format format\n    \tprint results in format:\n    \t  text - plain text\n    \t  csv  - comma-separated values (warnings will be written to stderr)\n    \t (default "text")\n  -ignore keys\n    \tignore variations in keys\n';
    expect(option(help, 'format')).toMatchObject({ takes_value: true, choices: ['text', 'csv'], default: 'text' });
    expect(option(help, 'ignore')?.choices).toBeNull();
  });
});

describe('values with parenthesized words', () => {
  it('fd `Filter by type: file (f), directory (d), …`: the one-letter aliases are no part of the list', () => {
    const help = 'Options:\n  -t, --type <filetype>   Filter by type: file (f), directory (d), symlink (l),\n                          executable (x), empty (e)\n';
    expect(option(help, 'type')?.choices).toEqual(['file', 'directory', 'symlink', 'executable', 'empty']);
  });

  it('svgo `Output as Data URI string (base64), URI encoded (enc) or unencoded (unenc)`: the parenthesized words are the values', () => {
    const help = 'Options:\n  --datauri <FORMAT>   Output as Data URI string (base64), URI encoded\n                       (enc) or unencoded (unenc)\n';
    expect(option(help, 'datauri')?.choices).toEqual(['base64', 'enc', 'unenc']);
  });

  it('two parenthesized remarks joined by `or` are no list', () => {
    expect(option('Options:\n  --out <FORMAT>   Write JSON (default) or YAML (experimental)\n', 'out')?.choices).toBeNull();
  });
});

describe('Pod::Usage spelling columns', () => {
  it('a long spelling whose value overflows the column (`-a,  --archive out.tgz Store…`) joins the head with its value', () => {
    const help = 'Usage:\n     prove [options] [files or directories]\n\nOptions:\n     -v,  --verbose         Print all test lines.\n     -a,  --archive out.tgz Store the resulting TAP in an archive file.\n     -j,  --jobs N          Run N test jobs in parallel (try 9.)\n';
    const spec = parseHelp(help);
    expect(spec.options.find((candidate) => candidate.short === 'a')).toMatchObject({ long: 'archive', takes_value: true, value_name: 'out.tgz', description: 'Store the resulting TAP in an archive file.' });
    expect(option(help, 'verbose')?.takes_value).toBe(false);
  });

  it('one space before a lower-case word is no column gap: `-x, --foo bar baz` keeps the short alone', () => {
    expect(parseHelp('Options:\n  -x,  --foo bar baz\n').options[0]?.long).toBeNull();
  });
});
