/**
 * The dialect readers: ONE table of what each framework's reader reads, at which stage of the parse.
 * parse-help.ts runs the table's readers stage by stage (in table order within a stage); an option
 * reader emits its claims through the claimer it is given (`help:<id>.<rule>`), a positional stage
 * returns its list, turned into item-level claims of that source; adding a dialect means adding a row here (and
 * its module in this folder), never editing the core. A reader keys on its own notation (each
 * module's header says which), so it reads the same whatever the fingerprint says; the fingerprint
 * (reader/fingerprint.ts) names the dialect its generic entry reads are attributed to.
 *
 * Stages, in parse order:
 * - `own-lines`: takes the options out of lines in the dialect's own layout before the line scan
 *   (Go `flag`); a help read so is complete, so no value-taking cue of the generic readers applies;
 * - `usage-title`: a title line naming the program (`Usage of NAME:`), kept out of the scan;
 * - `relayout`: rewrites the help's lines into the layout the generic line scan reads;
 * - `usage-lines`: contributes extra lines to read as usage forms;
 * - `command-words`: the words of the usage forms that name subcommands (the first reader naming any);
 * - `layout`: how the help is laid out around its usage: option lines above `Usage:` are prose
 *   (`proseAboveUsage`), root options parse after a subcommand (`optionsAfterCommand`, a rule name),
 *   the word the help flag names ends a usage form's command path (`commandName`);
 * - `type-tags`: the dialect tags every switch with its type, so an untagged option takes a value;
 * - `placeholders-by-hand`: the dialect prints no placeholder of its own (where its layout shows, a
 *   description's cues make a bare option value-taking; with `statedDefaults`, a stated default too);
 * - `bare-help`: reads options of a help that shows no placeholder at all;
 * - `stated-values`: reads values and defaults the dialect states in its own notation;
 * - `fallback-defaults`: fills defaults only the dialect's own lines state (after the generic fallback);
 * - `usage-positionals`: corrects the positionals the usage forms give;
 * - `positionals`: corrects the positionals (`shape`: after the entries, `files`: after the prose marks).
 */
import type { Entry } from '../help-scan.ts';
import type { CliOption, CliPositional } from '../spec.ts';
import type { UsageForm, UsagePositional } from '../usage.ts';
import { withDashedBareOptionNames } from '../bare-option-names.ts';
import { unbulletOptionLines } from '../bulleted-options.ts';
import { respellBoostHeads } from './boost.ts';
import { isCacDefaultUsage } from './cac.ts';
import { isCittyHelp } from './citty.ts';
import { unboxPanels } from './click.ts';
import { withPositionalOrNamedParameters } from './cyclopts.ts';
import { applyDartAllowedHelp } from './dart.ts';
import { cobraHelpCommandName, isCobraHelp } from './cobra.ts';
import { docoptCommandWords } from './docopt.ts';
import { applyFireDefaults, takeFireLines, type FireLines } from './fire.ts';
import { applyGoDefValues, extractGoFlags, goUsageOf, looksLikeGoFlag } from './goflag.ts';
import { isMeowHelp } from './meow.ts';
import { npmOptionSynopsis } from './npm.ts';
import { withPicocliArgumentFiles } from './picocli.ts';
import { unwrapThorOptions } from './thor.ts';
import { isYargsTaggedHelp } from './yargs.ts';
import { isUrfaveGenericForm, urfaveNameForm } from './urfave.ts';
import type { Claimer } from '../reader/claims.ts';

/** Options a dialect read from its own lines, and the indexes of the lines it took. */
export interface OwnLines {
  options: CliOption[];
  consumed: Set<number>;
}

/** What the readers of the later stages see of the parse. */
export interface DialectContext {
  /** The help's lines after relayout (capped). */
  lines: readonly string[];
  entries: readonly Entry[];
  /** The usage forms' texts, as the line scan found them (capped). */
  usageForms: readonly string[];
  /** The program the first usage form names, or null. */
  program: string | null;
  subcommandCount: number;
  /** Reads a usage form's positionals the way the core reads the help's own forms. */
  parseForm: (form: string) => UsagePositional[];
  /** State a reader kept from the `entries` hook (by reader id). */
  kept: Map<string, unknown>;
}

interface OptionRead {
  rule: string;
  /** Reads the options, emitting its claims through `claim` (of `help:<id>.<rule>`). */
  read: (options: CliOption[], context: DialectContext, claim: Claimer) => void;
}

interface PositionalRead {
  rule: string;
  read: (positionals: CliPositional[], context: DialectContext) => CliPositional[] | void;
}

export interface DialectReader {
  /** The `<reader>` of its claims' sources (`help:goflag.def-values`). */
  id: string;
  /** The framework of the fingerprint it belongs to, or the notation it keys on (documentation). */
  signature: string;
  ownLines?: { rule: string; shows: (lines: readonly string[]) => boolean; read: (lines: readonly string[]) => OwnLines };
  usageTitle?: { rule: string; read: (lines: readonly string[]) => { index: number; quoted: string | null; plain: string | null } | null };
  relayout?: (lines: readonly string[]) => string[];
  /** After the line scan, before options are read: takes its lines out of the entries; returns state kept for later. */
  entries?: (entries: readonly Entry[]) => unknown;
  usageLines?: (lines: readonly string[]) => string[];
  commandWords?: (forms: readonly UsageForm[], usageForms: readonly string[]) => string[];
  layout?: {
    shows: (lines: readonly string[]) => boolean;
    proseAboveUsage?: boolean;
    optionsAfterCommand?: string;
    commandName?: (lines: readonly string[]) => string | undefined;
  };
  typeTags?: (lines: readonly string[]) => boolean;
  placeholdersByHand?: { shows: (lines: readonly string[]) => boolean; statedDefaults: boolean };
  bareHelp?: OptionRead;
  statedValues?: OptionRead;
  fallbackDefaults?: OptionRead;
  usagePositionals?: { rule: string; read: (positionals: UsagePositional[], context: DialectContext) => UsagePositional[] };
  positionalShape?: PositionalRead;
  positionalFiles?: PositionalRead;
}

/** The table. Order matters only within a stage (relayout: boost heads are respelled before bullets go, then panels are unboxed). */
export const DIALECT_READERS: readonly DialectReader[] = [
  { id: 'boost', signature: 'boost::program_options `--name arg (=default)` heads', relayout: respellBoostHeads },
  { id: 'generic', signature: 'option lines behind bullets (`* -x  …`)', relayout: unbulletOptionLines },
  { id: 'click', signature: 'click (rich-click, typer): `╭─ Options ─╮` panels', relayout: unboxPanels },
  { id: 'thor', signature: 'Ruby Thor: `Options:` with `[--name=NAME]` heads wrapped in brackets', relayout: unwrapThorOptions },
  { id: 'generic', signature: 'option names listed without dashes under an options title', relayout: withDashedBareOptionNames },
  { id: 'npm', signature: 'npm: an options synopsis of bracket groups under `Options:`', usageLines: npmOptionSynopsis },
  { id: 'docopt', signature: 'docopt: forms starting with different bare words, `(a | b)` word groups', commandWords: docoptCommandWords },
  {
    id: 'cobra',
    signature: 'cobra: `Use "x [command] --help" for more information`, `Global Flags:`, `-h, --help  help for x`',
    layout: { shows: isCobraHelp, proseAboveUsage: true, optionsAfterCommand: 'persistent-flags' },
  },
  { id: 'cobra', signature: 'cobra: `-h, --help  help for x` names the command', layout: { shows: () => true, commandName: cobraHelpCommandName } },
  { id: 'yargs', signature: 'yargs: `--help  Show help  [boolean]`', typeTags: isYargsTaggedHelp },
  { id: 'meow', signature: 'meow: `  Usage` over `    $ prog`, `  Options`', placeholdersByHand: { shows: isMeowHelp, statedDefaults: true } },
  { id: 'citty', signature: 'citty: `USAGE prog …` on one line, `OPTIONS`', placeholdersByHand: { shows: isCittyHelp, statedDefaults: false } },
  { id: 'goflag', signature: 'Go flag: `  -name type` over a tab-indented usage', ownLines: { rule: 'flag-line', shows: looksLikeGoFlag, read: extractGoFlags } },
  { id: 'goflag', signature: 'Go flag: `Usage of NAME:`', usageTitle: { rule: 'usage-of', read: goUsageOf } },
  { id: 'goflag', signature: 'goflag: `-name` flags printing `(default: DefValue)` and no placeholder', bareHelp: { rule: 'def-values', read: (options, _context, claim) => applyGoDefValues(options, claim) } },
  { id: 'dart', signature: 'Dart args: `--name=<VALUE>` over `[value]  help` lines', statedValues: { rule: 'allowed-help', read: (options, context, claim) => applyDartAllowedHelp(options, context.lines, claim) } },
  {
    id: 'fire',
    signature: 'Python Fire: `Type:` / `Default:` lines under each flag',
    entries: takeFireLines,
    fallbackDefaults: { rule: 'defaults', read: (options, context, claim) => applyFireDefaults(options, context.entries, (context.kept.get('fire') as FireLines | undefined) ?? new Map(), claim) },
  },
  {
    id: 'urfave',
    signature: 'urfave: the generic `[global options] command [command options] [arguments...]` form',
    usagePositionals: {
      rule: 'name-form',
      read: (positionals, context) => {
        const form = context.subcommandCount === 0 && context.program !== null && isUrfaveGenericForm(context.usageForms[0]) ? urfaveNameForm(context.lines, context.program) : null;
        return form === null ? positionals : context.parseForm(form);
      },
    },
  },
  {
    id: 'cac',
    signature: 'cac: its default `$ prog <command> [options]` usage',
    usagePositionals: { rule: 'default-usage', read: (positionals, context) => (context.subcommandCount === 0 && isCacDefaultUsage(context.usageForms) ? [] : positionals) },
  },
  { id: 'cyclopts', signature: 'cyclopts: parameters given by position or by name', positionalShape: { rule: 'positional-or-named', read: (positionals, context) => withPositionalOrNamedParameters(positionals, context.lines) } },
  { id: 'picocli', signature: 'picocli: `[@<filename>...]` argument files', positionalFiles: { rule: 'argument-files', read: (positionals, context) => withPicocliArgumentFiles(positionals, context.lines) } },
];

/** The help's lines after every reader's relayout, in table order. */
export function relayout(lines: string[]): string[] {
  return DIALECT_READERS.reduce<string[]>((current, reader) => (reader.relayout === undefined ? current : reader.relayout(current)), lines);
}

/** The readers whose layout says the help's placeholders are written by hand (meow, citty). */
export function placeholdersByHand(lines: readonly string[]): { any: boolean; statedDefaults: boolean } {
  const showing = DIALECT_READERS.filter((reader) => reader.placeholdersByHand?.shows(lines) === true);
  return { any: showing.length > 0, statedDefaults: showing.some((reader) => reader.placeholdersByHand?.statedDefaults === true) };
}

/** Whether a reader's dialect tags every switch with its type (yargs): an untagged option takes a value. */
export function tagsEveryType(lines: readonly string[]): boolean {
  return DIALECT_READERS.some((reader) => reader.typeTags?.(lines) === true);
}

/** What the layout rows of the dialects whose layout shows say (the first to say each). */
export interface DialectLayout {
  proseAboveUsage: boolean;
  /** `help:<id>.<rule>` of the row saying root options parse after a subcommand, or null. */
  optionsAfterCommand: string | null;
  commandName: string | undefined;
}

export function dialectLayout(lines: readonly string[]): DialectLayout {
  const layout: DialectLayout = { proseAboveUsage: false, optionsAfterCommand: null, commandName: undefined };
  for (const reader of DIALECT_READERS) {
    const row = reader.layout;
    if (row === undefined || !row.shows(lines)) continue;
    if (row.proseAboveUsage === true) layout.proseAboveUsage = true;
    if (row.optionsAfterCommand !== undefined) layout.optionsAfterCommand ??= `help:${reader.id}.${row.optionsAfterCommand}`;
    layout.commandName ??= row.commandName?.(lines);
  }
  return layout;
}

/** The options of the first reader whose own layout the help shows, with its source; none otherwise. */
export function readOwnLines(lines: readonly string[]): OwnLines & { source: string | null } {
  for (const reader of DIALECT_READERS) {
    const row = reader.ownLines;
    if (row !== undefined && row.shows(lines)) return { ...row.read(lines), source: `help:${reader.id}.${row.rule}` };
  }
  return { options: [], consumed: new Set(), source: null };
}

/** The first usage title a reader finds (`Usage of NAME:`), with its source, or null. */
export function readUsageTitle(lines: readonly string[]): { index: number; quoted: string | null; plain: string | null; source: string } | null {
  for (const reader of DIALECT_READERS) {
    const row = reader.usageTitle;
    const title = row?.read(lines) ?? null;
    if (row !== undefined && title !== null) return { ...title, source: `help:${reader.id}.${row.rule}` };
  }
  return null;
}
