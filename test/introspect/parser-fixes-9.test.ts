/**
 * Notations met in parser fixes round 9 (issue 12), each pinned on a minimal help. First the
 * choices that are no closed set (an invented enum refuses values the program takes), then
 * value-taking, choices, defaults, positionals and names.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('choices that are no closed set', () => {
  it('clap `Output format: text, json, or graphviz-FMT`: an item patterned with placeholder capitals opens the list', () => {
    const help = 'Usage: deps [OPTIONS]\n\nOptions:\n  -o, --output <FMT>  Output format: text, json, or graphviz-FMT\n  -s, --style <S>     Style: plain, fancy, or bold\n';
    expect(option(help, 'output')?.takes_value).toBe(true);
    expect(option(help, 'output')?.choices).toBeNull();
    expect(option(help, 'style')?.choices).toEqual(['plain', 'fancy', 'bold']);
  });

  it('click `[PATH|URI]` names kinds of value (one placeholder); `[DEBUG|INFO]` names values', () => {
    const help = 'Usage: check [OPTIONS]\n\nOptions:\n  --schemafile [PATH|URI]  The schema to use.\n  --level [DEBUG|INFO]     Log level.\n';
    expect(option(help, 'schemafile')?.takes_value).toBe(true);
    expect(option(help, 'schemafile')?.choices).toBeNull();
    expect(option(help, 'level')?.choices).toEqual(['DEBUG', 'INFO']);
  });

  it('click `{*|FORMAT,FORMAT,...}`: an ellipsis item says more values follow', () => {
    const help = 'Usage: check [OPTIONS]\n\nOptions:\n  --disable-formats {*|FORMAT,FORMAT,...}\n                   Disable format checks.\n  --mode {fast,slow}  Mode.\n';
    expect(option(help, 'disable-formats')?.takes_value).toBe(true);
    expect(option(help, 'disable-formats')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow']);
  });

  it('optparse `For svg, use: circle, square` (one case) and `the following shortcuts to the built-in classes: a, b` are partial', () => {
    const help =
      'Usage: qr [options]\n\nOptions:\n  --factory=FACTORY  Python path to the factory class. You can use the following\n                     shortcuts to the built-in factory classes: pil, png, svg.\n  --drawer=DRAWER    Use an alternate drawer. For svg and svg-path, use: circle, gapped-circle\n                     or gapped-square.\n  --mode=MODE        Drawing mode: fast, slow or exact.\n';
    expect(option(help, 'factory')?.choices).toBeNull();
    expect(option(help, 'drawer')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toEqual(['fast', 'slow', 'exact']);
  });
});

describe('choices', () => {
  it('optparse `Choices are L (7%), M (15%, default), Q (25%), and H (30%).`: glossed items, the default marked in its gloss', () => {
    const help =
      'Usage: qr [options]\n\nOptions:\n  --error-correction=ERROR_CORRECTION\n                        The error correction level to use. Choices are L (7%), M (15%, default), Q\n                        (25%), and H (30%).\n';
    expect(option(help, 'error-correction')?.choices).toEqual(['L', 'M', 'Q', 'H']);
    expect(option(help, 'error-correction')?.default).toBe('M');
  });
});

describe('value-taking', () => {
  const ffuf =
    'Fuzz Faster U Fool - v1.1.0\n\nHTTP OPTIONS:\n  -H               Header `"Name: Value"`, separated by colon.\n  -ignore-body     Do not fetch the response content. (default: false)\n  -r               Follow redirects (default: false)\n  -timeout         HTTP request timeout in seconds. (default: 10)\n  -u               Target URL\n  -mode            Multi-wordlist operation mode. Available modes: clusterbomb, pitchfork (default: clusterbomb)\n  -of              Output file format. Available formats: json, html, md (or, \'all\' for all formats) (default: json)\n\nEXAMPLE USAGE:\n  Fuzz file paths from wordlist.txt.\n    ffuf -w wordlist.txt -u https://example.org/FUZZ -mc all\n\n  Fuzz Host-header.\n    ffuf -w hosts.txt -u https://example.org/ -H "Host: FUZZ"\n';

  it('Go usage printing every DefValue (ffuf): a flag stating no default is a string flag, switches state `(default: false)`', () => {
    expect(option(ffuf, 'H')?.takes_value).toBe(true);
    expect(option(ffuf, 'u')?.takes_value).toBe(true);
    expect(option(ffuf, 'ignore-body')?.takes_value).toBe(false);
    expect(option(ffuf, 'r')?.takes_value).toBe(false);
    expect(option(ffuf, 'timeout')?.default).toBe(10);
  });

  it('…whose prose lists then give choices: `Available modes: a, b (default: a)`, `formats: json, md (or, \'all\' for all formats)`', () => {
    expect(option(ffuf, 'mode')?.choices).toEqual(['clusterbomb', 'pitchfork']);
    expect(option(ffuf, 'of')?.choices).toEqual(['json', 'html', 'md', 'all']);
  });

  it('a Go help without boolean defaults is left alone: bare flags stay switches', () => {
    const help = 'Tool - v1\n\nOPTIONS:\n  -quiet     Quiet output\n  -u         Target URL\n  -fast      Go fast\n  -n         Count (default: 3)\n  -x         Extra\n';
    expect(option(help, 'u')?.takes_value).toBe(false);
  });
});

describe('program name', () => {
  it('a title line in capitals over examples that invoke `ffuf -w …` twice: the examples name the program', () => {
    const help =
      'Fuzz Faster U Fool - v1.1.0\n\nOPTIONS:\n  -r   Follow redirects (default: false)\n  -c   Colorize output. (default: false)\n\nEXAMPLE USAGE:\n  Fuzz paths.\n    ffuf -w wordlist.txt -u https://example.org/FUZZ\n  Fuzz hosts.\n    ffuf -w hosts.txt -u https://example.org/\n';
    expect(parseHelp(help).name).toBe('ffuf');
    expect(parseHelp('Fuzz tool - v1\n\nOPTIONS:\n  -r   Follow redirects (default: false)\n').name).toBe('Fuzz');
  });
});

describe('names', () => {
  it('pwgen `-c or --capitalize`, `-r <chars> or --remove-chars=<chars>`: `or` separates spellings', () => {
    const help =
      'Usage: pwgen [ OPTIONS ] [ pw_length ]\n\nOptions supported by pwgen:\n  -c or --capitalize\n\tInclude at least one capital letter\n  -r <chars> or --remove-chars=<chars>\n\tRemove characters\n  -C\n\tPrint in columns\n';
    expect(option(help, 'capitalize')?.short).toBe('c');
    expect(option(help, 'capitalize')?.takes_value).toBe(false);
    expect(option(help, 'remove-chars')?.short).toBe('r');
    expect(option(help, 'remove-chars')?.takes_value).toBe(true);
  });
});

describe('value-taking from descriptions (hand-written helps without placeholders)', () => {
  it('meow `A filepath of …`, `Tag prefix to consider …`, `scoped to a specific directory` take a value; `Verbose output` does not', () => {
    const help =
      '\n  Generate a changelog.\n\n  Usage\n    changelog\n\n  Options\n    -i, --infile        Read the CHANGELOG from this file\n    -k, --pkg           A filepath of where your package.json is located\n    -t, --tag-prefix    Tag prefix to consider when reading the tags\n    --commit-path       Generate a changelog scoped to a specific directory\n    -l, --lerna-package Generate a changelog for a specific lerna package (:pkg-name@1.0.0)\n    -v, --verbose       Verbose output. Use this for debugging\n    -a, --append        Should the newer release be appended\n';
    for (const key of ['pkg', 'tag-prefix', 'commit-path', 'lerna-package']) expect(option(help, key)?.takes_value, key).toBe(true);
    expect(option(help, 'verbose')?.takes_value).toBe(false);
    expect(option(help, 'append')?.takes_value).toBe(false);
  });
});

describe('typer panels', () => {
  const pycln =
    ' Usage: pycln [OPTIONS] [paths]...\n\n A formatter.\n\n╭─ Arguments ─────────────────────────────────────────────╮\n│   paths...      <list[Path]>  Directories or files paths. │\n╰─────────────────────────────────────────────────────────╯\n╭─ Options ───────────────────────────────────────────────╮\n│ --exclude          -e       <str>   A regular expression │\n│ --extend-exclude   -ee      <str>   Like --exclude.      │\n│ --all              -a               Remove all.          │\n╰─────────────────────────────────────────────────────────╯\n';

  it('a short column of two letters (`--extend-exclude  -ee  <str>`) joins the head, and the type column after it', () => {
    const found = option(pycln, 'extend-exclude');
    expect(found?.takes_value).toBe(true);
    expect(found?.aliases).toContain('-ee');
    expect(option(pycln, 'all')?.takes_value).toBe(false);
  });

  it('`paths...` in the Arguments panel with `[paths]...` in the usage: variadic and optional', () => {
    expect(parseHelp(pycln).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['paths', false, true]]);
  });
});

describe('choices (quoted items with glosses)', () => {
  it('argp `"b" (binary), "d" (Intel .dat), "r" (search inside unknown binary data), or "a" (…)`: a long gloss is no part of the list', () => {
    const help =
      'Usage: tool [OPTION...] FILE\n\n  -t type                    Sets input file type. The type is a single character: "b" (binary), "d"\n                             (Intel .dat), "r" (search inside unknown binary\n                             data), or "a" (type will be selected by filename\n                             suffix)\n  -q, --quiet                Quiet\n';
    expect(option(help, 't')?.choices).toEqual(['b', 'd', 'r', 'a']);
  });
});

describe('number options', () => {
  it('brotli `-#  compression level (0-9)`: the number sign spelling takes the number as its value', () => {
    const help = 'Usage: brotli [OPTION]... [FILE]...\nOptions:\n  -#                          compression level (0-9)\n  -c, --stdout                write on standard output\n  -d, --decompress            decompress\n';
    expect(option(help, '#')?.takes_value).toBe(true);
    expect(option(help, 'stdout')?.takes_value).toBe(false);
  });
});

describe('choices by assignment', () => {
  it("fdupes `--order=BY … (BY='time'; default), … (BY='ctime'), or filename (BY='name')`: the values and the default", () => {
    const help =
      "Usage: fdupes [options] DIRECTORY...\n\n -o --order=BY           select sort order for output and deleting; by file\n                         modification time (BY='time'; default), status\n                         change time (BY='ctime'), or filename (BY='name')\n -l --log=LOGFILE        log file deletion choices to LOGFILE (LOGFILE='x' writes x)\n";
    expect(option(help, 'order')?.choices).toEqual(['time', 'ctime', 'name']);
    expect(option(help, 'order')?.default).toBe('time');
    expect(option(help, 'log')?.choices).toBeNull();
  });
});

describe('citty', () => {
  const nuxi =
    'Initialize a fresh project\n\nUSAGE nuxi init [OPTIONS] [DIR]\n\nOPTIONS\n\n                   --cwd=<directory>    Specify the working directory (Default: .)\n                           --install    Skip installing dependencies (Default: true)\n                        --no-install\n                           --gitInit    Initialize git repository\n                             --shell    Start shell after installation\n                 --nightly=<nightly>    Use Nuxt nightly release channel (3x or latest)\n                   --input=<input>      Input to read (file or directory)\n';

  it('right-aligned heads after a flag without description: a line described at the shared column is the next option', () => {
    expect(option(nuxi, 'gitInit')?.takes_value).toBe(false);
    expect(option(nuxi, 'shell')?.takes_value).toBe(false);
  });

  it('`(3x or latest)`: two values joined by `or` are the choices; `(file or directory)` names kinds of value', () => {
    expect(option(nuxi, 'nightly')?.choices).toEqual(['3x', 'latest']);
    expect(option(nuxi, 'input')?.choices).toBeNull();
  });
});

describe('lz4 glued values', () => {
  const lz4 =
    'Usage : \n      lz4 [arg] [input] [output] \n\nArguments : \n -1     : Fast compression (default) \n -f     : overwrite output without prompting \n -B#    : cut file into blocks of size # bytes [32+] \n                     or predefined block size [4-7] (default: 7) \n -BI    : Block Independence (default) \n -BD    : Block dependency (improves compression ratio) \n--best  : same as -12\n -b#    : benchmark file(s), using # compression level (default : 1) \n -i#    : minimum evaluation time in seconds (default : 3s) \n -e#    : up to level # (default : 4s) \n';

  it('`-BI`, `-BD` after `-B#` are values glued to `-B`, not options', () => {
    const spec = parseHelp(lz4);
    expect(option(lz4, 'B')?.takes_value).toBe(true);
    expect(spec.options.some((candidate) => candidate.long === 'BI' || candidate.long === 'BD')).toBe(false);
    expect(option(lz4, 'best')?.takes_value).toBe(false);
  });

  it('`(default : 1)` (a space before the colon) and `in seconds (default : 3s)` (the unit glued on) are numbers', () => {
    expect(option(lz4, 'b')?.default).toBe(1);
    expect(option(lz4, 'i')?.default).toBe(3);
    // no unit named in the description: the glued text is no number
    expect(option(lz4, 'e')?.default).toBeNull();
  });
});

describe('program names from runtimes', () => {
  it('yargs `Usage: node gltf-pipeline -i inputPath`: the script run by node is the program', () => {
    const help = 'Usage: node gltf-pipeline -i inputPath -o outputPath\n\nOptions:\n  -h, --help     Show help      [boolean]\n  -i, --input    Path to the file.   [string] [required]\n';
    expect(parseHelp(help).name).toBe('gltf-pipeline');
  });
});

describe('a pair holding the default', () => {
  it('cac `Switch wind3 or wind4 preset as default. (default: wind4)`: the two are the choices; `a file or stdin` are kinds of value', () => {
    const help =
      'unocss/0.1\n\nUsage:\n  $ unocss [...patterns]\n\nOptions:\n  --preset [default-preset]  Switch wind3 or wind4 preset as default. (default: wind4)\n  --input [input]            Read a file or stdin (default: stdin)\n  --mode [mode]              Run fast or slow (default: medium)\n  -h, --help                 Display this message\n';
    expect(option(help, 'preset')?.choices).toEqual(['wind3', 'wind4']);
    expect(option(help, 'input')?.choices).toBeNull();
    expect(option(help, 'mode')?.choices).toBeNull();
  });
});

describe('value lists in prose naming the flag', () => {
  it("click `The '--builtin-schema' flag supports the following schema names:` over a comma list: its choices; a flag without placeholder is left alone", () => {
    const help =
      "Usage: check [OPTIONS] FILES...\n\n  Check files.\n\n  The '--builtin-schema' flag supports the following schema names:\n      vendor.azure, vendor.bamboo,\n      custom.github-timeout\n\n  The '--disable-formats' flag supports the following formats:\n      date, date-time, email\n\nOptions:\n  --builtin-schema BUILTIN_SCHEMA_NAME\n                                  The name of an internal schema to use.\n  --disable-formats {*|FORMAT,FORMAT,...}\n                                  Disable specific format checks.\n  -h, --help                      Show this message and exit.\n";
    expect(option(help, 'builtin-schema')?.choices).toEqual(['vendor.azure', 'vendor.bamboo', 'custom.github-timeout']);
    expect(option(help, 'disable-formats')?.choices).toBeNull();
  });
});

describe('defaults told in a word formed from a choice', () => {
  it('click `[full|short] … Defaults to shortened tracebacks.`, `[auto|always|never] … Defaults to autodetection.`', () => {
    const help =
      'Usage: check [OPTIONS]\n\nOptions:\n  --traceback-mode [full|short]   Set the mode. Defaults to shortened tracebacks.\n  --color [auto|always|never]     Force or disable color. Defaults\n                                  to autodetection.\n  --level [low|high]              Level. Defaults to something else.\n';
    expect(option(help, 'traceback-mode')?.default).toBe('short');
    expect(option(help, 'color')?.default).toBe('auto');
    expect(option(help, 'level')?.default).toBeNull();
  });
});

describe('argp iucode_tool', () => {
  const help =
    'Usage: iucode_tool [OPTION...] [[-t<type>] filename] ...\niucode_tool - Tool to manipulate microcode bundles\n\n  -q, --quiet                Quiet operation\n  -t type                    Sets input file type\n  -s ! | [!]signature[,[pf_mask]]\n                             Select microcodes by the specified signature\n  -S                         Same as --scan-system=auto\n';

  it('`-s ! | [!]signature[,…]`: a short literal or a placeholder joined by `|` is the value', () => {
    expect(option(help, 's')?.takes_value).toBe(true);
    expect(option(help, 'S')?.takes_value).toBe(false);
  });

  it('`[[-t<type>] filename] ...`: an option group whose value is glued on leaves `filename` a positional', () => {
    expect(parseHelp(help).positionals.map((positional) => [positional.name, positional.required, positional.variadic])).toEqual([['filename', false, true]]);
  });
});

describe('aliased values in clauses', () => {
  it('argp `the strategy: 0 or auto (default); 1 or fast (good for most); and 2 or exact (slow, …)`: every value and alias, the marked one the default', () => {
    const help =
      'Usage: iucode_tool [OPTION...]\n\n      --scan-system[=mode]   Select microcodes. The optional mode argument\n                             selects the strategy: 0 or auto (default); 1 or\n                             fast (good for most systems, including\n                             mixed-stepping); and 2 or exact (slow, supports\n                             multi-signature systems)\n  -q, --quiet                Quiet operation\n';
    expect(option(help, 'scan-system')?.choices).toEqual(['0', 'auto', '1', 'fast', '2', 'exact']);
    expect(option(help, 'scan-system')?.default).toBe('auto');
  });
});

describe('options called arguments', () => {
  it('lz4 `lz4 [arg] [input] [output]` over `Arguments :` listing options: `[arg]` stands for the options', () => {
    const help = 'Usage : \n      lz4 [arg] [input] [output] \n\nArguments : \n -1     : Fast compression (default) \n -f     : overwrite output without prompting \n';
    expect(parseHelp(help).positionals.map((positional) => positional.name)).toEqual(['input', 'output']);
    const other = 'Usage : \n      tool [arg] [input] \n\nOptions : \n -f     : overwrite output \n';
    expect(parseHelp(other).positionals.map((positional) => positional.name)).toEqual(['arg', 'input']);
  });
});
