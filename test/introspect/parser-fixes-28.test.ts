/**
 * Notations met in parser fixes round 15 (issue 12, batch 20 part d: Go/Rust plus one JS text), each
 * pinned on a minimal help: value-taking, positionals, names, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('names and positionals', () => {
  it('`SYNOPSIS: mmark [OPTIONS] [FILE...]`: a form titled `Synopsis:` on its own line names the program and its positionals', () => {
    const help = 'SYNOPSIS: mdconv [OPTIONS] [FILE...]\n\nOPTIONS:\n  -ast\n    \tprint the tree\n  -css string\n    \tlink to a stylesheet\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('mdconv');
    expect(spec.positionals).toEqual([{ name: 'FILE', required: false, variadic: true }]);
    expect(option(help, 'css')?.takes_value).toBe(true);
  });

  it('urfave/cli `prog sub command [command options] [arguments...]`: the bare `command` is no word of the command path', () => {
    const help =
      'NAME:\n   tool write image - Writes an image\n\nUSAGE:\n   tool write image command [command options] [arguments...]\n\nOPTIONS:\n   --key value, -k value  Path to the key.\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('tool_write_image');
    expect(spec.positionals).toEqual([{ name: 'arguments', required: false, variadic: true }]);
  });
});

describe('options only the usage names', () => {
  it('`[-H|--header HEADER]... [-d|--data|--data-binary DATA]`: a short and long spellings joined by `|`, then a value, name options taking it', () => {
    const help = 'Usage: fetchit [-H|--header HEADER]... [-d|--data|--data-binary DATA] [URL]\n\nOther options:\n  -k, --insecure  Allow insecure certs\n';
    expect(option(help, 'header')).toMatchObject({ short: 'H', takes_value: true, repeatable: true });
    expect(option(help, 'data')).toMatchObject({ short: 'd', takes_value: true });
    expect(option(help, 'data-binary')).toMatchObject({ short: null, takes_value: true });
    expect(option(help, 'insecure')?.takes_value).toBe(false);
  });
});

describe('defaults', () => {
  it('urfave `(default: "^[0-9a-zA-Z]+$")`: a quoted default holding brackets of its own loses its quotes', () => {
    const help = 'GLOBAL OPTIONS:\n   --kind_re value  kind to match (default: "^[0-9a-zA-Z]+$")\n   --name_re value  name to match (default: "^[^/ ]+$")\n';
    expect(option(help, 'kind_re')?.default).toBe('^[0-9a-zA-Z]+$');
    expect(option(help, 'name_re')?.default).toBe('^[^/ ]+$');
  });
});

describe('value-taking', () => {
  it('Go `flag` `-with-udebs: download .udeb packages`: the colon ends the head, so a word reaching the common column opens the description', () => {
    const help =
      'Options:\n  -dep-follow-suggests: follow Suggests\n  -dep-verbose-resolve: print detailed logs\n  -filter="": filter packages in mirror\n  -with-udebs: download .udeb packages\n';
    expect(option(help, 'with-udebs')?.takes_value).toBe(false);
    expect(option(help, 'filter')?.takes_value).toBe(true);
  });
});

describe('option names', () => {
  it('asciidoc `--verbose:` then `-v:` alone on their lines: one option; `  --keep:` at the description indent heads the next', () => {
    const help =
      'Options:\n\n--verbose:\n-v:\n   Log the files touched.\n--no-excluded:\n  Do not list excluded patterns.\n  --keep-attrs:\n  Keep the attributes file.\n';
    const spec = parseHelp(help);
    expect(spec.options.map((entry) => [entry.long, entry.short])).toEqual([
      ['verbose', 'v'],
      ['no-excluded', null],
      ['keep-attrs', null],
    ]);
  });
});

describe('choices', () => {
  it('Go flag `("gpg", "gpg1" for external gpg or "internal" for …)`: glossed double-quoted alternatives filling a parenthesized group', () => {
    const help =
      'Options:\n  -provider="": PGP implementation ("gpg", "gpg1", "gpg2" for external gpg or "internal" for Go internal implementation)\n  -update="": update snapshot (accepts boolean, "new", "all" or "none")\n';
    expect(option(help, 'provider')?.choices).toEqual(['gpg', 'gpg1', 'gpg2', 'internal']);
    expect(option(help, 'update')?.choices).toBeNull();
  });
});

describe('Go flag usage forms', () => {
  const help =
    '\tpki issue -- issue a new certificate\n\nUsage of issue:\n    Issue a new cert from a request:\n        pki issue -ca cert [-config config] CSRJSON\n\n    Renew a CA cert with the CA key:\n        pki issue -renew -ca cert\n\nFlags:\n  -ca="": CA used to sign\n  -renew=false: renew the CA\n';
  it('`Usage of issue:` under a headline and a blank line, forms under sentence captions closed by a colon: the forms give the positionals', () => {
    expect(parseHelp(help).positionals).toEqual([{ name: 'CSRJSON', required: false, variadic: false }]);
  });
  it('the FlagSet named by the last word of the forms\' command path: the forms give the whole path', () => {
    expect(parseHelp(help).name).toBe('pki_issue');
  });
});

describe('option placeholders', () => {
  it('getopts `please [arguments] </path/to/executable>`: a leading `[arguments]` before more positionals, in a form without `[options]`, is the options', () => {
    const help = 'usage:\nbecome [arguments] </path/to/executable>\n\nOptions:\n    -d, --dir DIR       change to directory\n    -w, --warm          warm the token\n';
    expect(parseHelp(help).positionals).toEqual([{ name: '/path/to/executable', required: true, variadic: false }]);
    expect(parseHelp('Usage: irb [options] [programfile] [arguments]\n\nOptions:\n  -d  debug\n').positionals.map((entry) => entry.name)).toEqual(['programfile', 'arguments']);
  });
});

describe('options listed by bare name', () => {
  const help =
    'Usage: packit <sourcedir> <appname> [options...]\n\nOptions\n\n* All platforms *\n\nall                equivalent to --platform=all --arch=all\nout                the dir to put the app into. Defaults to current working dir\nexecutable-name    the name of the executable file. Defaults to appname\nno-prune           do not prune devDependencies\ndarwin-dark-mode-support\n                   forces support for dark mode\nplatform           all, or one or more of: darwin, linux (comma-delimited if multiple).\narch               the arch to build for\nwin32metadata      a list of sub-properties. Properties supported:\n                   - CompanyName (default: author name)\n                   - requested-execution-level (user, asInvoker, or requireAdministrator)\n';
  it('electron-packager: bare names under `Options`, spelled with dashes elsewhere in the help, are long options', () => {
    expect(parseHelp(help).options.map((entry) => entry.long)).toEqual(['all', 'out', 'executable-name', 'no-prune', 'darwin-dark-mode-support', 'platform', 'arch', 'win32metadata']);
    expect(parseHelp('Options\n\nalpha    first thing\nbeta     second thing\n').options).toEqual([]);
  });
  it('`Defaults to appname` where the usage writes `<appname>`: an argument, no default', () => {
    expect(option(help, 'executable-name')?.default).toBeNull();
  });
  it('`- requested-execution-level (user, asInvoker, or requireAdministrator)`: a dashed sub-item\'s values, not the option\'s', () => {
    expect(option(help, 'win32metadata')?.choices).toBeNull();
  });
});

describe('choices stated as `one or more of`', () => {
  it('`all, or one or more of: ia32, x64, arm64 (comma-delimited if multiple)`: the opening value and the list are the choices, and a value is taken', () => {
    const help =
      'Usage: packit <dir> [options...]\n\nOptions\n\nall        equivalent to --arch=all --quiet\narch       all, or one or more of: ia32, x64, arm64 (comma-delimited if multiple).\nquiet      Do not print messages\nicon       the local path to an icon file\nout        the dir to put the app into\nprune      prune the tree\n';
    expect(option(help, 'arch')).toMatchObject({ takes_value: true, choices: ['all', 'ia32', 'x64', 'arm64'] });
  });
});

describe('value-taking from descriptions in a bare help', () => {
  it('`the dir to put the app into`: a dir named as a directory is a value', () => {
    const help = 'Options:\n  --out       the dir to put the app into\n  --quiet     Do not print messages\n  --prune     prune the tree\n  --junk      keep junk files\n  --overwrite replace the output\n';
    expect(option(help, 'out')?.takes_value).toBe(true);
    expect(option(help, 'junk')?.takes_value).toBe(false);
  });
});

describe('value-taking from an example of the bare name', () => {
  it('``For example, `app-category-type=public.app-category.developer-tools` will set…``: the option takes a value', () => {
    const help =
      'Options:\n  --app-category-type  the application category type. For example, `app-category-type=public.app-category.developer-tools` will set it.\n  --quiet     Do not print messages\n  --prune     prune the tree\n  --junk      keep junk files\n  --overwrite replace the output\n';
    expect(option(help, 'app-category-type')?.takes_value).toBe(true);
    expect(option(help, 'junk')?.takes_value).toBe(false);
  });
});

describe('positionals sorted under titles', () => {
  it('`Optional parameters` over `appname   the name of the app`: optional, though the usage writes `<appname>`', () => {
    const help =
      'Usage: packit <sourcedir> <appname> [options]\n\nRequired parameters\n\nsourcedir          the base directory\n\nOptional parameters\n\nappname            the name of the app\n\nOptions:\n  --quiet   be quiet\n';
    expect(parseHelp(help).positionals).toEqual([
      { name: 'sourcedir', required: true, variadic: false },
      { name: 'appname', required: false, variadic: false },
    ]);
  });
});

describe('yargs-parser dot notation', () => {
  it('`e.g. --osx-universal.mergeASARs="true"` gives the option an object value; `pass --osx-sign by itself` keeps a flag', () => {
    const help =
      'Options:\n  --osx-universal  Options to pass. You must use dot notation, e.g. --osx-universal.mergeASARs="true"\n  --osx-sign       Whether to sign. You can either pass --osx-sign by itself, or use dot notation, e.g. --osx-sign.identity="Me"\n  --quiet          Do not print messages\n  --prune          prune the tree\n  --overwrite      replace the output\n';
    expect(option(help, 'osx-universal')?.takes_value).toBe(true);
    expect(option(help, 'osx-sign')?.takes_value).toBe(false);
  });
});
