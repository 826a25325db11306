/**
 * Notations met in parser fixes round 11 (issue 12, batch 6 as tuning material), each pinned on a
 * minimal help: positionals, value-taking, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('positionals and names', () => {
  it('cobra `help for run` ends the command path at `run`: `hook-name` and `[git args...]` are arguments', () => {
    const help =
      'Execute group of hooks\n\nUsage:\n  lefthook run hook-name [git args...] [flags]\n\nFlags:\n      --all-files   run hooks on all files\n  -h, --help        help for run\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('lefthook_run');
    expect(spec.positionals).toEqual([
      { name: 'hook-name', required: true, variadic: false },
      { name: 'git args', required: false, variadic: true },
    ]);
  });
});

describe('optional parts glued to a name', () => {
  const help =
    'Usage:\n  oras pull [flags] <name>{:<tag>|@<digest>}\n\nFlags:\n  -h, --help                                    help for pull\n' +
    '      --platform os[/arch][/variant][:os_version]   request platform\n' +
    '      --resolve host:port:address[:address_port]    customized DNS for registry\n      --insecure                                    allow connections\n';

  it('cobra `<name>{:<tag>|@<digest>}`: a brace group glued on with a separator is the argument\'s suffix, no positional', () => {
    expect(parseHelp(help).positionals).toEqual([{ name: 'name', required: true, variadic: false }]);
  });

  it('pflag `os[/arch][/variant][:os_version]`, `host:port:address[:address_port]`: a value named in parts, some optional', () => {
    expect(option(help, 'platform')).toMatchObject({ takes_value: true, value_name: 'os[/arch][/variant][:os_version]' });
    expect(option(help, 'resolve')).toMatchObject({ takes_value: true, value_name: 'host:port:address[:address_port]' });
    expect(option(help, 'insecure')?.takes_value).toBe(false);
  });
});

describe('value-taking', () => {
  it('argh `Usage: naga [--validate <validate>] [-D <defines...>]`: a bracket of one spelling and its `<value>` says the bare-listed option takes it', () => {
    const help =
      'Usage: naga [--validate <validate>] [--compact] [-D <defines...>] [--shader-model <shader-model>]\n\nOptions:\n' +
      '  --validate        bitmask of the ValidationFlags to be used\n  --compact         compact the module\n' +
      '  -D, --defines     defines to be passed to the parser\n  --shader-model    the shader model to use\n  --help, help      display usage information\n';
    expect(option(help, 'validate')).toMatchObject({ takes_value: true, value_name: 'validate' });
    expect(option(help, 'defines')).toMatchObject({ takes_value: true, repeatable: true });
    expect(option(help, 'compact')?.takes_value).toBe(false);
  });

  it('the same with a placeholder in capitals (`[-o FILE]`); a literal `[--watch=false]` gives no value', () => {
    const help = 'Usage: tool [-o FILE] [--watch=false] [--level LEVEL] input\n\nOptions:\n  -o          write the output there\n  -w, --watch watch for changes\n  --level     how much to log\n  -q          be quiet\n  -v          be loud\n';
    expect(option(help, 'o')).toMatchObject({ takes_value: true, value_name: 'FILE' });
    expect(option(help, 'level')?.takes_value).toBe(true);
    expect(option(help, 'watch')?.takes_value).toBe(false);
  });
});

describe('placeholders in a column of their own', () => {
  it('jaq `--arg       <A> <V>   Set variable `$A` to string `V``: two placeholders pushed into the column, two values a use', () => {
    const help =
      'Usage: jaq [OPTION]... [FILTER]\n\nVariable options:\n      --arg       <A> <V>   Set variable `$A` to string `V`\n' +
      '      --slurpfile <A> <F>   Set variable `$A` to array in file `F`\n      --args                Collect remaining positional arguments\n';
    expect(option(help, 'arg')).toMatchObject({ takes_value: true, value_count: 2 });
    expect(option(help, 'args')?.takes_value).toBe(false);
  });
});

describe('defaults written in the head', () => {
  it('old Go flag / pflag `--name=DEFAULT:` heads (reflex): `false` a switch, `[]` a repeatable value, `""` no default, others the default', () => {
    const help =
      'Usage: reflex [OPTIONS] [COMMAND]\n\nOPTIONS are given below:\n      --all=false: \n            Include normally ignored files.\n' +
      '  -c, --config="": \n            A configuration file.\n  -d, --decoration="plain": \n            How to decorate command output. Choices: none, plain, fancy.\n' +
      '  -g, --glob=[]: \n            A shell glob expression to match filenames.\n  -t, --shutdown-timeout=500ms: \n            Allow services this long to shut down.\n' +
      '      --port=8080: \n            Port to serve on.\n';
    expect(option(help, 'all')).toMatchObject({ takes_value: false, default: false });
    expect(option(help, 'config')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'decoration')).toMatchObject({ takes_value: true, default: 'plain', choices: ['none', 'plain', 'fancy'] });
    expect(option(help, 'glob')).toMatchObject({ takes_value: true, default: null, repeatable: true });
    expect(option(help, 'shutdown-timeout')).toMatchObject({ takes_value: true, default: '500ms' });
    expect(option(help, 'port')).toMatchObject({ takes_value: true, type: 'integer', default: 8080 });
  });

  it('Go 1.4 flag `  -name=DEFAULT: usage` on one line: the same heads, the usage after the colon', () => {
    const help = 'Usage of srv:\n  -port=8080: port to listen on\n  -verbose=false: log more\n  -root="": directory to serve\n';
    expect(option(help, 'port')).toMatchObject({ takes_value: true, default: 8080, prefix: '-' });
    expect(option(help, 'verbose')).toMatchObject({ takes_value: false, default: false, description: 'log more' });
    expect(option(help, 'root')).toMatchObject({ takes_value: true, default: null });
  });
});

describe('value-taking in helps that show no placeholder (hey)', () => {
  const help =
    'Usage: hey [options...] <url>\n\nOptions:\n  -n  Number of requests to run. Default is 200.\n' +
    '  -q  Rate limit, in queries per second (QPS) per worker. Default is no rate limit.\n' +
    '  -z  Duration of application to send requests.\n      Examples: -z 10s -z 3m.\n' +
    '  -o  Output type. If none provided, a summary is printed.\n      "csv" is the only supported alternative.\n' +
    '  -m  HTTP method, one of GET, POST, PUT, DELETE.\n  -H  Custom HTTP header.\n      For example, -H "Accept: text/html" .\n' +
    '  -t  Timeout for each request in seconds.\n  -A  HTTP Accept header.\n  -D  HTTP request body from file. For example, ./file.txt.\n' +
    '  -a  Basic authentication, username:password.\n  -h2 Enable HTTP/2.\n\n  -host\tHTTP Host header.\n\n' +
    '  -disable-compression  Disable compression.\n  -u  UDP mode.\n';

  it('a tab after a flag separates it from its description even where it expands to one column', () => {
    expect(option(help, 'host')).toMatchObject({ value_name: null, description: 'HTTP Host header.' });
  });

  it('description cues: a span of time, a quantity and its unit, an own example, a named sole value, stated choices, a part of an HTTP message, `user:password`', () => {
    for (const key of ['n', 'q', 'z', 'o', 'm', 'H', 't', 'A', 'D', 'a', 'host']) expect(option(help, key)?.takes_value, key).toBe(true);
    expect(option(help, 'm')?.choices).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    expect(option(help, 'n')?.default).toBe(200);
    for (const key of ['h2', 'disable-compression', 'u']) expect(option(help, key)?.takes_value, key).toBe(false);
  });
});

describe('choices', () => {
  it('pflag `(svg, png, ascii) … (default "")`: an empty quoted default states none, so it does not overrule the list', () => {
    const help =
      'Usage:\n  d2 [flags] file.d2\n\nFlags:\n      --stdout-format string   output format when writing to stdout (svg, png, ascii, txt). Usage: d2 input.d2 --stdout-format png - > output.png (default "")\n' +
      '  -p, --port string            port listening address (default "0")\n';
    expect(option(help, 'stdout-format')).toMatchObject({ choices: ['svg', 'png', 'ascii', 'txt'], default: null });
    expect(option(help, 'port')?.default).toBe('0');
  });
});

describe('choices and defaults in argh prose', () => {
  const help =
    'Usage: naga [--policy <policy>] [--shader-model <shader-model>] [--shader-stage <shader-stage>] [--compact]\n\nOptions:\n' +
    '  --policy          what policy to use. May be `Restrict` (force all indices\n                    in-bounds), `ReadZeroSkipWrite` (out-of-bounds indices read\n' +
    "                    zeros, and don't write at all), or `Unchecked` (generate the\n                    simplest code) `Unchecked` is\n                    the default.\n" +
    '  --shader-model    the shader model to use if targeting HLSL May be `50`, `51`,\n                    or `60`\n' +
    "  --shader-stage    the shader stage, for example 'frag', 'vert', or 'compute'.\n  --compact         compact the module\n  --help, help      display usage information\n";

  it('markdown code spans quote the items of a `May be` list, notes in parentheses (an apostrophe too) left out; `` `x` is the default``', () => {
    expect(option(help, 'policy')).toMatchObject({ takes_value: true, choices: ['Restrict', 'ReadZeroSkipWrite', 'Unchecked'], default: 'Unchecked' });
    expect(option(help, 'shader-model')).toMatchObject({ takes_value: true, choices: ['50', '51', '60'] });
  });

  it("`for example 'frag', 'vert', or 'compute'`: values after an example marker are no choices", () => {
    expect(option(help, 'shader-stage')).toMatchObject({ takes_value: true, choices: null });
    expect(option('Options:\n  --kind <kind>   the kind of input, e.g. \'glsl\', \'wgsl\', or \'bin\'.\n', 'kind')?.choices).toBeNull();
  });
});
