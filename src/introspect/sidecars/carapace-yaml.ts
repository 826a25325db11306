/**
 * carapace specs (`<tool>.carapace.yaml`, carapace-spec's command YAML) → `CliSpec`.
 *
 * Read: `name` (its first word: carapace allows a usage line there), `description`, `flags` and
 * `persistentflags` (keys `-s, --long` plus modifiers: `=` takes a value, `?` an optional one, `*`
 * repeatable, `!` required, `&` hidden and left out; non-posix `-long` and `-s, -long` spellings; a
 * value may be the description or `{description, nargs}`), `commands` (nested ones flattened to
 * `parent child`, `hidden` ones left out; a command's persistent flags reach the commands under it),
 * and from `completion`: `positional` (one optional positional per entry, `arg1`, `arg2`, …),
 * `positionalany` (a variadic `args`), and the `$files` / `$directories` macros, which type a flag or
 * positional as a path. Completion values are suggestions, never choices. `run` (a command to run)
 * and `exclusiveflags` are not read. carapace declares no effect.
 */
import { parse as parseYaml } from 'yaml';
import type { CliOption, CliPositional, CliSpec, CliSubcommand, CliValueType } from '../spec.ts';
import {
  blankOption,
  descriptionText,
  finishSidecarSpec,
  MAX_SIDECAR_DEPTH,
  MAX_SIDECAR_POSITIONALS,
  readSidecarSafely,
  SidecarBudget,
  SidecarSpecError,
  type SidecarReadOptions,
  type SidecarSpecResult,
} from './spec-build.ts';

type Json = Record<string, unknown>;

const MODIFIER_CHARACTERS = new Set(['=', '*', '?', '&', '!']);
const PATH_MACROS = /^\$(files|directories)\b/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `path` when a completion list offers files or directories (`$files`, `$directories(…)`), else undefined. */
function completionType(values: unknown): CliValueType | undefined {
  return Array.isArray(values) && values.some((value) => typeof value === 'string' && PATH_MACROS.test(value)) ? 'path' : undefined;
}

/** The modifier suffix of a flag key (`=*`), found from the end (linear in the key's length). */
function modifiersOf(key: string): string {
  let start = key.length;
  while (start > 0 && MODIFIER_CHARACTERS.has(key[start - 1] ?? '')) start -= 1;
  return key.slice(start);
}

function readFlag(key: string, raw: unknown, completions: Json, budget: SidecarBudget): CliOption | undefined {
  const modifiers = modifiersOf(key);
  if (modifiers.includes('&')) return undefined;
  const spellings = key.slice(0, key.length - modifiers.length).split(', ');
  if (spellings.length > 2 || spellings.some((spelling) => !/^--?[^\s=*?&!-][^\s=*?&!]*$/.test(spelling))) throw new SidecarSpecError(`flag "${key.slice(0, 60)}" is not a carapace flag (\`-s, --long=\`)`);
  const option = blankOption();
  const [first, second] = spellings as [string, string | undefined];
  if (second === undefined) {
    if (first.startsWith('--')) option.long = first.slice(2);
    else if (first.length === 2) option.short = first.slice(1);
    else {
      option.long = first.slice(1);
      option.prefix = '-';
    }
  } else {
    // `-s, --long`, `-short, -long` or `-mixed, --mixed`: the second is the long name.
    option.long = second.replace(/^--?/, '');
    if (!second.startsWith('--')) option.prefix = '-';
    if (first.length === 2) option.short = first.slice(1);
    else option.aliases.push(first);
  }
  if (option.long === 'help' || option.long === 'version') return undefined;
  if (!budget.takeOption()) return undefined;
  const details = isObject(raw) ? raw : { description: raw };
  option.description = descriptionText(details['description']);
  option.repeatable = modifiers.includes('*');
  option.required = modifiers.includes('!');
  if (modifiers.includes('=') || modifiers.includes('?')) {
    option.takes_value = true;
    option.value_name = (option.long ?? option.short ?? 'value').toUpperCase();
    option.type = completionType(completions[option.long ?? ''] ?? completions[option.short ?? '']) ?? 'string';
    if (modifiers.includes('?')) option.value_optional = true;
    const nargs = details['nargs'];
    if (typeof nargs === 'number' && Number.isInteger(nargs) && nargs >= 2 && nargs <= 16) option.value_count = nargs;
    else if (nargs === -1) option.repeatable = true;
  }
  return option;
}

function readFlags(raw: unknown, completions: Json, budget: SidecarBudget, where: string): CliOption[] {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) throw new SidecarSpecError(`${where} is not a map of flags`);
  const options: CliOption[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const option = readFlag(key, value, completions, budget);
    if (option !== undefined) options.push(option);
  }
  return options;
}

function readPositionals(completion: Json, budget: SidecarBudget): CliPositional[] {
  const positionals: CliPositional[] = [];
  const fixed = Array.isArray(completion['positional']) ? completion['positional'] : [];
  fixed.slice(0, MAX_SIDECAR_POSITIONALS).forEach((values, index) => {
    positionals.push({ name: `arg${index + 1}`, required: false, variadic: false, type: completionType(values) ?? 'string' });
  });
  if (fixed.length > MAX_SIDECAR_POSITIONALS) budget.note(`more than ${MAX_SIDECAR_POSITIONALS} positionals on one command: the rest are left out`);
  if (completion['positionalany'] !== undefined) positionals.push({ name: 'args', required: false, variadic: true, type: completionType(completion['positionalany']) ?? 'string' });
  return positionals;
}

interface CommandParts {
  name: string;
  description: string | null;
  options: CliOption[];
  persistent: CliOption[];
  positionals: CliPositional[];
}

function readCommand(raw: Json, budget: SidecarBudget): CommandParts {
  const name = typeof raw['name'] === 'string' ? (raw['name'].trim().split(/\s+/)[0] ?? '') : '';
  if (name === '') throw new SidecarSpecError('a command without a name');
  const completion = isObject(raw['completion']) ? raw['completion'] : {};
  const completions = isObject(completion['flag']) ? completion['flag'] : {};
  return {
    name,
    description: descriptionText(raw['description']),
    options: readFlags(raw['flags'], completions, budget, `flags of "${name.slice(0, 60)}"`),
    persistent: readFlags(raw['persistentflags'], completions, budget, `persistentflags of "${name.slice(0, 60)}"`),
    positionals: readPositionals(completion, budget),
  };
}

function readCommands(raw: unknown, parentPath: readonly string[], inherited: readonly CliOption[], budget: SidecarBudget, into: CliSubcommand[]): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) throw new SidecarSpecError('commands is not a list');
  for (const command of raw) {
    if (!isObject(command)) throw new SidecarSpecError('a command is not a map');
    if (command['hidden'] === true) continue;
    const parts = readCommand(command, budget);
    const path = [...parentPath, parts.name];
    if (path.length > MAX_SIDECAR_DEPTH) {
      budget.note(`commands nested deeper than ${MAX_SIDECAR_DEPTH} levels are left out`);
      continue;
    }
    if (!budget.takeSubcommand()) return;
    const options = [...inherited, ...parts.persistent, ...parts.options];
    into.push({
      name: path.join(' '),
      description: parts.description,
      ...(options.length > 0 ? { options } : {}),
      ...(parts.positionals.length > 0 ? { positionals: parts.positionals } : {}),
      ...(path.length > 1 ? { path } : {}),
    });
    readCommands(command['commands'], path, [...inherited, ...parts.persistent], budget, into);
  }
}

/** Reads a carapace spec; never throws (a bad spec is `{ ok: false, message }`). */
export function readCarapaceSpec(source: string, options: SidecarReadOptions): SidecarSpecResult {
  return readSidecarSafely(() => {
    // Aliases are capped (a "billion laughs" document is refused, not expanded).
    const document: unknown = parseYaml(source, { maxAliasCount: 100, prettyErrors: false });
    if (!isObject(document)) throw new SidecarSpecError('not a carapace spec: the document is not a map');
    const budget = new SidecarBudget();
    const root = readCommand(document, budget);
    const subcommands: CliSubcommand[] = [];
    // The root's persistent flags are root options: they go before the command on the argv.
    readCommands(document['commands'], [], [], budget, subcommands);
    const draft: CliSpec = {
      name: root.name,
      description: root.description ?? '',
      options: [...root.persistent, ...root.options],
      positionals: root.positionals,
      subcommands,
    };
    return finishSidecarSpec(draft, 'carapace', options, budget.notes);
  });
}
