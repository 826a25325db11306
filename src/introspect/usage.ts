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

function atomsOf(form: string): Atom[] {
  const atoms: Atom[] = [];
  let position = 0;
  while (position < form.length && atoms.length < MAX_USAGE_ATOMS) {
    const character = form[position] ?? '';
    if (character === ' ' || character === '\t' || character === ',') {
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
      while (end < form.length && (!' \t[]()|,'.includes(form[end] ?? ' ') || joinsName(end)) && end - position < 120) end += 1;
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

const PLACEHOLDER_WORDS = /^(options?|flags?|global[ _-]?options?|opts|switches|command options?|general options?)$/i;

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
}

/** Ends the current alternative of a group (at a `|` or the closing bracket). */
function endAlternative(group: UsageGroup, positionals: readonly UsagePositional[]): void {
  if (!group.alternativeHasOption) group.bareAlternatives.push(...positionals.slice(group.alternativeStart));
  group.alternativeStart = positionals.length;
  group.alternativeHasOption = false;
}

/**
 * Settles a closed group: a group that starts with an option makes an enclosing group that began
 * with it option-led too; alternatives (`[FILE|DIR ...]`, `[<commit> | <object>]`) become ONE
 * positional named `a|b`, or none when an alternative is an option (`(-l <zipfile> | -e …)`).
 */
function closeGroup(closed: UsageGroup, parent: UsageGroup | undefined, positionals: UsagePositional[], bareOutside: boolean): void {
  if (parent && closed.startsWithOption && closed.parentWasEmpty) parent.startsWithOption = true;
  if (parent) parent.nested = true;
  const added = positionals.length - closed.positionalStart;
  // …unless the form already names positionals with bare words (Go `binary [start end]`: two)
  if (!bareOutside && !closed.hasPipe && !closed.hasOption && !closed.nested && added >= 2 && added <= 4 && closed.bareWords === added) {
    // pip `[requirement specifier]`, `[config dir]`: one positional whose name has spaces
    const words = positionals.splice(closed.positionalStart);
    positionals.push({ name: words.map((word) => word.name).join(' '), required: closed.bracket !== '[', variadic: words.some((word) => word.variadic) });
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
    required: first.required,
    variadic: alternatives.some((alternative) => alternative.variadic),
  });
}

const COMMAND_WORD = /^[a-z][a-z0-9-]{0,40}$/;

/** Index after the subcommand path that follows the program (1 when there is none). */
function commandPathEnd(atoms: readonly Atom[]): number {
  let end = 1;
  while (end < atoms.length && end <= 4) {
    const atom = atoms[end];
    if (atom?.kind !== 'word' || !COMMAND_WORD.test(atom.text)) break;
    end += 1;
  }
  if (end === 1) return 1;
  const next = atoms[end];
  // …or by a `<placeholder>` (`gum spin <command> ...`)
  const accepted = next === undefined || (next.kind === 'open' && next.bracket === '[') || (next.kind === 'word' && (next.text.startsWith('-') || /^<[^>]+>/.test(next.text)));
  return accepted ? end : 1;
}

/**
 * Parses one usage form (the text after `Usage:`), e.g. `prog [-h] --host HOST [FILE]... <dest>`.
 * `takesValue` says whether an option spelling consumes the following word.
 */
export function parseUsageForm(form: string, takesValue: (flag: string) => boolean): UsageForm {
  // `rustup[EXE]` (clap), `--[no-]status` (git): spellings, not groups
  // urfave/cli `[global options]`, `[command options]`: the options placeholder in two words
  // meow: `<source …>`: a typographic ellipsis is `...`
  // GNU od: `[[+]OFFSET[.][b]]`: one- or two-character brackets glued to a name are its prefix and suffixes
  const plain = form
    .replace(/\s?…/g, '...')
    .replace(/(?<=[A-Z0-9_]\]?)(?:\[[^[\]\s]{1,2}\])+/g, '')
    .replace(/\[[^[\]\s]{1,2}\](?=\[?[A-Z])/g, '');
  const atoms = atomsOf(plain.replace(/\[EXE\]/g, '').replace(/--\[no-?\]/g, '--').replace(/\[(global|command|general) options\]/gi, '[options]'));
  const result: UsageForm = { program: null, leadingLiterals: [], commandPath: [], positionals: [], requiredOptions: [] };
  if (atoms[0]?.kind === 'word' && atoms[0].text === '$') atoms.shift(); // cac: `$ vitest [...filters]`
  const first = atoms[0];
  if (first === undefined || first.kind !== 'word' || first.text.startsWith('-')) return result;
  result.program = first.text;
  const pathEnd = commandPathEnd(atoms);
  // `python -m json.tool [-h] …`: the module is the program.
  const moduleAtom = atoms[2];
  if (/^python[\d.]*$/.test(first.text) && atoms[1]?.kind === 'word' && atoms[1].text === '-m' && moduleAtom?.kind === 'word') {
    result.program = moduleAtom.text;
    atoms.splice(1, 2);
  } else if (pathEnd > 1) {
    result.commandPath = atoms.slice(1, pathEnd).map((atom) => (atom.kind === 'word' ? atom.text : ''));
    atoms.splice(1, pathEnd - 1);
  }
  const groups: UsageGroup[] = [];
  const argparseStyle = /\[-h\]/.test(form);
  let previousOptionTakesValue = false;
  let sawNonLiteral = false;
  let lastWasPositional = false;
  /** A bare lower-case word was a positional outside any bracket. */
  let bareOutside = false;
  for (let index = 1; index < atoms.length; index += 1) {
    const atom = atoms[index];
    if (atom === undefined) break;
    const group = groups[groups.length - 1];
    if (atom.kind === 'open') {
      lastWasPositional = false;
      const parentWasEmpty = group?.empty ?? false;
      if (group) group.empty = false;
      groups.push({ bracket: atom.bracket, startsWithOption: false, hasPipe: false, hasOption: false, empty: true, parentWasEmpty, positionalStart: result.positionals.length, bareWords: 0, nested: false, alternativeStart: result.positionals.length, alternativeHasOption: false, bareAlternatives: [] });
      previousOptionTakesValue = false;
      sawNonLiteral = true;
      continue;
    }
    if (atom.kind === 'close') {
      const closed = groups.pop();
      if (closed) closeGroup(closed, groups[groups.length - 1], result.positionals, bareOutside);
      previousOptionTakesValue = false;
      continue;
    }
    if (atom.kind === 'pipe') {
      if (group) {
        group.hasPipe = true;
        endAlternative(group, result.positionals);
        // the next alternative is read on its own: `scriptfile` after `-m module |` is no option value
        if (group.startsWithOption && !groups.slice(0, -1).some((open) => open.startsWithOption)) {
          group.startsWithOption = false;
          group.empty = true;
        }
      }
      previousOptionTakesValue = false;
      continue;
    }
    if (atom.kind === 'ellipsis') {
      if (atom.spaced && argparseStyle) {
        result.positionals.push({ name: REMAINDER, required: false, variadic: true });
        lastWasPositional = false;
        continue;
      }
      const last = result.positionals[result.positionals.length - 1];
      if (last && lastWasPositional) last.variadic = true;
      continue;
    }
    const text = atom.text;
    lastWasPositional = false;
    const wasEmpty = group?.empty ?? false;
    if (group) group.empty = false;
    if (text.startsWith('-') && text.length > 1) {
      if (text === '--') continue;
      if (group && wasEmpty) group.startsWithOption = true;
      for (const open of groups) {
        open.hasOption = true;
        open.alternativeHasOption = true;
      }
      const spelling = text.replace(/[=[<].*$/, '');
      if (groups.length === 0) result.requiredOptions.push(spelling);
      previousOptionTakesValue = !text.includes('=') && takesValue(spelling);
      sawNonLiteral = true;
      continue;
    }
    if (previousOptionTakesValue) {
      previousOptionTakesValue = false;
      continue;
    }
    if (groups.some((open) => open.startsWithOption)) continue;
    if (text === '-' || PLACEHOLDER_WORDS.test(text.replace(/\.{2,3}$/, '').replace(/^[<{]|[>}]$/g, ''))) {
      sawNonLiteral = true;
      continue;
    }
    if (!sawNonLiteral && groups.length === 0 && /^[a-z][a-z0-9_-]*$/.test(text)) {
      result.leadingLiterals.push(text);
    }
    const { name, variadic } = positionalName(text);
    if (name.length === 0 || !/[A-Za-z0-9]/.test(name)) continue;
    const previous = result.positionals[result.positionals.length - 1];
    if (previous !== undefined && previous.name === name) {
      // argparse `ENV_DIR [ENV_DIR ...]`: one or more
      previous.variadic = true;
      lastWasPositional = true;
      continue;
    }
    const optional = groups.some((open) => open.bracket === '[');
    if (group && /^[a-z][a-z0-9_-]*$/.test(text)) group.bareWords += 1;
    if (groups.length === 0 && /^[a-z][a-z0-9_-]*$/.test(text)) bareOutside = true;
    result.positionals.push({ name, required: !optional, variadic });
    lastWasPositional = true;
  }
  // A group-level ellipsis after `[FILE]` marks FILE variadic; handled above via the last positional.
  return result;
}

/** The program's base name from a usage word such as `/usr/bin/ls` or `notes.py`. */
export function programBaseName(word: string): string {
  const base = (word.split(/[\\/]/).pop() ?? word).replace(/\[EXE\]$/, '');
  return base.replace(/\.(py|js|mjs|cjs|ts|rb|sh|pl|exe|wasm)$/i, '');
}
