/**
 * Reads the example command lines of a help text's EXAMPLES section (`EXAMPLES`, `Examples:`,
 * `Example usage:`, …): lines that run the program itself (`$ gh issue list --author monalisa`,
 * `  sq encrypt --symmetric message.txt`), each with the text that describes it (a `# …` comment or
 * a sentence on the line before, a `# …` or a column of text after it). What comes back is the argv
 * the program would see (program name and the usage line's fixed command words removed), not yet an
 * argument object: `input-examples.ts` maps it through the CLI spec.
 *
 * Untrusted text: one pass over at most MAX_HELP_LINES capped lines; at most MAX_EXAMPLE_LINES lines
 * per section, MAX_HELP_EXAMPLES examples, MAX_EXAMPLE_WORDS words each, descriptions clamped to
 * MAX_EXAMPLE_DESCRIPTION_CHARS. A line the shell would do more with than split (a pipe, a redirect,
 * a variable, a glob) is dropped (shell-words.ts), as is one that runs another program first.
 */
import { setSources } from '../reader/claims.ts';
import type { CliExample, CliSpec } from '../spec.ts';
import { expandTabs, helpLines, indentOf } from '../limits.ts';
import { programBaseName } from '../usage.ts';
import { shellWords } from './shell-words.ts';

/** At most this many examples are read from one help text. */
export const MAX_HELP_EXAMPLES = 16;
/** Lines of one EXAMPLES section looked at. */
export const MAX_EXAMPLE_LINES = 400;
/** Words of one example command line (program included). */
export const MAX_EXAMPLE_WORDS = 64;
/** A description is cut to this many characters. */
export const MAX_EXAMPLE_DESCRIPTION_CHARS = 300;
/** Lines of text above an example taken as its description. */
const MAX_DESCRIPTION_LINES = 4;
/** Lines joined by a trailing `\` into one command. */
const MAX_CONTINUATION_LINES = 8;

/** The title of an examples section. */
const EXAMPLES_HEADING = /^(?:examples?|example usage|usage examples?|examples? of use)\s*:?$/i;
/** A line that starts another section: all capitals (`LEARN MORE`), or a short title ending in `:` (`Options:`). */
const OTHER_HEADING = /^(?:[A-Z][A-Z0-9 _/&-]{1,40}|[A-Z][\w ,/&()'-]{0,60}:)$/;
/** A line running another program: with options (`tar -x …`), behind a prefix (`sudo`, `LC_ALL=C`), or in a pipe. */
const OTHER_COMMAND = /^(?:\S+\s+-|\w+=\S*\s|(?:sudo|env|time|nice|nohup|exec|xargs)\s)|\s\|\s/;
/** A shell prompt before a command. */
const PROMPT = /^\$\s+/;

function clampText(text: string): string | null {
  const collapsed = text.replace(/\s+/g, ' ').trim().replace(/:$/, '').trim();
  if (collapsed.length === 0 || !/[A-Za-z]/.test(collapsed)) return null;
  return collapsed.length > MAX_EXAMPLE_DESCRIPTION_CHARS ? `${collapsed.slice(0, MAX_EXAMPLE_DESCRIPTION_CHARS - 1)}…` : collapsed;
}

/**
 * Splits a command line from the text after it: a `#` comment (at a word start, outside quotes), or a
 * column of text after two or more spaces (GNU `cat f - g  Output f's contents, …`). Linear.
 */
function splitTrailingText(line: string): { command: string; text: string | null } {
  let quote: string | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"') index += 1;
      continue;
    }
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === '#' && index > 0 && line[index - 1] === ' ') return { command: line.slice(0, index), text: clampText(line.slice(index + 1)) };
    else if (char === ' ' && line[index + 1] === ' ') {
      const rest = line.slice(index).trim();
      return { command: line.slice(0, index), text: clampText(rest.startsWith('#') ? rest.slice(1) : rest) };
    }
  }
  return { command: line, text: null };
}

/** A name as compared with a usage word: lower case, letters and digits only. */
function plainName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * The fixed words of the usage line after the program (`gh issue list [flags]` → `issue`, `list`),
 * and the program's name there: an example starts with both. A word naming a positional
 * (`lefthook run hook-name`) is a placeholder, and ends the fixed words.
 */
function usageInvocation(lines: readonly string[], placeholders: ReadonlySet<string>): { program: string | null; words: string[] } {
  for (let index = 0; index < lines.length; index += 1) {
    const match = /^\s*usage\s*:?\s*(.*)$/i.exec(lines[index] ?? '');
    if (match === null) continue;
    let rest = match[1] ?? '';
    if (rest.trim() === '') rest = lines.slice(index + 1, index + 3).find((line) => line.trim() !== '') ?? '';
    const words = rest.trim().split(/\s+/, 16);
    const program = words[0];
    if (program === undefined || !/^[\w./\\-]+$/.test(program)) return { program: null, words: [] };
    const fixed: string[] = [];
    for (const word of words.slice(1)) {
      if (!/^[a-z][a-z0-9_-]*$/.test(word) || placeholders.has(plainName(word))) break;
      fixed.push(word);
    }
    return { program: programBaseName(program), words: fixed };
  }
  return { program: null, words: [] };
}

export interface HelpExampleOptions {
  /** Names the program goes by (its spec name, the tool file's stem): an example line starts with one. */
  programs: readonly string[];
  /** Names of the program's positionals: in the usage line they are placeholders, not command words. */
  positionals?: readonly string[];
  /**
   * The program has subcommands (its spec says so): an example may then start with other words than
   * the usage line's (they choose a command). Without them, an example must repeat the usage line's
   * fixed words (`yq eval`) exactly; one starting otherwise (`yq e`, an alias) runs a command the spec
   * does not describe, and is dropped.
   */
  subcommands?: boolean;
}

/** The examples of a help text's EXAMPLES sections, in order; `[]` when it has none. */
export function readHelpExamples(text: string, options: HelpExampleOptions): CliExample[] {
  const lines = helpLines(text).map(expandTabs);
  const invocation = usageInvocation(lines, new Set((options.positionals ?? []).map(plainName)));
  const programs = new Set(options.programs.filter((name) => name.length > 0));
  if (invocation.program !== null) programs.add(invocation.program);
  const examples: CliExample[] = [];
  let index = 0;
  while (index < lines.length && examples.length < MAX_HELP_EXAMPLES) {
    const heading = lines[index] ?? '';
    index += 1;
    if (!EXAMPLES_HEADING.test(heading.trim())) continue;
    const headingIndent = indentOf(heading);
    let pending: string[] = [];
    const sectionEnd = Math.min(lines.length, index + MAX_EXAMPLE_LINES);
    while (index < sectionEnd && examples.length < MAX_HELP_EXAMPLES) {
      const raw = lines[index] ?? '';
      const trimmed = raw.trim();
      if (trimmed.length > 0 && indentOf(raw) <= headingIndent && (OTHER_HEADING.test(trimmed) || EXAMPLES_HEADING.test(trimmed)) && !PROMPT.test(trimmed)) break;
      index += 1;
      if (trimmed.length === 0) {
        pending = [];
        continue;
      }
      if (trimmed.startsWith('#') && !PROMPT.test(trimmed)) {
        if (pending.length < MAX_DESCRIPTION_LINES) pending.push(trimmed.replace(/^#+/, ''));
        continue;
      }
      // a trailing `\` continues the command on the next line
      let line = trimmed;
      for (let joined = 0; line.endsWith('\\') && joined < MAX_CONTINUATION_LINES && index < sectionEnd; joined += 1) {
        line = `${line.slice(0, -1).trimEnd()} ${(lines[index] ?? '').trim()}`;
        index += 1;
      }
      const prompted = PROMPT.test(line);
      const body = line.replace(PROMPT, '');
      const firstWord = body.split(' ', 1)[0] ?? '';
      if (!programs.has(programBaseName(firstWord))) {
        // a prompt line, one running the program behind something else (`sudo prog …`,
        // `LC_ALL=C prog …`, `cat x | prog`) or another program with options (`tar -x …`) is a
        // command, not the description of the next one
        if (prompted || OTHER_COMMAND.test(body)) pending = [];
        else if (pending.length < MAX_DESCRIPTION_LINES) pending.push(trimmed);
        continue;
      }
      const { command, text: trailing } = splitTrailingText(body);
      const words = shellWords(command, MAX_EXAMPLE_WORDS);
      const description = trailing ?? clampText(pending.join(' '));
      pending = [];
      if (words === null || words.length === 0) continue;
      let argv = words.slice(1);
      const fixed = invocation.words;
      let matched = 0;
      while (matched < fixed.length && argv[matched] === fixed[matched]) matched += 1;
      if (matched < fixed.length && options.subcommands !== true) continue;
      argv = argv.slice(matched);
      examples.push(description === null ? { argv } : { description, argv });
    }
  }
  return examples;
}

/**
 * The spec with the examples its help text gives (`sources.examples` = `help:examples`), unless it
 * has examples already (from `--help-json`); the same spec when the help gives none.
 */
export function withHelpExamples(spec: CliSpec, helpText: string, programs: readonly string[]): CliSpec {
  if (spec.examples !== undefined) return spec;
  const positionals = [...spec.positionals, ...spec.subcommands.flatMap((command) => command.positionals ?? [])].map((positional) => positional.name);
  const examples = readHelpExamples(helpText, { programs: [spec.name, ...programs], positionals, subcommands: spec.subcommands.length > 0 });
  if (examples.length === 0) return spec;
  const result: CliSpec = { ...spec, examples };
  setSources(result, { ...spec.sources, examples: 'help:examples' });
  return result;
}
