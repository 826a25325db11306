/**
 * Subcommands' own options and positionals: runs `<program> <sub> --help` (then `-h`) for each listed
 * subcommand and keeps the options the root does not also have (cobra repeats the persistent flags
 * under "Global Flags:") and the positionals its usage line shows (`git clone [--] <repo> [<dir>]`),
 * except ones the root also has, the subcommand's own name, and any of a subcommand that has
 * subcommands of its own (its `<COMMAND>` placeholder is no value). Bounded: at most `maxCommands` subcommands and a total time budget; a subcommand whose
 * help is unusable, identical to the root's, or past the budget simply keeps no options of its own.
 * Each answer is cached by the component's cache key and the subcommand's name.
 */
import { createHash } from 'node:crypto';
import { acceptableHelpRun, outputText, type HelpCache, type HelpRunner } from './capture.ts';
import { parseHelp } from './parse-help.ts';
import { setSources } from './reader/claims.ts';
import type { CliOption, CliPositional, CliSpec, CliSubcommand } from './spec.ts';

export const MAX_SUBCOMMAND_HELPS = 32;
export const SUBCOMMAND_HELP_BUDGET_MS = 20_000;

export interface SubcommandHelpOptions {
  maxCommands?: number;
  /** Total time for all subcommands' help runs. */
  budgetMs?: number;
  cache?: HelpCache;
  /** The root help's cache key; with `cache`, each subcommand's help is cached under a key derived from it. */
  cacheKey?: string;
  /** The root help text: a subcommand answering with it (the program ignored the subcommand) is skipped. */
  rootHelp?: string;
}

export interface SubcommandHelpResult {
  spec: CliSpec;
  /** Subcommands whose help gave options or positionals. */
  modeled: string[];
  /** Subcommands not asked: over the count limit or the time budget. */
  skipped: string[];
  /** Of those, the ones the time budget left out (another, less busy load may ask them). */
  outOfTime: string[];
}

/** The `flag` recorded in the cache for a subcommand without usable help, so it is not asked again. */
const NO_HELP = 'none';

function sameOption(a: CliOption, b: CliOption): boolean {
  if (a.long !== null && b.long !== null) return a.long === b.long;
  return a.long === null && b.long === null && a.short === b.short;
}

async function subcommandHelpText(name: string, run: HelpRunner, options: SubcommandHelpOptions): Promise<string | null> {
  const key = options.cache && options.cacheKey ? createHash('sha256').update(options.cacheKey).update('\0subcommand\0').update(name).digest('hex') : undefined;
  if (key !== undefined) {
    const cached = await options.cache?.get(key).catch(() => undefined);
    if (cached !== undefined) return cached.flag === NO_HELP ? null : cached.text;
  }
  let found: { text: string; flag: string } | null = null;
  for (const flag of ['--help', '-h']) {
    const output = await run([name, flag]).catch(() => null);
    if (output === null) continue;
    const text = outputText(output);
    if (!acceptableHelpRun(output, text)) continue;
    if (options.rootHelp !== undefined && text.trim() === options.rootHelp.trim()) break;
    found = { text, flag };
    break;
  }
  if (key !== undefined) await options.cache?.set(key, found ?? { text: '', flag: NO_HELP }).catch(() => undefined);
  return found?.text ?? null;
}

function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The subcommand's own parameters from its parsed help (see the module comment for what is left out). */
function ownParameters(root: CliSpec, command: CliSubcommand, help: CliSpec): { options: CliOption[]; positionals: CliPositional[] } {
  const options = help.options.filter((option) => !root.options.some((rootOption) => sameOption(rootOption, option)));
  const positionals =
    help.subcommands.length > 0
      ? []
      : help.positionals.filter(
          (positional) =>
            positional.name !== command.name && !root.positionals.some((rootPositional) => normalizedName(rootPositional.name) === normalizedName(positional.name)),
        );
  return { options, positionals };
}

/** A copy of `spec` whose subcommands carry their own options and positionals, from their help. */
export async function withSubcommandOptions(spec: CliSpec, run: HelpRunner, options: SubcommandHelpOptions = {}): Promise<SubcommandHelpResult> {
  const maxCommands = options.maxCommands ?? MAX_SUBCOMMAND_HELPS;
  const deadline = Date.now() + (options.budgetMs ?? SUBCOMMAND_HELP_BUDGET_MS);
  const modeled: string[] = [];
  const skipped: string[] = [];
  const outOfTime: string[] = [];
  const subcommands: CliSubcommand[] = [];
  for (const [index, command] of spec.subcommands.entries()) {
    const known = command.options !== undefined || command.positionals !== undefined;
    if (known || index >= maxCommands || Date.now() >= deadline) {
      if (!known) skipped.push(command.name);
      if (!known && index < maxCommands) outOfTime.push(command.name);
      subcommands.push(command);
      continue;
    }
    const text = await subcommandHelpText(command.name, run, options);
    const own = text === null ? { options: [], positionals: [] } : ownParameters(spec, command, parseHelp(text));
    if (own.options.length > 0 || own.positionals.length > 0) modeled.push(command.name);
    subcommands.push({
      ...command,
      ...(own.options.length > 0 ? { options: own.options } : {}),
      ...(own.positionals.length > 0 ? { positionals: own.positionals } : {}),
    });
  }
  const next: CliSpec = { ...spec, subcommands };
  setSources(next, spec.sources);
  return { spec: next, modeled, skipped, outOfTime };
}
