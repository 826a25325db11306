/**
 * A generic check on positionals, read by weighing evidence instead of matching one notation. The
 * usage parser (usage.ts) proposes a positional for every word of a form that is no option; the
 * rules after it (positional-entry.ts and the rest) were written per help text. On help they were not
 * written for, most wrong positionals are invented from usage tokens that are something else: a group
 * of options (`[flags]`, `[global options]`, `[plugins]` over a `Plugins:` section of options), a
 * subcommand slot (`<command>` over a Commands list, a listed command word), a shell construct
 * (`> out.txt`, `| less`), an environment assignment (`DEBUG=1`), a URL pattern, a prose word of a
 * usage line written as a sentence, the value of an option written before it (`-o FILE`). Round 17
 * added: an option group's argument (`[OPTION [ARG]]`, `[option option=parameter]`), an `[action]`
 * slot over an `Actions:` list, an alternative after a spaced bar (`PATH | URL | -`), the program's
 * own name opening another form after a bar, the command word after `[global options]`, an option's
 * value on a wrapped form's next line, a literal mode word beside options (`(-s <query> | me)`).
 *
 * Each proposed positional is scored: for it, an entry under a section that is not a command list
 * (an Arguments / Positional section: +3), a placeholder notation in the usage form (`<x>`, `X`,
 * `[x]`, `x...`: +1), a mention outside the usage form (+1); against it, each cue below (-2 to -4).
 * A positional is dropped only when its score is at most DROP_AT: the parser's proposal stands
 * unless the text speaks against it, so a help the rules were written for loses nothing.
 *
 * No regular expression here is built from help text; names are compared as strings, and every
 * pattern is anchored or bounded (help text comes from untrusted components).
 */
import { helpSource, type Claim } from './reader/claims.ts';
import type { CliPositional } from './spec.ts';

/** What the reader needs besides the help's lines. */
export interface PositionalEvidenceContext {
  /** The help text, one entry per line. */
  lines: readonly string[];
  /** Listed subcommands (their names are command slots, not arguments). */
  subcommands: readonly { name: string }[];
  /** The program's name as its usage forms write it, when known: a pipeline's other programs' words are not its arguments. */
  program?: string | null;
  /** Whether a spelling (`-r`, `--recursive`) is a listed option taking no value: the word after it is no value of it. */
  isFlag?: (spelling: string) => boolean;
}

/** One positional's weighing: its score and the cues that gave it (for tests and the bench). */
export interface PositionalEvidence {
  score: number;
  cues: string[];
}

/** A positional whose score is at most this is dropped. */
export const DROP_AT = -3;
/** At most this many positionals of one help are weighed. */
const MAX_WEIGHED = 32;
/** The weight of a cue that names something else outright (an option group, a command, a shell construct, …). */
const AGAINST = -5;

/** Names that stand for a group of options, never for an argument. */
export const OPTION_GROUP_NAMES: ReadonlySet<string> = new Set([
  'options', 'option', 'opts', 'opt', 'flags', 'flag', 'switches', 'switch',
  'globaloptions', 'globalflags', 'generaloptions', 'commonoptions', 'otheroptions', 'moreoptions', 'extraoptions',
  'commandoptions', 'programoptions', 'toolsoptions', 'globalopts', 'opts...', 'optionflags',
]);

/** Names that stand for the subcommand slot (an argument only where no command is listed: `nohup COMMAND`). */
export const COMMAND_SLOT = /^(?:sub-?)?(?:commands?|cmds?)$/i;
/**
 * The other words a command list is titled by (COMMAND_TITLE): `exiv2 [ action ] file` over an
 * `Actions:` list, `tool <verb>` over `Verbs:`. Such a slot is the command slot only where a list so
 * titled holds entries (`[mode]` over no `Modes:` list stays an argument).
 */
export const TITLED_COMMAND_SLOT = /^(?:actions?|verbs?)$/i;
/**
 * A group of options named before the command word (`terraform [global options] fmt [options]`, git
 * `[--global-opts] <command>`): a bare lower-case word right after it is the command path, not an argument.
 */
const GLOBAL_GROUP = /^\[?(?:global|general|common)[\s_-]?(?:options|flags|opts)\]?$/i;
/** A bracketed options group of two words (`[command options]`, `[fmt flags]`). */
const GROUP_PHRASE = /^\[[a-z][\w-]{0,30} (?:options|flags|opts)\]$/i;

/** Words of a sentence: a usage line written as prose offers them as tokens. */
export const PROSE_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'to', 'for', 'from', 'with', 'without', 'then', 'than', 'is', 'are', 'be', 'by', 'in', 'on', 'at',
  'as', 'if', 'it', 'its', 'this', 'that', 'these', 'those', 'use', 'see', 'run', 'where', 'which', 'when', 'more', 'info', 'information',
  'help', 'etc', 'e.g', 'i.e', 'via', 'also', 'any', 'all', 'each', 'one', 'two', 'either', 'both', 'not', 'no', 'only',
  'was', 'were', 'has', 'have', 'had', 'will', 'would', 'can', 'may', 'must', 'should', 'does', 'you', 'your', 'we', 'our', 'they',
  'after', 'before', 'into', 'so', 'but', 'such', 'using', 'please',
]);

/** A shell construct: a redirection, a pipe to another program, a background or sequence operator. */
const SHELL_CONSTRUCT = /^(?:\d?>{1,2}&?\d?|<{1,3}|&{1,2}|\|{1,2}|;)$|^\d?>{1,2}[\w/.$-]/;
/** An environment assignment written before or after the program (`DEBUG=1`, `NAME=value`). */
const ENV_ASSIGNMENT = /^[A-Z_][A-Z0-9_]{0,40}=/;
/**
 * Sentence punctuation glued to a one-word name (`via:`, `'(coreutils)`, `invocation'`): a word of
 * prose, not a placeholder (a period is left out: `[FILE].` closes a form written as a sentence).
 */
const PROSE_PUNCTUATION = /^["'`(]|[:,;'"`]$/;
/** At least this many prose words in a form make it a sentence: its bare lower-case words are prose. */
const SENTENCE_WORDS = 2;
/** A shell variable's expansion (`$HOME/.toolrc`, `${XDG_CONFIG_HOME}`): a path the program reads, not an argument. */
const ENV_REFERENCE = /^\$\{?[A-Za-z_]/;
/** A URL or URL pattern (`https://host/path`, `s3://bucket`). */
const URL_PATTERN = /^[a-z][a-z0-9+.-]{0,15}:\/\/|^(?:www\.)[a-z0-9-]{1,63}\./i;
/** A usage title opening a block of forms (`Usage:`, `usage -`, `SYNOPSIS`). */
const USAGE_TITLE = /^\s{0,8}(?:usage|synopsis)\b/i;
/** A section title: a line at the margin ending with a colon, or a short line in capitals (`ARGUMENTS`). */
const SECTION_TITLE = /^(?:[A-Za-z][\w /&'-]{0,60}:\s*$|[A-Z][A-Z /&-]{2,40}$)/;
/** A title naming a list of commands. */
const COMMAND_TITLE = /\b(?:sub-?)?commands?\b|\bverbs?\b|\bactions?\b|\btopics?\b/i;
/** A title naming a list of arguments. */
const ARGUMENT_TITLE = /\b(?:arguments?|args|positionals?|operands?|parameters?|params|inputs?)\b/i;
/** An option spelling (`-o`, `--out`, `-o,`): the word after it in a form may be its value. */
const OPTION_SPELLING = /^-{1,2}[A-Za-z0-9][\w-]{0,40}$/;
/** A placeholder notation around a word: `<x>`, `[x]`, `x...`, `{x}`. */
const BRACKETS = /^[<[{(]+|[>\]})]+$|\.{2,3}$|…$/g;

const OPENERS = /[[(<{]/g;
const CLOSERS = /[\])>}]/g;

function countOf(word: string, pattern: RegExp): number {
  return word.match(pattern)?.length ?? 0;
}

function normalized(word: string): string {
  return word.toLowerCase().replace(/[^a-z0-9.]/g, '');
}

/** The alternatives a positional's name goes by (`FILE|URL|-` → FILE, URL, -). */
function partsOf(name: string): string[] {
  return name.split('|').map((part) => part.trim()).filter((part) => part.length > 0);
}

/** The lines of every usage block: the title line and the indented lines after it, up to a blank line. */
function usageLines(lines: readonly string[]): Set<number> {
  const found = new Set<number>();
  for (let index = 0; index < lines.length; index += 1) {
    if (!USAGE_TITLE.test(lines[index] ?? '')) continue;
    found.add(index);
    for (let next = index + 1; next < lines.length && (lines[next] ?? '').trim().length > 0; next += 1) {
      const line = lines[next] ?? '';
      if (!/^\s/.test(line) || SECTION_TITLE.test(line)) break;
      found.add(next);
    }
  }
  return found;
}

/** Each line's section title (lower case), null before the first. */
/**
 * meow's layout (`  Usage` / `  Options` / `  Commands`, entries under them indented deeper): a title of
 * one or two capitalized words without a colon, indented, whose next line is indented deeper.
 */
const OUTDENTED_TITLE = /^( {1,4})[A-Z][a-z]{2,20}(?: [A-Za-z][a-z]{1,20})?\s*$/;

function outdentedTitle(lines: readonly string[], index: number): boolean {
  const indent = OUTDENTED_TITLE.exec(lines[index] ?? '')?.[1]?.length;
  if (indent === undefined) return false;
  const next = lines[index + 1] ?? '';
  return next.trim().length > 0 && (/^\s*/.exec(next)?.[0].length ?? 0) > indent;
}

function sectionsOf(lines: readonly string[]): (string | null)[] {
  let current: string | null = null;
  return lines.map((line, index) => {
    if ((SECTION_TITLE.test(line) || outdentedTitle(lines, index)) && !USAGE_TITLE.test(line)) current = line.trim().toLowerCase();
    return current;
  });
}

/** The words of a line, split on spaces (at most a few hundred). */
function wordsOf(line: string): string[] {
  return line.trim().split(/\s+/).slice(0, 400);
}

/**
 * The positions of a form's words, split at each pipe into a program (`|` outside brackets, not
 * between option spellings as an alternative `-f | <loopdev>`, followed by a program's bare name).
 */
function pipelineSegments(words: readonly string[]): number[][] {
  const segments: number[][] = [[]];
  let depth = 0;
  words.forEach((word, position) => {
    const opened = depth;
    depth = Math.max(0, depth + countOf(word, OPENERS) - countOf(word, CLOSERS));
    if (opened === 0 && word === '|' && !OPTION_SPELLING.test(words[position - 1] ?? '') && /^[a-z][\w.-]{0,40}$/.test(words[position + 1] ?? '')) {
      segments.push([]);
      return;
    }
    segments[segments.length - 1]?.push(position);
  });
  return segments;
}

/** A word's bare name once its placeholder notation is taken off, and whether it had any. */
function bare(word: string): { name: string; notation: boolean } {
  const name = word.replace(/[,;]$/, '').replace(BRACKETS, '').replace(BRACKETS, '');
  const notation = name !== word.replace(/[,;]$/, '') || (/[A-Z]/.test(name) && name === name.toUpperCase());
  return { name, notation };
}

/** What every positional's weighing reads from the help: its usage lines, sections and words, read once. */
export interface ReadHelp {
  usage: Set<number>;
  sections: (string | null)[];
  words: string[][];
  /** A section titled as a list of commands holds an indented entry. */
  commandList: boolean;
  /** The titles (lower case, no colon) of command lists holding an indented entry. */
  commandTitles: Set<string>;
}

/** Reads the help once for all its positionals. */
export function readHelp(lines: readonly string[]): ReadHelp {
  const sections = sectionsOf(lines);
  const commandTitles = new Set<string>();
  const commandList = lines.some((line, index) => {
    const title = sections[index];
    const listed = title !== null && title !== undefined && COMMAND_TITLE.test(title) && !ARGUMENT_TITLE.test(title) && /^\s+[a-z][\w-]{0,40}(?:\s{2,}|\t|\s*$|\s\|\s)/.test(line);
    if (listed) commandTitles.add(title.replace(/:\s*$/, '').trim());
    return listed;
  });
  return { usage: usageLines(lines), sections, words: lines.map(wordsOf), commandList, commandTitles };
}

/**
 * Weighs the evidence that `name` (a positional the usage parser proposed) is an argument of the
 * program. Positive: it is one; at most DROP_AT: the text says it is something else.
 */
export function positionalEvidence(name: string, context: PositionalEvidenceContext, read: ReadHelp = readHelp(context.lines)): PositionalEvidence {
  const cues: string[] = [];
  let score = 0;
  const add = (cue: string, weight: number): void => {
    cues.push(cue);
    score += weight;
  };
  const { lines } = context;
  const parts = partsOf(name);
  const wanted = new Set(parts.map(normalized));
  const { usage, sections, words: lineWords } = read;
  const key = normalized(name);

  // --- against: what the word names instead of an argument
  if (OPTION_GROUP_NAMES.has(key) || /^(?:global|general|common|other|more|extra)[\s_-]?(?:options|flags|opts)$/i.test(name)) add('option group', AGAINST);
  // `[option option=parameter ...]`: an option group written with its value (`option=value`, `opt=val`)
  else if (/^[a-z]{3,8}=\S/i.test(name) && OPTION_GROUP_NAMES.has(normalized(name.slice(0, name.indexOf('='))))) add('an option group with its value', AGAINST);
  // `[plugins]` over a `Plugins:` section whose entries are options
  if (/^[a-z][a-z-]{1,30}$/i.test(name)) {
    const plural = key.endsWith('s') ? key : `${key}s`;
    lines.forEach((line, index) => {
      // (astro's boxed `   Flags ` titles without a colon: a line of the word alone over option lines titles them alike)
      const title = /^\s{0,4}([A-Za-z][\w -]{1,40}?)(?:\s+options)?:?\s*$/i.exec(line)?.[1]?.toLowerCase().replace(/\s+/g, '');
      if (title === undefined || (title !== key && title !== plural)) return;
      const next = lines.slice(index + 1, index + 4).find((candidate) => candidate.trim().length > 0);
      if (next !== undefined && /^\s+--?[A-Za-z]/.test(next)) add('titles an options section', AGAINST);
    });
  }
  if ((context.subcommands.length > 0 || read.commandList) && parts.some((part) => COMMAND_SLOT.test(part))) add('command slot over listed commands', AGAINST);
  if (parts.some((part) => TITLED_COMMAND_SLOT.test(part) && [...read.commandTitles].some((title) => title.split(/\s+/).includes(part.toLowerCase().replace(/s$/, '')) || title.split(/\s+/).includes(`${part.toLowerCase().replace(/s$/, '')}s`)))) {
    add('slot over a list titled by its word', AGAINST);
  }
  if (parts.some((part) => context.subcommands.some((command) => command.name === part))) add('a listed command', AGAINST);
  if (parts.some((part) => SHELL_CONSTRUCT.test(part))) add('shell construct', AGAINST);
  if (parts.some((part) => ENV_ASSIGNMENT.test(part))) add('environment assignment', AGAINST);
  if (parts.some((part) => ENV_REFERENCE.test(part))) add('environment variable', AGAINST);
  if (parts.some((part) => URL_PATTERN.test(part))) add('URL pattern', AGAINST);
  // (`If`, `or`: any case but all capitals, which a placeholder may be)
  if (parts.length === 1 && PROSE_WORDS.has(name.toLowerCase()) && (name.length > 1 ? name !== name.toUpperCase() : name === name.toLowerCase())) add('prose word', AGAINST);
  if (!/\s/.test(name) && PROSE_PUNCTUATION.test(name)) add('sentence punctuation', AGAINST);
  // tty-share `[--readonly] [--public] [no-tls]`: a listed flag's name written without its dashes
  if (/^[a-z][a-z0-9]{0,20}-[a-z0-9-]{1,30}$/.test(name) && context.isFlag?.(`--${name}`) === true) add("a listed flag's name without its dashes", AGAINST);

  // --- the usage forms: notation, and what stands before the word
  let occurrences = 0;
  let afterOption = 0;
  let alternative = 0;
  let afterGlobalGroup = 0;
  let programAfterBar = 0;
  let literalBesideOption = 0;
  const programWord = context.program?.split('/').pop() ?? null;
  let notation = false;
  let piped = 0;
  let inSentence = 0;
  const capitalsOnly = /[A-Z]/.test(name) && name === name.toUpperCase();
  for (const index of usage) {
    const words = lineWords[index] ?? [];
    const sentence = words.filter((word) => PROSE_WORDS.has(word.toLowerCase().replace(/[.:,;!?'"`]+$/, ''))).length >= SENTENCE_WORDS;
    // bracket depth before each word, and whether a pipe outside brackets came before it
    const segments = pipelineSegments(words);
    const program = context.program ?? null;
    const ownSegment = program === null ? 0 : segments.findIndex((segment) => segment.some((position) => words[position] === program || words[position]?.endsWith(`/${program}`)));
    // a form wrapped over lines: the word opening a continuation line follows the last word of the line before
    const before = usage.has(index - 1) ? (lineWords[index - 1] ?? []).at(-1) ?? '' : '';
    words.forEach((word, position) => {
      const read = bare(word);
      // (a bar list holding every alternative of the name is its word: `local|aws:lambda|az:aci]` for `aws:lambda|az:aci`)
      const sameWord = wanted.has(normalized(read.name)) || normalized(read.name) === key || (read.name.includes('|') && [...wanted].every((part) => partsOf(read.name).some((other) => normalized(other) === part)));
      if (!sameWord) return;
      // a placeholder in capitals (`FILE`) is not the prose word of another case (`output to a file`)
      if (capitalsOnly && read.name !== read.name.toUpperCase()) return;
      // the program's own word opening the form (`Usage: webpack …`, `$ webpack …`) is no occurrence
      if (word === programWord && (position === 0 || /^(?:usage|synopsis)\b|^[$%>]$/i.test(words[position - 1] ?? ''))) return;
      occurrences += 1;
      // `or available locally via: info …`: a bare lower-case word of a form that reads as a sentence
      if (sentence && !read.notation && /^[a-z]/.test(read.name)) inSentence += 1;
      // `tool FILE | less`, `cat file | tool`: a word of another program in the pipeline
      if (segments.length > 1 && ownSegment >= 0 && !(segments[ownSegment] ?? []).includes(position)) piped += 1;
      if (read.notation) notation = true;
      const previous = position > 0 ? (words[position - 1] ?? '') : before;
      // `-o FILE`: the word is the option's value (an option in brackets, `[-v] FILE`, closes before it)
      const spelling = previous.replace(/,$/, '');
      if (!word.startsWith('[') && !word.startsWith('(') && OPTION_SPELLING.test(spelling) && context.isFlag?.(spelling) !== true) afterOption += 1;
      // `[--platform` then `local|aws:lambda]` on the next line: inside the bracket an option opens, its value
      else if (!word.startsWith('[') && /^\[-{1,2}[A-Za-z0-9][\w-]{0,40}$/.test(spelling) && context.isFlag?.(spelling.slice(1)) !== true) afterOption += 1;
      // `[OPTION [ARG]]`: a word bracketed inside an option group's bracket is the option's argument
      else if (word.startsWith('[') && /^\[/.test(previous) && !/\]/.test(previous) && OPTION_GROUP_NAMES.has(normalized(previous))) afterOption += 1;
      // `PATH | URL | -`: an alternative of the placeholder before the bar fills that slot
      const beforeBar = words[position - 2] ?? '';
      // (the placeholder before the bar is itself an argument, not an option's value: `-s <query> | me` is none)
      if (previous === '|' && bare(beforeBar).notation && !OPTION_SPELLING.test(beforeBar.replace(/[[\]()]/g, '')) && !OPTION_SPELLING.test((words[position - 3] ?? '').replace(/[[\]()]/g, ''))) alternative += 1;
      // `webpack [entries...] | webpack [command]`: the program's own name after a bar opens another form on the line
      if (previous === '|' && word === programWord) programAfterBar += 1;
      // docopt `(-l <url> | -s <query> | me)`: a bare lower-case word set by a bar beside an option whose value the
      // form writes as `<placeholder>` is a literal mode word (optparse `[-m module | scriptfile]` writes its
      // placeholders bare: `scriptfile` is one)
      const optionBeforeBar = /^<[^<>]{1,40}>$/.test(beforeBar) && OPTION_SPELLING.test((words[position - 3] ?? '').replace(/[[\]()]/g, ''));
      // (the closing bracket of the group is no notation of the word: `me)`)
      if (previous === '|' && /^[a-z][\w-]{0,40}[)\]]{0,4}$/.test(word) && optionBeforeBar) literalBesideOption += 1;
      // `[global options] fmt [options]`: a bare lower-case word after the global options is the command path
      // (and followed by its own options group, `fmt [options]`: a bare argument after the global options stays one)
      const ownOptions = OPTION_GROUP_NAMES.has(normalized(words[position + 1] ?? '')) || GROUP_PHRASE.test(`${words[position + 1] ?? ''} ${words[position + 2] ?? ''}`);
      if (!read.notation && /^[a-z][\w-]{0,40}$/.test(word) && ownOptions && (GLOBAL_GROUP.test(previous) || GLOBAL_GROUP.test(`${words[position - 2] ?? ''} ${previous}`))) afterGlobalGroup += 1;
    });
  }
  if (notation) add('placeholder notation', 1);
  if (occurrences > 0 && piped === occurrences) add("another program's word in a pipeline", AGAINST);
  if (occurrences > 0 && inSentence === occurrences) add('a word of a sentence', AGAINST);
  if (occurrences > 0 && afterOption === occurrences) add("follows an option's spelling", -4);
  if (occurrences > 0 && alternative === occurrences) add('an alternative of the slot before the bar', AGAINST);
  if (occurrences > 0 && literalBesideOption === occurrences) add('a literal word set beside options', AGAINST);
  if (occurrences > 0 && programAfterBar === occurrences) add("the program's own name opening another form", AGAINST);
  if (occurrences > 0 && afterGlobalGroup === occurrences) add('a command word after the global options', AGAINST);

  // --- for: an entry of an argument section, a mention outside the forms
  let entry = false;
  let listedCommand = false;
  let mentioned = false;
  lines.forEach((line, index) => {
    if (usage.has(index)) return;
    const words = lineWords[index] ?? [];
    const head = words[0] ?? '';
    const title = sections[index] ?? '';
    const headName = bare(head.replace(/:$/, '')).name;
    // an entry's head stands apart from its description (a column gap, a colon) or alone; a wrapped line of prose does not
    const apart = /^\s+\S+(?:\s{2,}|\t|:\s|\s*$)/.test(line);
    // (an option's line, `-no-tls`, is no entry of the argument `no-tls`)
    if (apart && !/^-{1,2}[A-Za-z]/.test(head) && (wanted.has(normalized(headName)) || normalized(headName) === key)) {
      if (COMMAND_TITLE.test(title) && !ARGUMENT_TITLE.test(title)) {
        // a literal command word (cac's default command is listed as its placeholder, `[root]`: an argument)
        if (!bare(head).notation) listedCommand = true;
        else entry = true;
        return;
      }
      entry = true;
      return;
    }
    if (!mentioned && words.some((word) => wanted.has(normalized(bare(word.replace(/[.:,;)]+$/, '')).name)) && (bare(word).notation || /[A-Z]/.test(word)))) mentioned = true;
  });
  if (entry) add('listed as an entry', 3);
  else if (listedCommand) add('listed under a command title', AGAINST);
  if (mentioned) add('mentioned outside the usage forms', 1);
  return { score, cues };
}

/** The positionals the evidence does not speak against, in order (the others are dropped). */
export function weighPositionals<T extends Pick<CliPositional, 'name'>>(positionals: readonly T[], context: PositionalEvidenceContext): T[] {
  const dropped = new Set(evidencePositionalClaims(positionals, context, 0).map((claim) => claim.option));
  return positionals.filter((positional) => !dropped.has(positional as unknown as CliPositional));
}

/**
 * The reader behind `weighPositionals`: a `kept: false` claim (at `weight`, of
 * `help:generic.evidence-positionals`) for each proposed positional the text's evidence names as
 * something else; the core leaves out what the resolver holds as not kept.
 */
export function evidencePositionalClaims(positionals: readonly Pick<CliPositional, 'name'>[], context: PositionalEvidenceContext, weight: number): Claim<'kept'>[] {
  if (positionals.length === 0) return [];
  const read = readHelp(context.lines);
  // (past MAX_WEIGHED the positionals are kept unweighed: the work stays linear in the help's size)
  return positionals
    .filter((positional, index) => index < MAX_WEIGHED && positionalEvidence(positional.name, context, read).score <= DROP_AT)
    .map((positional) => ({ field: 'kept', option: positional as CliPositional, value: false, source: EVIDENCE_POSITIONALS_SOURCE, weight }));
}

const EVIDENCE_POSITIONALS_SOURCE = helpSource('generic', 'evidence-positionals');
