/**
 * Notations met in parser fixes round 13 on batch 17's C/Ruby/Perl/Python texts (issue 12), each
 * pinned on a minimal help: value-taking, names, choices, defaults and positionals.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { option } from './parsed-option.ts';

describe('spellings', () => {
  it('rlwrap `-b  <chars>   --break-chars=<chars>`: a placeholder column before a long column repeating it is one option', () => {
    const help =
      'Usage: rlwrap [options] command ...\n\nOptions:\n  -a[password prompt]        --always-readline[=password prompt]\n  -A                         --ansi-colour-aware\n  -b  <chars>                --break-chars=<chars>\n  -f  <completion list>      --file=<completion list>\n  -s  <N>                    --histsize=<N> (negative: readonly)\n';
    expect(option(help, 'b')).toMatchObject({ long: 'break-chars', takes_value: true });
    expect(option(help, 'f')).toMatchObject({ long: 'file', takes_value: true });
    expect(option(help, 'a')).toMatchObject({ long: 'always-readline', takes_value: true });
    expect(option(help, 's')).toMatchObject({ long: 'histsize', takes_value: true });
    expect(option(help, 'A')).toMatchObject({ long: 'ansi-colour-aware', takes_value: false });
    expect(parseHelp(help).options).toHaveLength(5);
  });
});

describe('value-taking', () => {
  it('argparse metavars naming a shape with the key in capitals: `-F FILTER[:options]`, `-P OPTION=value`, `-O OPTION=value[,OPTION=value,...]`', () => {
    const help =
      'usage: pygmentize [-F FILTER[:options]] [-O OPTION=value[,OPTION=value,...]]\n\noptions:\n  -F FILTER[:options]\n                Add a filter to the token stream.\n  -O OPTION=value[,OPTION=value,...]\n                Give options to the lexer.\n  -P OPTION=value\n                Give a single option.\n  -v            Print a traceback.\n';
    for (const key of ['F', 'O', 'P']) expect(option(help, key)?.takes_value).toBe(true);
    expect(option(help, 'v')?.takes_value).toBe(false);
  });

  it('whois `-i ATTR[,ATTR]...`: a capitalized name with an optional list part and an ellipsis takes a value', () => {
    const help = 'Usage: whois [OPTION]... OBJECT...\n\n-H                     hide legal disclaimers\n-i ATTR[,ATTR]...      do an inverse look-up for specified ATTRibutes\n-s SOURCE[,SOURCE]...  search the database mirrored from SOURCE\n';
    expect(option(help, 'i')?.takes_value).toBe(true);
    expect(option(help, 's')?.takes_value).toBe(true);
    expect(option(help, 'H')?.takes_value).toBe(false);
  });
});

describe('choices', () => {
  it('argparse `-H NAME TYPE … where <type> is one of "a", "b" or "c"`: a list for one of several values is no enum of the option', () => {
    const help = 'options:\n  -H NAME TYPE  Print help for the object <name> of type <type>, where <type> is one of\n                "lexer", "formatter" or "filter".\n  -k KIND       Kind, one of "lexer", "formatter" or "filter".\n';
    expect(option(help, 'H')).toMatchObject({ takes_value: true, choices: null });
    expect(option(help, 'k')?.choices).toEqual(['lexer', 'formatter', 'filter']);
  });
});

describe('defaults', () => {
  it('argparse `(default: unlimited)` / `(default: infinite)`: no limit, in words, is no default', () => {
    const help = 'options:\n  --max-cons-per-ip MAX_CONS_PER_IP\n                        maximum connections from one address (default: unlimited)\n  --max-cons MAX_CONS   max number of connections (default: 512)\n';
    expect(option(help, 'max-cons-per-ip')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'max-cons')?.default).toBe(512);
  });
});

describe('defaults by case', () => {
  it('hand-written `Defaults to 1883 for plain MQTT and 8883 for MQTT over TLS.`: one value per case is no default', () => {
    const help = 'Usage: pub [-p port] [-k keepalive]\n\n -p : network port to connect to. Defaults to 1883 for plain MQTT and 8883 for MQTT over TLS.\n -k : keep alive in seconds for this client. Defaults to 60 for now.\n';
    expect(option(help, 'p')).toMatchObject({ takes_value: true, default: null });
    expect(String(option(help, 'k')?.default)).toBe('60');
  });
});

describe('usage groups (hand-written helps)', () => {
  const help =
    'Usage: pub {[-h host] -t topic | -L URL}\n           {-f file | -l | -m message}\n           [-r] [{--cafile file | --capath dir} [--tls-alpn protocol]]\n           [--psk hex-key --psk-identity identity [--ciphers ciphers]]\n\n -f : send the contents of a file as the message.\n -h : mqtt host to connect to.\n -l : read messages from stdin.\n -L : a URL in the form mqtt://host/topic\n -m : message payload to send.\n -r : message should be retained.\n -t : mqtt topic to publish to.\n --cafile : path to a file of CA certificates.\n --capath : path to a directory of CA certificates.\n --ciphers : list of TLS ciphers.\n --psk : pre-shared-key in hexadecimal.\n --psk-identity : client identity string.\n';

  it('mosquitto `{-f file | -l | -m message}`: braces around option spellings are a required group of alternatives, no positional', () => {
    expect(parseHelp(help).positionals).toEqual([]);
  });

  it('a spelling and its value words inside a group take a value, even when the list shows it bare or leaves it out', () => {
    for (const key of ['t', 'L', 'f', 'm', 'cafile', 'capath', 'psk', 'psk-identity', 'tls-alpn', 'ciphers']) expect(option(help, key)?.takes_value, key).toBe(true);
    for (const key of ['l', 'r']) expect(option(help, key)?.takes_value, key).toBe(false);
  });

  it('optparse `[-m module | scriptfile]` over a list that shows placeholders: `-m` listed bare stays a flag', () => {
    const listed = 'Usage: cProfile.py [-o output_file_path] [-m module | scriptfile] [arg] ...\n\nOptions:\n  -o OUTFILE, --outfile=OUTFILE\n                        Save stats to <outfile>\n  -m                    Profile a library module\n';
    expect(option(listed, 'm')?.takes_value).toBe(false);
  });
});

describe('names', () => {
  it('mosquitto `-V : specify the version of the MQTT protocol to use`: the version of another thing is an option, not the program version', () => {
    const help = 'Usage: pub [-q qos]\n\n -q : quality of service level. Defaults to 0.\n -V : specify the version of the MQTT protocol to use when connecting.\n      Can be mqttv5, mqttv311 or mqttv31. Defaults to mqttv311.\n';
    expect(option(help, 'V')).toBeDefined();
    expect(option('Options:\n  -q  quiet\n  -V  Show the version of pigz\n', 'V')).toBeUndefined();
  });
});

describe('choices: templates', () => {
  it('ruby `-W[level=2|:category]`: alternatives that are a key with a value or a `:`-marked name are shapes, no enum', () => {
    const help = 'Usage: ruby [switches]\n  -w              turn warnings on\n  -W[level=2|:category]     set warning level; 0=silence, 1=medium, 2=verbose\n  -x[directory]   strip off text\n';
    expect(option(help, 'W')).toMatchObject({ takes_value: true, choices: null });
  });
});

describe('glued lower-case placeholders', () => {
  it('ruby `-Cdirectory  cd to directory …`, `-Eex[:in]`: a lower-case word glued to the letter that the description repeats, or with an optional part', () => {
    const help =
      'Usage: ruby [switches] [--] [programfile]\n  -c              check syntax only\n  -Cdirectory     cd to directory before executing your script\n  -Eex[:in]       specify the default external and internal character encodings\n  -rlibrary       require the library before executing your script\n  -Xlinker <arg>  Pass <arg> on to the linker.\n  -verbose        be chatty\n';
    expect(option(help, 'C')).toMatchObject({ long: null, takes_value: true });
    expect(option(help, 'E')).toMatchObject({ long: null, takes_value: true });
    expect(option(help, 'r')).toMatchObject({ long: null, takes_value: true });
    expect(option(help, 'X')).toBeUndefined();
    expect(option(help, 'v')).toBeUndefined();
  });
});

describe('ruby switches', () => {
  const help = "Usage: ruby [switches] [--] [programfile]\n  -c              check syntax only\n  -e 'command'    one line of script. Several -e's allowed.\n  -v              print the version number, then turn on verbose mode\n  -w              turn warnings on for your script\n";

  it("`-e 'command'`: a quoted lower-case word ending the head names the value", () => {
    expect(option(help, 'e')?.takes_value).toBe(true);
    expect(option(help, 'c')?.takes_value).toBe(false);
  });

  it('`-v  print the version number, then turn on verbose mode`: a switch doing more after the version is an option', () => {
    expect(option(help, 'v')).toMatchObject({ takes_value: false });
    expect(option('Options:\n  -q  quiet\n  -v  print the version\n', 'v')).toBeUndefined();
  });
});

describe('glued short mentions', () => {
  it('slop `--gem  Shorthand for -I./lib -rgemname`: a short spelling with a value glued on in another description takes a value', () => {
    const help =
      'Usage: pry [OPTIONS]\n    -e, --exec                A line of code to execute\n    -f,                       Suppress loading of pryrc\n    -r, --require             `require` a Ruby script at startup\n    -I,                       Add a path to the $LOAD_PATH\n        --gem                 Shorthand for -I./lib -rgemname\n    -n, --no-color            Plain output; same as -fn\n';
    expect(option(help, 'I')?.takes_value).toBe(true);
    expect(option(help, 'r')?.takes_value).toBe(true);
    // `-fn`: a cluster of listed flags
    expect(option(help, 'f')?.takes_value).toBe(false);
  });
});

describe('description cues in a help without placeholders', () => {
  it('slop pry: `A line of code to execute`, `Only load specified plugin`, `Disable a specific plugin` name a value; `Disable pager` does not', () => {
    const help =
      'Usage: pry [OPTIONS]\n    -e, --exec                A line of code to execute in context before the session starts\n        --no-pager            Disable pager for long output\n    -f,                       Suppress loading of pryrc\n    -s, --select-plugin       Only load specified plugin (and no others).\n    -d, --disable-plugin      Disable a specific plugin.\n        --plugins             List installed plugins.\n        --simple-prompt       Enable simple prompt mode\n';
    for (const key of ['exec', 'select-plugin', 'disable-plugin']) expect(option(help, key)?.takes_value, key).toBe(true);
    for (const key of ['plugins', 'simple-prompt', 'f']) expect(option(help, key)?.takes_value, key).toBe(false);
  });
});

describe('Getopt::Long / Pod::Usage (xml_grep)', () => {
  const help =
    'Options:\n    --Version\n        display the tool version\n\n    --descr <string>\n        attributes of the wrap tag (defaults to "version="<VERSION>"\n        date="<date>"")\n\n    --wrap <tag>\n        wrap the xml result in the provided tag (defaults to \'xml_grep\')\n\n    --type <t>\n        Content-type, defaults to "text/html".\n';

  it('quotes inside a quoted default cut it: no default', () => {
    expect(option(help, 'descr')).toMatchObject({ takes_value: true, default: null });
    expect(option(help, 'wrap')?.default).toBe('xml_grep');
    expect(option(help, 'type')?.default).toBe('text/html');
  });

  it('`--Version  display the tool version` (names in any case) stays out like --version', () => {
    expect(option(help, 'Version')).toBeUndefined();
  });
});

describe('a switch naming its own negation', () => {
  it('xml_grep `--date  when on (by default) … with "--nodate" …`: the state in words is its default', () => {
    const help =
      'Options:\n    --date\n        when on (by default) the wrapping element get a "date" attribute.\n\n        with "--nodate" this attribute is not added.\n\n    --strict\n        without this option errors are reported (on by default)\n\n    --count\n        return only the number of matches\n';
    expect(option(help, 'date')).toMatchObject({ takes_value: false, default: true });
    // no negation named: the words state nothing to set
    expect(option(help, 'strict')?.default).toBeNull();
  });
});

describe('a default written as the option given its value', () => {
  it("optparse icdiff `Default is --color-\\nmap='add:green,line-numbers:white\\n,meta:magenta'.`: the quoted value, the wrap's space before a comma dropped", () => {
    const help =
      "Usage: icdiff [options] left_file right_file\n\nOptions:\n  --color-map=COLOR_MAP\n                        choose which colors are used. Default is --color-\n                        map='add:green_bold,line-numbers:white\n                        ,meta:magenta'.  You don't have to override all of them\n  --tabsize=TABSIZE     tab stop spacing\n";
    expect(option(help, 'color-map')?.default).toBe('add:green_bold,line-numbers:white,meta:magenta');
    expect(option(help, 'tabsize')?.default).toBeNull();
  });
});

describe('a bare list under a usage that names values', () => {
  it('mosquitto `--tls-version : … can be one of tlsv1.3 tlsv1.2 or tlsv1.1.`: values the usage gives leave the list bare; versioned names set off by spaces are the choices', () => {
    const help =
      'Usage: pub {[-h host] -t topic | -L URL} [-d] [-r] [--quiet]\n\n -d : enable debug messages.\n -h : mqtt host to connect to.\n -L : a URL to publish to.\n -r : message should be retained.\n -t : mqtt topic to publish to.\n --quiet : don\'t print error messages.\n --tls-version : TLS protocol version, can be one of tlsv1.3 tlsv1.2 or tlsv1.1.\n                 Defaults to tlsv1.2 if available.\n';
    expect(option(help, 'tls-version')).toMatchObject({ takes_value: true, choices: ['tlsv1.3', 'tlsv1.2', 'tlsv1.1'], default: null });
    expect(option(help, 'quiet')?.takes_value).toBe(false);
  });
});

describe('hand-written `-x : description` lists', () => {
  const help =
    'Usage: pub [-d] [-r] [--quiet]\n\n -A : bind the outgoing socket to this host/ip address.\n -d : enable debug messages.\n -r : message should be retained.\n --quiet : don\'t print error messages.\n --will-retain : if given, make the client Will retained.\n --will-topic : the topic on which to publish the client Will.\n --tls-engine-kpass-sha1 : SHA1 of the key password to be used with the selected SSL engine.\n';

  it('a colon set off by spaces after the spelling ends the head: the description starts after it', () => {
    expect(option(help, 'd')?.description).toBe('enable debug messages.');
  });

  it('`the topic on which to publish …`, `SHA1 of the key password to be used …` name a value in a bare list', () => {
    expect(option(help, 'will-topic')?.takes_value).toBe(true);
    expect(option(help, 'tls-engine-kpass-sha1')?.takes_value).toBe(true);
    for (const key of ['d', 'r', 'quiet', 'will-retain']) expect(option(help, key)?.takes_value, key).toBe(false);
  });
});

describe('program name', () => {
  it('a help opening with a section title (`Options:`) names no program: the file does', () => {
    const help = 'Options:\n    --count\n        return only the number of matches\n\n    --strict\n        report parsing errors\n';
    expect(parseHelp(help, { fileName: 'xml_grep.wasm' }).name).toBe('xml_grep');
  });
});

describe('a placeholder named in a bare option\'s description', () => {
  it('Pod::Usage xml_grep `--by_file  output only <nb> results by file`: a placeholder the heads use takes that value', () => {
    const help =
      'Options:\n    --nb_results <nb>\n        output only <nb> results\n\n    --by_file\n        output only <nb> results by file\n\n    --nowrap\n        same as using --wrap <tag>: the result is not wrapped.\n\n    --wrap <tag>\n        wrap the result in the tag\n\n    --count\n        return only the <x> matches\n';
    expect(option(help, 'by_file')?.takes_value).toBe(true);
    expect(option(help, 'nowrap')?.takes_value).toBe(false);
    // `<x>` is no placeholder of this help
    expect(option(help, 'count')?.takes_value).toBe(false);
  });
});
