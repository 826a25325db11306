/**
 * Positionals and subcommands: entries of "Arguments:" / "positional arguments:" / "Commands:"
 * sections, reconciled with the positionals of the first usage form.
 */
import { extractDescriptionFacts } from './annotations.ts';
import type { Entry } from './help-scan.ts';
import { clampDescription, joinWrapped } from './limits.ts';
import type { CliPositional, CliSubcommand } from './spec.ts';
import { REMAINDER, type UsagePositional } from './usage.ts';
import { typeFromValueName } from './value-type.ts';

const MAX_POSITIONALS = 50;
const MAX_SUBCOMMANDS = 200;

interface SectionPositional {
  positional: CliPositional;
  /** The entry spelled its own optional brackets or ellipsis (`[INPUT_FILE]`, `<path>...`), so it is authoritative. */
  decorated: boolean;
}

function positionalFromEntry(entry: Entry): SectionPositional | null {
  const match = /^(\S+)(?:\s(<[^>]{1,40}>))?/.exec(entry.head);
  if (!match) return null;
  const raw = match[1] ?? '';
  const optional = raw.startsWith('[');
  // `<command> ...`, `[<files> ...]` (kong): the ellipsis after a space
  const variadic = /\.{2,3}\]?$/.test(raw) || /^\S+ \.{3}\]?(\s|$)/.test(entry.head);
  const name = raw.replace(/^[[<{]+/, '').replace(/\.{2,3}$/, '').replace(/[\]>}]+$/, '').replace(/\.{2,3}$/, '');
  // argparse `FILE|DIR` (a metavar naming alternatives) is one positional
  // (round 18: plackup's Pod `Arguments:` entry `.psgi`: a file named by its extension, a dot then a letter)
  if (name.length === 0 || !/^\.?[A-Za-z0-9_][\w.|-]*$/.test(name) || /^\.\d/.test(name)) return null;
  const facts = extractDescriptionFacts(joinWrapped(entry.description));
  const positional: CliPositional = {
    name,
    required: !optional,
    variadic,
    description: facts.description.length > 0 ? clampDescription(facts.description) : null,
  };
  const typeWord = match[2] ?? null;
  const type = typeFromValueName(typeWord) ?? facts.typeHint;
  if (type !== null && type !== 'boolean') positional.type = type;
  // docopt's `<path>` names the argument the usage writes `[<path>]`: only `[…]` or an ellipsis decide
  return { positional, decorated: /^\[/.test(raw) || variadic };
}

function commandFromEntry(entry: Entry, prefix: string | null): CliSubcommand | null {
  const head = prefix !== null ? entry.head.slice(prefix.length + 1) : entry.head;
  const match = /^([A-Za-z0-9][\w.:-]*)/.exec(head);
  if (!match) return null;
  const name = match[1] ?? '';
  const description = entry.description.join(' ');
  if (description.length === 0 && /^[A-Z][A-Z0-9_]*$/.test(name)) return null; // argparse's `COMMAND` metavar line
  if (name === 'help') return null;
  if (name === 'completion' && /autocompletion script/i.test(description)) return null;
  return { name, description: description.length > 0 ? clampDescription(description) : null };
}

/**
 * yargs lists commands as `c8 report` (its `$0 report`), oclif as `generate command` under `oclif
 * generate`: a first word that is the program's, or that every one of several entries shares, is
 * the path to the commands, not their name.
 */
export function commandPrefixOf(commands: readonly Entry[], program: string | null): string | null {
  const firsts = commands.map((entry) => /^(\S+) +[A-Za-z0-9]/.exec(entry.head)?.[1] ?? null);
  const first = firsts[0] ?? null;
  if (first === null || !firsts.every((word) => word === first)) return null;
  return first === program || firsts.length >= 2 ? first : null;
}

/** Subcommands listed in "Commands:" sections, then docopt's command words, without duplicates. */
export function collectSubcommands(entries: readonly Entry[], docoptWords: readonly string[], program: string | null = null): CliSubcommand[] {
  const subcommands: CliSubcommand[] = [];
  const add = (command: CliSubcommand): void => {
    if (!subcommands.some((existing) => existing.name === command.name)) subcommands.push(command);
  };
  const commands = entries.filter((entry) => entry.kind === 'command');
  const prefix = commandPrefixOf(commands, program);
  for (const entry of commands) {
    const command = commandFromEntry(entry, prefix);
    if (command !== null) add(command);
  }
  if (subcommands.length === 0) for (const word of docoptWords) if (word !== 'help') add({ name: word, description: null });
  return subcommands.slice(0, MAX_SUBCOMMANDS);
}

function normalized(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * yargs `taze [args]` names no positional, but its default command `taze [mode]  Keeps your deps
 * fresh  [default]` does: the bracket a command entry writes around the name (`[` optional, `<`
 * required), or null when no command entry names it.
 */
function bracketInCommandEntry(entries: readonly Entry[], name: string): '[' | '<' | null {
  for (const entry of entries) {
    if (entry.kind !== 'command') continue;
    const bracket = entry.head.split(/\s+/).find((word) => /^[[<][^\]>]+[\]>]$/.test(word) && normalized(word.slice(1, -1).replace(/\.{2,3}$/, '')) === normalized(name));
    if (bracket !== undefined) return bracket.startsWith('<') ? '<' : '[';
  }
  return null;
}

/**
 * lizard's own usage string `lizard [options] [PATH or FILE] [PATH] ...` over `positional arguments:
 * paths`: a section of one positional that the usage names under other words, all optional and one
 * repeated, is that one argument: optional and repeated.
 */
function spreadOverUsage(usagePositionals: readonly UsagePositional[], name: string): { required: boolean; variadic: boolean } | null {
  if (usagePositionals.length < 2 || usagePositionals.some((candidate) => candidate.name === REMAINDER || candidate.required || normalized(candidate.name) === normalized(name))) return null;
  return usagePositionals.some((candidate) => candidate.variadic) ? { required: false, variadic: true } : null;
}

/**
 * The positionals: a positionals section when there is one (its order and descriptions, with
 * required/variadic from the usage line unless the entry spells them), else the usage line's.
 */
/**
 * rich-click esptool `Usage: … <address> <filename>...` over one Arguments entry `ADDR-FILENAME
 * <address> <filename>...  [required]`: an entry whose metavar column writes the usage form's own
 * placeholders (two or more, each `<name>`) stands for them; the form's positionals are the arguments.
 */
function metavarSpellsUsage(positional: CliPositional, usagePositionals: readonly UsagePositional[]): boolean {
  const metavar = positional.description ?? '';
  if (usagePositionals.length < 2 || usagePositionals.some((candidate) => normalized(candidate.name) === normalized(positional.name))) return false;
  return /^</.test(metavar) && usagePositionals.every((candidate) => metavar.includes(`<${candidate.name}>`));
}

export function collectPositionals(entries: readonly Entry[], usagePositionals: readonly UsagePositional[], subcommands: readonly CliSubcommand[]): CliPositional[] {
  // a commands section counts even when it lists only `help` (urfave/cli's `command` placeholder)
  const hasCommands = subcommands.length > 0 || entries.some((entry) => entry.kind === 'command');
  // (certbot `certbot [SUBCOMMAND] [options]` over a commands list the scan reads as prose: a
  // `subcommand` is the program's own command, never a value, whether or not the list was understood)
  const isCommandPlaceholder = (name: string): boolean => (hasCommands && /^(command|cmd|subcommand|commands|args?)$/i.test(name)) || /^sub-?commands?$/i.test(name);
  const fromSection = entries
    .filter((entry) => entry.kind === 'positional')
    .map(positionalFromEntry)
    .filter((found): found is SectionPositional => found !== null)
    .filter((found, _, all) => !(all.length === 1 && metavarSpellsUsage(found.positional, usagePositionals)));
  const positionals: CliPositional[] = [];
  // sqlformat's own usage string `sqlformat [OPTIONS] FILE [FILE ...]` over `positional arguments:
  // filename`: when the usage names none of the section's positionals but as many, they pair by position
  // (not a program with commands, whose generic `[args]` stands for a command's)
  const pairedByPosition =
    !hasCommands &&
    usagePositionals.length === fromSection.length &&
    !usagePositionals.some((candidate) => candidate.name === REMAINDER || fromSection.some(({ positional }) => normalized(positional.name) === normalized(candidate.name)));
  if (fromSection.length > 0) {
    fromSection.forEach(({ positional, decorated }, index) => {
      // argparse REMAINDER (`...` in the usage) is the entry at its position
      const atPosition = usagePositionals[index];
      const fromUsage =
        usagePositionals.find((candidate) => normalized(candidate.name) === normalized(positional.name)) ??
        (atPosition?.name === REMAINDER || pairedByPosition ? atPosition : undefined);
      if (fromUsage && !decorated) {
        positional.required = fromUsage.required;
        positional.variadic = fromUsage.variadic;
      }
      // typer `paths...  <list[Path]>` under `Usage: pycln [OPTIONS] [paths]...`: the entry's ellipsis
      // says variadic, not required; the usage's brackets say optional
      if (fromUsage && decorated && positional.variadic && positional.required && !fromUsage.required && fromUsage.variadic) positional.required = false;
      const spread = fromUsage === undefined && !decorated && !hasCommands && fromSection.length === 1 ? spreadOverUsage(usagePositionals, positional.name) : null;
      if (spread !== null) Object.assign(positional, spread);
      const fromCommand = fromUsage === undefined && !decorated && spread === null ? bracketInCommandEntry(entries, positional.name) : null;
      if (fromCommand !== null) positional.required = fromCommand === '<';
      if (!isCommandPlaceholder(positional.name)) positionals.push(positional);
    });
  } else {
    for (const candidate of usagePositionals) {
      if (candidate.name === REMAINDER) {
        positionals.push({ name: 'args', required: false, variadic: true });
        continue;
      }
      if (isCommandPlaceholder(candidate.name)) continue;
      if (subcommands.some((command) => command.name === candidate.name)) continue;
      positionals.push({ name: candidate.name, required: candidate.required, variadic: candidate.variadic });
    }
  }
  // (a name the usage writes twice in a row as two required arguments, socat `<bi-address> <bi-address>`, stays twice)
  const twice = (name: string): boolean => usagePositionals.some((candidate, index) => candidate.name === name && candidate.required && usagePositionals[index + 1]?.name === name && usagePositionals[index + 1]?.required === true);
  return positionals.filter((positional, index) => positionals.slice(0, index).filter((other) => other.name === positional.name).length < (twice(positional.name) ? 2 : 1)).slice(0, MAX_POSITIONALS);
}

/**
 * untun (citty) `Usage: untun [tunnel] [url] [options] [-- ...extraArgs]` over an `Arguments:` list of
 * `url` alone: the arguments after `--` are passed through to another program, so the list leaves
 * them out; the form's `[-- ...name]` (or `[-- <name>...]`) still names them, optional and repeated.
 */
export function withPassThroughPositional(positionals: CliPositional[], forms: readonly string[]): CliPositional[] {
  for (const form of forms) {
    const passed = /\[--\s+(?:\.{3}([A-Za-z][\w-]{0,40})|<([A-Za-z][\w-]{0,40})>\.{3}|([A-Za-z][\w-]{0,40})\.{3})\]/.exec(form);
    const name = passed?.[1] ?? passed?.[2] ?? passed?.[3];
    if (name === undefined || positionals.some((positional) => positional.variadic || positional.name === name)) continue;
    return [...positionals, { name, required: false, variadic: true }];
  }
  return positionals;
}
