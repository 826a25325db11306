/**
 * Usage-line parsing: program name, positionals (name, required, variadic, order) and the
 * options a form requires (written outside brackets).
 */
const MAX_USAGE_ATOMS = 200;

type Atom =
  | { kind: 'open'; bracket: '[' | '(' }
  | { kind: 'close' }
  | { kind: 'pipe' }
  | { kind: 'ellipsis'; spaced: boolean }
  | { kind: 'word'; text: string };

/** `< in`, `> out`: a redirection sign set off by a space, then the file it names. */
const SHELL_REDIRECTION = /^[<>]\s+[^\s[\]()|<>]{0,120}/;

/**
 * A brace opening on an option spelling, maybe inside a bracket: `{-f file | -l}`, `{[-h host] -t topic | -L URL}`;
 * or on a placeholder in capitals that an option spelling is the alternative of (clap grex `{INPUT...|--file <FILE>}`).
 */
const OPTION_BRACE_GROUP = /^\{\s*(?:\[\s*)?-{1,2}[A-Za-z0-9]|^\{[A-Z][A-Z0-9_-]{0,30}(?:\.{3})?\s{0,4}\|\s{0,4}-{1,2}[A-Za-z0-9]/;

function atomsOf(form: string): Atom[] {
  const atoms: Atom[] = [];
  let position = 0;
  // mosquitto `{[-h host] … -t topic | -L URL}`, `{-f file | -l | -m message}`: braces around option
  // spellings are a group of alternatives, one of them required, like `( … )` (`{a,b}` stays a word)
  let braceGroups = 0;
  while (position < form.length && atoms.length < MAX_USAGE_ATOMS) {
    const character = form[position] ?? '';
    if (character === ' ' || character === '\t' || character === ',') {
      position += 1;
    } else if (character === '{' && OPTION_BRACE_GROUP.test(form.slice(position))) {
      atoms.push({ kind: 'open', bracket: '(' });
      braceGroups += 1;
      position += 1;
    } else if (character === '}' && braceGroups > 0) {
      atoms.push({ kind: 'close' });
      braceGroups -= 1;
      position += 1;
    } else if (character === '[' || character === '(') {
      atoms.push({ kind: 'open', bracket: character });
      position += 1;
    } else if (character === ']' || character === ')') {
      atoms.push({ kind: 'close' });
      position += 1;
    } else if (character === '|') {
      atoms.push({ kind: 'pipe' });
      position += 1;
    } else if ((form.startsWith('...', position) || form.startsWith('..', position)) && !/^\.{3}[A-Za-z]/.test(form.slice(position, position + 4))) {
      // argparse prints REMAINDER as a lone `...` after a space: `[progname] ...`
      atoms.push({ kind: 'ellipsis', spaced: position > 0 && /\s/.test(form[position - 1] ?? '') && atoms[atoms.length - 1]?.kind === 'close' });
      position += form.startsWith('...', position) ? 3 : 2;
    } else if ((character === '<' || character === '>') && /\s/.test(form[position + 1] ?? '')) {
      // stylus `[< in [> out]]`: a shell redirection and its file feed stdin / take stdout, no argument
      position += SHELL_REDIRECTION.exec(form.slice(position))?.[0].length ?? 1;
    } else if (character === '<' || character === '{') {
      const close = character === '<' ? '>' : '}';
      const end = form.indexOf(close, position);
      if (end === -1 || end - position > 80) {
        position += 1;
        continue;
      }
      let text = form.slice(position, end + 1);
      position = end + 1;
      // `<name>...` or `<files..>` handled by the ellipsis atom / inner dots
      if (form.startsWith('...', position) || form.startsWith('..', position)) {
        text += '...';
        position += form.startsWith('...', position) ? 3 : 2;
      }
      atoms.push({ kind: 'word', text });
    } else {
      let end = position;
      // `[DIR1,DIR2..]` (hand-written): a comma between two name characters joins one name; a
      // flag list (`-a,--all`) and `[a, b]` still split
      const joinsName = (at: number): boolean => form[at] === ',' && character !== '-' && /\w/.test(form[at - 1] ?? '') && /\w/.test(form[at + 1] ?? '');
      // docopt `--output=<individual|array|oneeach>`: bars inside a value's angle brackets glued by `=` are its values, no alternatives
      let gluedAngle = false;
      const barInValue = (at: number): boolean => form[at] === '|' && gluedAngle;
      while (end < form.length && (!' \t[]()|,'.includes(form[end] ?? ' ') || joinsName(end) || barInValue(end)) && !(braceGroups > 0 && form[end] === '}') && end - position < 120) {
        if (form[end] === '<' && form[end - 1] === '=') gluedAngle = true;
        else if (form[end] === '>') gluedAngle = false;
        end += 1;
      }
      let text = form.slice(position, end);
      position = end;
      if (text.endsWith('...') && text.length > 3) {
        text = text.slice(0, -3);
        atoms.push({ kind: 'word', text: `${text}...` });
      } else {
        atoms.push({ kind: 'word', text });
      }
    }
  }
  return atoms;
}

export interface UsagePositional {
  name: string;
  required: boolean;
  variadic: boolean;
}

export interface UsageForm {
  program: string | null;
  /** Words right after the program that are bare lowercase literals (docopt commands). */
  leadingLiterals: string[];
  /**
   * The subcommand path the form is written for (`git clone [<options>]` → `['clone']`): bare
   * lowercase words after the program that are followed by a bracket, an option or nothing.
   */
  commandPath: string[];
  positionals: UsagePositional[];
  /** Option spellings (with dashes, no value) written outside any bracket. */
  requiredOptions: string[];
}

/** The name of argparse's REMAINDER positional (`...`), matched to the positionals section by position. */
export const REMAINDER = '...';

// gopls `[codeaction-flags]`: the flags of the word it is named for
const PLACEHOLDER_WORDS = /^(options?|flags?|global[ _-]?options?|opts|switches|command options?|general options?|[a-z][a-z0-9]{1,30}-(?:flags|options))$/i;

function positionalName(text: string): { name: string; variadic: boolean } {
  let variadic = false;
  let name = text;
  if (/^(\[|<)?\.{3}/.test(name)) {
    // cac: `[...filters]`
    variadic = true;
    name = name.replace(/^([[<]?)\.{3}/, '$1');
  }
  if (/\.{2,3}$/.test(name)) {
    variadic = true;
    name = name.replace(/\.{2,3}$/, '');
  }
  if (/\.{2,3}[>}]$/.test(name)) {
    variadic = true;
    name = name.replace(/\.{2,3}([>}])$/, '$1');
  }
  // yargs `<command ...>`: the space before the ellipsis is no part of the name
  name = name.replace(/^[<{]/, '').replace(/[>}]$/, '').trim();
  // gawk `[--] 'program' file ...`: quotes around a word say it is one argument (a shell-quoted text)
  name = name.replace(/^'([^'\s]+)'$/, '$1');
  return { name, variadic };
}

interface UsageGroup {
  bracket: '[' | '(';
  /** The group's first element is an option: what follows belongs to that option (`[-o FILE]`). */
  startsWithOption: boolean;
  hasPipe: boolean;
  hasOption: boolean;
  empty: boolean;
  /** The enclosing group had nothing before this group (`[(-c | -C) <commit>]`). */
  parentWasEmpty: boolean;
  /** How many positionals were known when the group opened. */
  positionalStart: number;
  /** Positionals in the group written as bare lower-case words (`[requirement specifier]`). */
  bareWords: number;
  nested: boolean;
  /** Where the current alternative (after the last `|`) began in the positionals, and whether it has an option. */
  alternativeStart: number;
  alternativeHasOption: boolean;
  /**
   * Positionals of alternatives without any option (`scriptfile` in `[-m module | scriptfile]`):
   * they survive a group whose other alternatives are options.
   */
  bareAlternatives: UsagePositional[];
  /** The group opened right after a positional (`Module [...]`: an ellipsis alone in it repeats that one). */
  afterPositional?: boolean;
  /** An option in the group has its value glued on (`[-t<type>]`): no word after the group is its value. */
  gluedValue?: boolean;
}

/** Ends the current alternative of a group (at a `|` or the closing bracket). */
function endAlternative(group: UsageGroup, positionals: readonly UsagePositional[]): void {
  if (!group.alternativeHasOption) group.bareAlternatives.push(...positionals.slice(group.alternativeStart));
  group.alternativeStart = positionals.length;
  group.alternativeHasOption = false;
}

/**
 * ack `[FILES OR DIRECTORIES]`: two placeholders in capitals joined by the word `OR` are one
 * argument spelled in prose; alternatives both in the plural name several values.
 */
function spelledAlternatives(words: readonly UsagePositional[]): boolean {
  const [first, or, second] = words;
  return /^OR$/.test(or?.name ?? '') && [first, second].every((word) => word !== undefined && /^[A-Z][A-Z0-9_-]{0,30}$/.test(word.name));
}

/**
 * Settles a closed group: a group that starts with an option makes an enclosing group that began
 * with it option-led too; alternatives (`[FILE|DIR ...]`, `[<commit> | <object>]`) become ONE
 * positional named `a|b`, or none when an alternative is an option (`(-l <zipfile> | -e …)`).
 */
function closeGroup(closed: UsageGroup, parent: UsageGroup | undefined, positionals: UsagePositional[], bareOutside: boolean): void {
  // …unless its option has its value already (iucode_tool `[[-t<type>] filename] ...`: `filename` is a positional)
  if (parent && closed.startsWithOption && closed.parentWasEmpty && closed.gluedValue !== true) parent.startsWithOption = true;
  if (parent) parent.nested = true;
  const added = positionals.length - closed.positionalStart;
  // …unless the form already names positionals with bare words (Go `binary [start end]`: two)
  // (…though one ellipsis closing the bracket repeats its whole phrase: cobra `hook-name [git args...]`)
  const phraseRepeated = positionals[positionals.length - 1]?.variadic === true && positionals.slice(closed.positionalStart, -1).every((word) => !word.variadic);
  if ((!bareOutside || phraseRepeated) && !closed.hasPipe && !closed.hasOption && !closed.nested && added >= 2 && added <= 4 && closed.bareWords === added) {
    // pip `[requirement specifier]`, `[config dir]`: one positional whose name has spaces
    const words = positionals.splice(closed.positionalStart);
    positionals.push({ name: words.map((word) => word.name).join(' '), required: closed.bracket !== '[', variadic: words.some((word) => word.variadic) });
    return;
  }
  if (!closed.hasPipe && !closed.hasOption && !closed.nested && added === 3 && spelledAlternatives(positionals.slice(closed.positionalStart))) {
    const words = positionals.splice(closed.positionalStart);
    const plural = words.filter((_, index) => index !== 1).every((word) => /^[A-Z][A-Z0-9_-]*[^SU_-]S$/.test(word.name));
    positionals.push({ name: words.map((word) => word.name).join(' '), required: closed.bracket !== '[', variadic: plural || words.some((word) => word.variadic) });
    return;
  }
  if (!closed.hasPipe) return;
  endAlternative(closed, positionals);
  let alternatives = positionals.splice(closed.positionalStart);
  // `[-m module | scriptfile]`: the option alternatives name no positional, the bare ones do
  if (closed.hasOption) alternatives = closed.bareAlternatives;
  if (alternatives.length === 0) return;
  const first = alternatives[0];
  if (first === undefined) return;
  positionals.push({
    name: alternatives.map((alternative) => alternative.name).join('|'),
    // (an option may fill the slot instead: `{INPUT...|--file <FILE>}` needs no INPUT)
    required: first.required && !closed.hasOption,
    variadic: alternatives.some((alternative) => alternative.variadic),
  });
}

/** pngquant `[ncolors]`, `nbytes`, `num_files`: C's `n`/`num_` prefix names a count of the things, one number. */
const COUNT_NAME = /^(?:n[b-df-hj-np-tv-xz]|num[_-]|number[_-]of[_-])/;

const COMMAND_WORD = /^[a-z][a-z0-9-]{0,40}$/;

/** Index after the subcommand path that follows the program (1 when there is none). */
function commandPathEnd(atoms: readonly Atom[], prompted = false): number {
  let end = 1;
  while (end < atoms.length && end <= 4) {
    const atom = atoms[end];
    if (atom?.kind !== 'word' || !COMMAND_WORD.test(atom.text)) break;
    end += 1;
  }
  if (end === 1) return 1;
  const next = atoms[end];
  // …or by a `<placeholder>` (`gum spin <command> ...`), or a `kind:part` pattern naming a value (cobra `rclone serve http remote:path [flags]`)
  const accepted =
    next === undefined ||
    (next.kind === 'open' && next.bracket === '[') ||
    (next.kind === 'word' && (next.text.startsWith('-') || /^<[^>]+>/.test(next.text) || /^[a-z][\w-]{0,30}:[a-z][\w-]{0,30}$/.test(next.text))) ||
    // (round 18: Miller `mlr sort {flags}`: a brace placeholder is a placeholder as `<flags>` is)
    (next.kind === 'word' && /^\{[A-Za-z][\w -]{0,30}\}/.test(next.text)) ||
    // cobra `crane pull IMAGE TARBALL [flags]`: lower-case words before an upper-case placeholder are literals
    // (round 17: oclif `$ artillery run SCRIPT... [-t <value>]`: a variadic one too)
    (next.kind === 'word' && /^[A-Z][A-Z0-9_]{1,30}(?:\.{3})?$/.test(next.text)) ||
    // clipanion `$ yarn add ...`, `$ napi build ...`: a prompted form ending in a lone ellipsis (its options)
    (prompted && next.kind === 'ellipsis' && end === atoms.length - 1);
  return accepted ? end : 1;
}

/**
 * The form's atoms, after the spellings that look like groups but are not are taken out:
 * `rustup[EXE]` (clap), `--[no-]status` (git); urfave/cli `[global options]`, `[command options]`,
 * gawk `[POSIX or GNU style options]` (the options placeholder in several words, the last `options`); meow `<source …>` (a typographic ellipsis is `...`);
 * GNU od `[[+]OFFSET[.][b]]` (one- or two-character brackets glued to a name are its prefix and suffixes).
 */
/**
 * gopls `filename[:line[:col]]`, `host[:port]`: a bracket glued to a name that opens with a
 * separator is an optional suffix of that one argument (nested ones included), not a positional.
 */
function withoutGluedSuffixes(form: string): string {
  let text = form;
  for (let guard = 0; guard < 20; guard += 1) {
    // (oras `<name>{:<tag>|@<digest>}`: a brace group glued on the same way holds the suffix's alternatives)
    const start = /(?<=[A-Za-z0-9_>])[[{](?=[:.,@=\/#])/.exec(text);
    if (start === null) return text;
    const token = /\S*$/.exec(text.slice(0, start.index))?.[0] ?? '';
    if (token.startsWith('-') || token.startsWith('[-')) return text;
    const [open, close] = start[0] === '{' ? ['{', '}'] : ['[', ']'];
    let depth = 0;
    let end = -1;
    for (let position = start.index; position < text.length && position < start.index + 200; position += 1) {
      if (text[position] === open) depth += 1;
      if (text[position] === close) depth -= 1;
      if (depth === 0) {
        end = position;
        break;
      }
    }
    if (end === -1) return text;
    text = `${text.slice(0, start.index)}${text.slice(end + 1)}`;
  }
  return text;
}

/**
 * cspell `[globs...] [file://<path> ...] [stdin[://<path>]]`: optional groups spelling an argument
 * as a URL (`scheme://…`, maybe with the `://…` part optional) are forms of a value the arguments
 * take, not positionals of their own.
 */
function withoutUrlForms(form: string): string {
  // `(?<!\s)`: a match starts where its whitespace run does, so starts inside a run are skipped (ReDoS)
  return form.replace(/(?<!\s)\s*\[\s*[a-z][\w+.-]{0,20}\[?:\/\/[^\s\]]{0,100}\]?(?:\s*\.{3})?\s*\]/g, '');
}

/**
 * optparse futurize `futurize [options] file|dir ...`: bare words joined by `|` outside any bracket
 * are one argument of either kind, as `(file|dir)` would be (inside brackets `[FILE|DIR ...]` already is).
 */
function groupedBareAlternatives(form: string): string {
  return form.replace(/(^|\s)([A-Za-z][\w-]{0,30}(?:\|[A-Za-z][\w-]{0,30}){1,5})(?=\s|$)/g, (whole: string, space: string, words: string, offset: number) =>
    bracketDepthOf(form.slice(0, offset)) === 0 && offset > 0 ? `${space}(${words})` : whole,
  );
}

/**
 * oclif mockoon `[--proxy enabled|disabled]`: an option and words joined by bars closing one bracket
 * group are the option's values, one of which it takes; no argument of their own.
 */
function optionValueAlternatives(form: string): string {
  return form.replace(/\[(-{1,2}[A-Za-z][\w-]{0,40}) ([a-z][\w-]{0,30}(?:\|[a-z][\w-]{0,30}){1,10})\]/g, '[$1 <$2>]');
}

/**
 * urfave/cli prints a command that has subcommands as `mender-artifact write rootfs-image command
 * [command options] [arguments...]`: the bare `command` before `[command options]` stands for a
 * subcommand to come, never for one more word of the command path (nor a positional, as in its
 * root form `prog [global options] command [command options]`).
 */
function withoutUrfaveCommandWord(form: string): string {
  return form.replace(/(?<=\S)\s+command(?=\s+\[command options\])/, '');
}

/**
 * getopts (please) `please [arguments] </path/to/executable>`: right after the program, in a form that
 * names no options placeholder, a bracketed `[arguments]` before more positionals stands for the
 * options (an argument list in the usual sense closes the form: ruby `[programfile] [arguments]`).
 */
function withArgumentsAsOptions(form: string): string {
  if (/\[(?:options?|flags?|switches|opts)\]/i.test(form)) return form;
  return form.replace(/^(\S+\s+)\[(?:arguments|args)\](?=\s+[<A-Za-z[])/i, '$1[options]');
}

/**
 * terraform `terraform [global options] fmt [options] [target...]`: options called global before a
 * word and an options placeholder of its own after it make the word the subcommand the help is of;
 * written as gopls writes it (`[fmt-options]`), the Go multi-command reading names the path.
 */
function withGlobalOptionsCommand(form: string): string {
  return form.replace(/^(\S+\s+\[global[ _-]?options?\]\s+)([a-z][a-z0-9-]{0,40})(\s+\[)(options?)(?=\])/i, '$1$2$3$2-$4');
}

/**
 * ab `[http[s]://]hostname[:port]/path`: an optional URL scheme glued before a name is a prefix of that
 * one argument (as a glued `[:port]` is its suffix), not an argument of its own.
 */
function withoutGluedSchemes(form: string): string {
  return form.replace(/(^|\s)\[[a-z]{2,10}(?:\[s\])?:\/\/\](?=[A-Za-z<])/g, '$1');
}

function normalizedAtoms(form: string): Atom[] {
  const plain = withoutGluedSuffixes(withoutGluedSchemes(withoutUrlForms(optionValueAlternatives(withArgumentsAsOptions(withGlobalOptionsCommand(form))))))
    .replace(/\s?…/g, '...')
    // binutils `[option(s)] [file(s)]`: a plural `(s)` says the argument repeats (genhtml `INFOFILE(S)`: in capitals too)
    .replace(/(?<=[A-Za-z])\((?:s|S)\)(?=[\]>\s]|$)/g, '...')
    // cmark `[FILE*]`: a Kleene star closing a name says the same (zero or more)
    .replace(/(?<=[A-Za-z])\*(?=[\]>\s]|$)/g, '...')
    .replace(/(?<=[A-Z0-9_]\]?)(?:\[[^[\]\s]{1,2}\])+/g, '')
    .replace(/\[[^[\]\s]{1,2}\](?=\[?[A-Z])/g, '');
  return atomsOf(groupedBareAlternatives(withoutUrfaveCommandWord(plain)).replace(/\[EXE\]/g, '').replace(/--\[no-?\]/g, '--').replace(/\[(?:[A-Za-z][\w-]{0,20} ){1,5}options\]/gi, '[options]'));
}

/**
 * cobra names the command a help is of (`help for run`): in `lefthook run hook-name [git args...]`
 * the path ends at that word, and the lower-case words after it are arguments, not subcommands.
 * Undefined when the form's leading words do not hold the name.
 */
function namedCommandPathEnd(atoms: readonly Atom[], commandName: string | undefined): number | undefined {
  if (commandName === undefined) return undefined;
  for (let index = 1; index < atoms.length && index <= 4; index += 1) {
    const atom = atoms[index];
    if (atom?.kind !== 'word' || !COMMAND_WORD.test(atom.text)) return undefined;
    if (atom.text === commandName) return index + 1;
  }
  return undefined;
}

/** oclif `$ apollo client:codegen [OUTPUT]`: a command inside a topic, spelled `topic:command`. */
const OCLIF_TOPIC_COMMAND = /^[a-z][\w-]{0,40}(?::[a-z][\w-]{0,40}){1,3}$/;

/**
 * Reads the program (and the subcommand path after it) off the front of the atoms, leaving the
 * program as the first atom. False when the form starts with no program word.
 */
function readProgram(atoms: Atom[], result: UsageForm, commandName?: string): boolean {
  const prompted = atoms[0]?.kind === 'word' && atoms[0].text === '$';
  if (prompted) atoms.shift(); // cac: `$ vitest [...filters]`
  const first = atoms[0];
  if (first === undefined || first.kind !== 'word' || first.text.startsWith('-')) return false;
  result.program = first.text;
  const topic = atoms[1];
  // (yargs typeorm `typeorm migration:generate <path>`: unprompted too, when more of the form follows)
  if ((prompted || atoms.length > 2) && topic?.kind === 'word' && OCLIF_TOPIC_COMMAND.test(topic.text)) {
    result.commandPath = [topic.text];
    atoms.splice(1, 1);
    return true;
  }
  // cobra's `-h, --help   help for stern` names the command this help is of: when that is the
  // program itself, `stern pod-query [flags]` shows an argument, not a subcommand path
  // …and when it is a subcommand, its name ends the path: `lefthook run hook-name [git args...]` (help for run)
  const pathEnd = commandName !== undefined && programBaseName(first.text) === commandName ? 1 : (namedCommandPathEnd(atoms, commandName) ?? commandPathEnd(atoms, prompted));
  // `python -m json.tool [-h] …`: the module is the program.
  const moduleAtom = atoms[2];
  if (/^python[\d.]*$/.test(first.text) && atoms[1]?.kind === 'word' && atoms[1].text === '-m' && moduleAtom?.kind === 'word') {
    result.program = moduleAtom.text;
    atoms.splice(1, 2);
  } else if (SCRIPT_RUNTIME.test(first.text) && atoms[1]?.kind === 'word' && SCRIPT_NAME.test(atoms[1].text)) {
    // yargs prints `$0` as `node gltf-pipeline` when run through node: the script is the program
    result.program = atoms[1].text;
    atoms.splice(1, 1);
  } else if (pathEnd > 1) {
    result.commandPath = atoms.slice(1, pathEnd).map((atom) => (atom.kind === 'word' ? atom.text : ''));
    atoms.splice(1, pathEnd - 1);
  } else {
    // Go multi-command tools: `gopls [flags] codeaction [codeaction-flags] filename`: a word between
    // the program's flags and a flags placeholder named for it is the subcommand
    const word = atoms[4];
    const own = atoms[6];
    const wordText = word?.kind === 'word' ? word.text : '';
    if (
      atoms[1]?.kind === 'open' && atoms[2]?.kind === 'word' && PLACEHOLDER_WORDS.test(atoms[2].text) && atoms[3]?.kind === 'close' &&
      COMMAND_WORD.test(wordText) && atoms[5]?.kind === 'open' && own?.kind === 'word' && new RegExp(`^${wordText}-(?:flags|options)$`, 'i').test(own.text)
    ) {
      result.commandPath = [wordText];
      atoms.splice(4, 1);
    }
  }
  return true;
}

/** A runtime that runs a script named after it (`node gltf-pipeline`, `deno x.ts`, `python timeit.py`). */
const SCRIPT_RUNTIME = /^(?:node|nodejs|deno|bun|python[\d.]*)$/;
/** A script's name: a lower-case word, maybe with a file extension, not an option or placeholder. */
const SCRIPT_NAME = /^[a-z][\w.-]{0,63}$/;

/** What a walk over the form's atoms after the program knows; the passes below advance it atom by atom. */
interface FormScan {
  readonly result: UsageForm;
  readonly takesValue: (flag: string) => boolean;
  /** The groups open at this point, innermost last. */
  readonly groups: UsageGroup[];
  /** argparse prints `[-h]`, and its REMAINDER as a spaced `...`. */
  readonly argparseStyle: boolean;
  previousOptionTakesValue: boolean;
  sawNonLiteral: boolean;
  /** The form wrote a placeholder for its options (`[options]`), not the options themselves. */
  sawOptionsPlaceholder?: boolean;
  lastWasPositional: boolean;
  /** A bare lower-case word was a positional outside any bracket. */
  bareOutside: boolean;
  /** The option last read outside any bracket, while nothing came after it. */
  lastTopLevelOption: string | null;
  /** util-linux losetup `-f | <loopdev> <file>`: a bare `|` right after a required option, waiting for what follows. */
  topLevelPipeAfter: string | null;
  /** The form went on as an alternative to a required option: its positionals from here on are optional. */
  topLevelAlternative: boolean;
}

/** Reads one atom after the program. */
function readAtom(scan: FormScan, atom: Atom): void {
  if (atom.kind === 'open') openGroup(scan, atom.bracket);
  else if (atom.kind === 'close') closeInnermostGroup(scan);
  else if (atom.kind === 'pipe') readPipe(scan);
  else if (atom.kind === 'ellipsis') readEllipsis(scan, atom.spaced);
  else readWord(scan, atom.text);
}

/** An opening bracket: a new group, which makes its parent non-empty. */
function openGroup(scan: FormScan, bracket: '[' | '('): void {
  const { groups, result } = scan;
  const group = groups[groups.length - 1];
  const parentWasEmpty = group?.empty ?? false;
  const afterPositional = scan.lastWasPositional;
  scan.lastWasPositional = false;
  if (group) group.empty = false;
  groups.push({ bracket, startsWithOption: false, hasPipe: false, hasOption: false, empty: true, parentWasEmpty, positionalStart: result.positionals.length, bareWords: 0, nested: false, alternativeStart: result.positionals.length, alternativeHasOption: false, bareAlternatives: [], afterPositional });
  scan.previousOptionTakesValue = false;
  scan.sawNonLiteral = true;
}

/** A closing bracket: the innermost group is settled (see `closeGroup`). */
function closeInnermostGroup(scan: FormScan): void {
  const { groups } = scan;
  const closed = groups.pop();
  if (closed) closeGroup(closed, groups[groups.length - 1], scan.result.positionals, scan.bareOutside);
  scan.previousOptionTakesValue = false;
}

/** A `|`: the innermost group's current alternative ends. */
function readPipe(scan: FormScan): void {
  const { groups } = scan;
  const group = groups[groups.length - 1];
  scan.topLevelPipeAfter = group === undefined ? scan.lastTopLevelOption : null;
  if (group) {
    group.hasPipe = true;
    endAlternative(group, scan.result.positionals);
    // the next alternative is read on its own: `scriptfile` after `-m module |` is no option value
    if (group.startsWithOption && !groups.slice(0, -1).some((open) => open.startsWithOption)) {
      group.startsWithOption = false;
      group.empty = true;
    }
  }
  scan.previousOptionTakesValue = false;
}

/**
 * An ellipsis: argparse's spaced REMAINDER `...` is a positional of its own; otherwise it makes
 * the positional just read variadic (a group-level ellipsis after `[FILE]` marks FILE).
 */
function readEllipsis(scan: FormScan, spaced: boolean): void {
  const { positionals } = scan.result;
  if (spaced && scan.argparseStyle) {
    positionals.push({ name: REMAINDER, required: false, variadic: true });
    scan.lastWasPositional = false;
    return;
  }
  const last = positionals[positionals.length - 1];
  if (last && scan.lastWasPositional) last.variadic = true;
  // cpanm `Module [...]`: an ellipsis alone in a group right after a positional repeats it
  const group = scan.groups[scan.groups.length - 1];
  if (last && group?.empty === true && group.afterPositional === true && group.positionalStart === positionals.length) last.variadic = true;
}

/**
 * A word: an option spelling, the value of the option before it, a placeholder for options
 * (`[options]`), or a positional. Words inside a group led by an option belong to that option.
 */
function readWord(scan: FormScan, text: string): void {
  const { groups } = scan;
  const group = groups[groups.length - 1];
  const afterPositional = scan.lastWasPositional;
  scan.lastWasPositional = false;
  const wasEmpty = group?.empty ?? false;
  if (group) group.empty = false;
  if (text.startsWith('-') && text.length > 1) {
    readOptionWord(scan, text, group, wasEmpty);
    return;
  }
  scan.lastTopLevelOption = null;
  if (scan.previousOptionTakesValue) {
    scan.previousOptionTakesValue = false;
    return;
  }
  if (groups.some((open) => open.startsWithOption)) return;
  // gotestsum `[go test flags]`: a placeholder word closing a bracket of bare words is the last word of one multi-word name
  const namesWords = group !== undefined && !wasEmpty && afterPositional && group.bareWords > 0 && /^[a-z]+$/.test(text);
  // (jsonnet `{<option>}`: braces repeating a bracketed placeholder)
  if (!namesWords && (text === '-' || PLACEHOLDER_WORDS.test(text.replace(/\.{2,3}$/, '').replace(/^[<{]{1,2}|[>}]{1,2}$/g, '')))) {
    scan.sawNonLiteral = true;
    if (text !== '-') scan.sawOptionsPlaceholder = true;
    return;
  }
  readPositionalWord(scan, text, group);
}

/** An option spelling: it marks the open groups as holding an option, and outside any group is required. */
function readOptionWord(scan: FormScan, text: string, group: UsageGroup | undefined, wasEmpty: boolean): void {
  if (text === '--') return;
  if (group && wasEmpty) group.startsWithOption = true;
  for (const open of scan.groups) {
    open.hasOption = true;
    open.alternativeHasOption = true;
  }
  const spelling = text.replace(/[=[<].*$/, '');
  if (group && /^-{1,2}[^=<[\s]+[=<]\S/.test(text)) group.gluedValue = true;
  if (scan.groups.length === 0) scan.result.requiredOptions.push(spelling);
  // gocryptfs `-init|-passwd|-info`: options on both sides of a bare `|` stay as they are
  scan.topLevelPipeAfter = null;
  scan.lastTopLevelOption = scan.groups.length === 0 ? spelling : null;
  scan.previousOptionTakesValue = !text.includes('=') && scan.takesValue(spelling);
  scan.sawNonLiteral = true;
}

/**
 * axel `url1 [url2] [url...]`, inotifywait `file1 [ file2 ] [ file3 ] [ ... ]`: a numbered series
 * going on past its second member (a third number, or the bare name repeated) is one repeated
 * argument named by the stem, as required as its first member. Two numbered names alone stay two
 * arguments (`FILE1 FILE2`, tr `STRING1 [STRING2]`). Returns whether `name` was folded in.
 */
function foldNumberedSeries(positionals: UsagePositional[], name: string, variadic: boolean): boolean {
  const first = positionals[positionals.length - 2];
  const second = positionals[positionals.length - 1];
  const stem = /^([A-Za-z][\w-]{0,40}?)1$/.exec(first?.name ?? '')?.[1];
  if (first === undefined || second === undefined || stem === undefined || second.name !== `${stem}2`) return false;
  if (name !== `${stem}3` && !(name === stem && variadic)) return false;
  positionals.pop();
  first.name = stem;
  first.variadic = true;
  return true;
}

/**
 * A positional word: required unless inside `[…]`; a name repeated right after itself
 * (argparse `ENV_DIR [ENV_DIR ...]`) makes the first one variadic. Bare lower-case words before
 * anything else are also the form's leading literals (docopt commands).
 */
function readPositionalWord(scan: FormScan, text: string, group: UsageGroup | undefined): void {
  const { groups, result } = scan;
  if (scan.topLevelPipeAfter !== null && groups.length === 0) {
    // losetup `-f | <loopdev> <file>`: the option or the positionals, so neither is required
    const option = scan.topLevelPipeAfter;
    result.requiredOptions = result.requiredOptions.filter((spelling) => spelling !== option);
    scan.topLevelAlternative = true;
    scan.topLevelPipeAfter = null;
  }
  if (!scan.sawNonLiteral && groups.length === 0 && /^[a-z][a-z0-9_-]*$/.test(text)) {
    result.leadingLiterals.push(text);
  }
  const { name, variadic } = positionalName(text);
  if (name.length === 0 || !/[A-Za-z0-9]/.test(name)) return;
  if (foldNumberedSeries(result.positionals, name, variadic)) {
    scan.lastWasPositional = true;
    return;
  }
  const previous = result.positionals[result.positionals.length - 1];
  // (socat `<bi-address> <bi-address>`: written twice, required, with no ellipsis, it is two arguments)
  const twiceExactly = !variadic && !groups.some((open) => open.bracket === '[') && previous?.required === true && !previous.variadic;
  if (previous !== undefined && previous.name === name && !twiceExactly) {
    previous.variadic = true;
    scan.lastWasPositional = true;
    return;
  }
  const optional = groups.some((open) => open.bracket === '[');
  // …`[git args...]` too: the ellipsis closing the last word repeats the whole name
  if (group && /^[a-z][a-z0-9_-]*(?:\.{3})?$/.test(text)) group.bareWords += 1;
  if (groups.length === 0 && /^[a-z][a-z0-9_-]*$/.test(text)) scan.bareOutside = true;
  // staticcheck `[packages]`, `<files>`: a lower-case noun in the plural names several values (GNU's
  // upper-case `PATTERNS` may be one argument holding several, so only the lower-case English word counts)
  // (gulp `gulp [options] tasks`: a bare word after the options placeholder, no command word, counts
  // too; argparse's `pipcheck [-h] [-i PKG] requirements` spells its options and names one file)
  const plural = (group !== undefined || /^</.test(text) || (scan.sawOptionsPlaceholder === true && groups.length === 0)) && /^[a-z][a-z0-9_-]*[^suis_-]s$/.test(name) && !COUNT_NAME.test(name);
  result.positionals.push({ name, required: !optional && !scan.topLevelAlternative, variadic: variadic || plural });
  scan.lastWasPositional = true;
}

/**
 * Parses one usage form (the text after `Usage:`), e.g. `prog [-h] --host HOST [FILE]... <dest>`.
 * `takesValue` says whether an option spelling consumes the following word.
 */
/**
 * busybox sort prints `[-k START[.OFS][OPTS][,END[.OFS][OPTS]] [-t CHAR] [FILE]...`: one `]` short,
 * so every later word would sit in `-k`'s group. In a form with more `[` than `]`, an option group
 * (`[-k`) still open after its value word, when the next word opens a group of its own, is closed
 * there (an option's group holds the option and its value).
 */
function bracketDepthOf(text: string): number {
  return (text.match(/\[/g) ?? []).length - (text.match(/\]/g) ?? []).length;
}

function closeUnbalancedOptionGroups(form: string): string {
  let missing = bracketDepthOf(form);
  if (missing <= 0) return form;
  const words = form.split(/\s+/);
  for (let index = 0; index + 2 < words.length && missing > 0; index += 1) {
    const value = words[index + 1] ?? '';
    const opensOwnGroup = /^\[-/.test(words[index] ?? '') && bracketDepthOf(words[index] ?? '') === 1;
    if (opensOwnGroup && !value.startsWith('-') && bracketDepthOf(value) === 0 && (words[index + 2] ?? '').startsWith('[')) {
      words[index + 1] = `${value}]`;
      missing -= 1;
    }
  }
  return words.join(' ');
}

/**
 * yargs `lt --port [num] <options>`: a long option written outside any bracket is required, and a
 * required option that takes a value (as its entry says) is followed by that value: one bracketed
 * word right after it is the value (`--port=num`), not a positional (`--verbose [file]`, a flag, keeps
 * its positional).
 */
function attachValuesOfRequiredOptions(form: string, takesValue: (flag: string) => boolean): string {
  return form.replace(/(^|\s)(--[A-Za-z][\w-]{0,40}) \[([a-z][\w-]{0,30})\](?=\s|$)/g, (whole: string, space: string, option: string, value: string, offset: number) =>
    bracketDepthOf(form.slice(0, offset)) === 0 && takesValue(option) ? `${space}${option}=${value}` : whole,
  );
}

/** `commandName`: the command the help says it is of (cobra `help for stern`), when it says so. */
/** Pod::Usage `[-(no)warnings]`: an optional `no` prefix in parentheses is part of the flag's spelling. */
const OPTIONAL_NO_PREFIX = /(^|[\s[|(])(--?)\((no-?)\)(?=[A-Za-z])/g;

/**
 * streamzip `producer | streamzip [OPTIONS] | consumer`: a form written as a shell pipeline. A `|`
 * right after the first word is no alternative (a program name has none): that word feeds the
 * program, which is the next word; a `| word` closing such a form is the stage it feeds. Other
 * forms come back as they are.
 */
function pipelineStage(form: string): string {
  // fxparser `$ cat xmlfile.xml | fxparser [-ns|-a] [-o outputfile.json]`: a prompt line's producer may take plain words of its own
  // (meow gzip-size `$ cat <file> | gzip-size`: or a placeholder)
  const fed = /^\s*[A-Za-z][\w.-]{0,40} \| (?=[A-Za-z.\/])(.*)$/.exec(form) ?? /^\s*\$ [a-z][\w.-]{0,40}(?: (?:[a-z0-9.\/~][\w.\/~-]{0,80}|<[\w.-]{1,40}>)){0,3} \| (?=[a-z])(.*)$/.exec(form);
  if (fed === null) return form;
  return (fed[1] ?? '').replace(/ \| [A-Za-z][\w.-]{0,40}\s*$/, '');
}

/**
 * doctoc `… <path> (where path is some path to a directory (e.g., .) or a file (e.g., README.md))`: a
 * parenthesis closing the form that reads as a sentence (four or more words, two of them words of
 * prose, no option spelling) comments on the form; its words are no arguments.
 */
function withoutClosingComment(form: string): string {
  // `(?<!\s)`: a match starts where its whitespace run does, so starts inside a run are skipped (ReDoS)
  const comment = /(?<!\s)\s+\(((?:[^()]|\([^()]{0,80}\)){1,300})\)\s*$/.exec(form);
  if (comment === null) return form;
  const words = (comment[1] ?? '').split(/\s+/).filter((word) => word.length > 0);
  const prose = words.filter((word) => /^(?:is|are|the|an?|to|from|of|for|and|or|with|by|as|in|on|this|that|where|when|some)$/i.test(word));
  if (words.length < 4 || prose.length < 2 || words.some((word) => /^\[?--?[A-Za-z]/.test(word))) return form;
  return form.slice(0, comment.index);
}

export function parseUsageForm(form: string, takesValue: (flag: string) => boolean, commandName?: string): UsageForm {
  const spelled = pipelineStage(withoutClosingComment(form)).replace(OPTIONAL_NO_PREFIX, '$1$2');
  const atoms = normalizedAtoms(attachValuesOfRequiredOptions(closeUnbalancedOptionGroups(spelled), takesValue));
  const result: UsageForm = { program: null, leadingLiterals: [], commandPath: [], positionals: [], requiredOptions: [] };
  // bpaf `Usage: [-c=<./.oxlintrc.json>] [PATH]...`: a form that opens with a bracket group names no
  // program, but its positionals are there all the same
  const unnamed = atoms[0]?.kind === 'open';
  if (!unnamed && !readProgram(atoms, result, commandName)) return result;
  const scan: FormScan = {
    result,
    takesValue,
    groups: [],
    argparseStyle: /\[-h\]/.test(form),
    previousOptionTakesValue: false,
    sawNonLiteral: false,
    lastWasPositional: false,
    bareOutside: false,
    lastTopLevelOption: null,
    topLevelPipeAfter: null,
    topLevelAlternative: false,
  };
  for (let index = unnamed ? 0 : 1; index < atoms.length; index += 1) {
    const atom = atoms[index];
    if (atom === undefined) break;
    readAtom(scan, atom);
  }
  return result;
}

/** The program's base name from a usage word such as `/usr/bin/ls` or `notes.py`. */
export function programBaseName(word: string): string {
  const base = (word.split(/[\\/]/).pop() ?? word).replace(/\[EXE\]$/, '');
  return base.replace(/\.(py|js|mjs|cjs|ts|rb|sh|pl|exe|wasm)$/i, '');
}
