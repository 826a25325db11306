/**
 * oclif manifests (`<tool>.oclif.manifest.json`, what `oclif manifest` writes) → `CliSpec`.
 *
 * Every command of `commands` (keyed by id, `plugins:install`) becomes a subcommand called by its id as
 * one word, which oclif accepts whatever its topic separator; a manifest whose only command is the
 * single-command id `.` describes the root instead. Hidden commands and flags are left out, and so are
 * `help`/`version` flags. Per flag: `char` (short), `aliases`/`charAliases`, `type` (`boolean` is a
 * flag, `option` takes a value), `helpValue` (value name), `options` (choices), `default`, `multiple`
 * (repeatable), `required`, `allowNo` (`--no-<name>`), `description` (else `summary`). Args, as an
 * object (oclif 2+) or an array (oclif 1): `name`, `description`, `required`, `options` (kept in the
 * description), `default`; a command with `strict: false` takes any number more, so its last arg is
 * variadic. The manifest has no program name: the file stem is used. oclif declares no effect.
 */
import type { CliOption, CliPositional, CliSpec, CliSubcommand } from '../spec.ts';
import {
  blankOption,
  defaultText,
  descriptionText,
  finishSidecarSpec,
  MAX_SIDECAR_POSITIONALS,
  readSidecarSafely,
  SidecarBudget,
  SidecarSpecError,
  valueTypeOf,
  type SidecarReadOptions,
  type SidecarSpecResult,
} from './spec-build.ts';

type Json = Record<string, unknown>;

/** oclif's id of the command of a single-command CLI. */
const SINGLE_COMMAND_ID = '.';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : [];
}

function readFlag(key: string, raw: unknown, budget: SidecarBudget): CliOption | undefined {
  if (!isObject(raw)) throw new SidecarSpecError(`flag "${key.slice(0, 60)}" is not an object`);
  if (raw['hidden'] === true) return undefined;
  const name = typeof raw['name'] === 'string' && raw['name'] !== '' ? raw['name'] : key;
  if (name === 'help' || name === 'version' || raw['type'] === 'help' || raw['type'] === 'version') return undefined;
  if (!budget.takeOption()) return undefined;
  const option = blankOption();
  option.long = name;
  option.short = typeof raw['char'] === 'string' && raw['char'].length === 1 ? raw['char'] : null;
  option.aliases = [...strings(raw['aliases']).map((alias) => `--${alias}`), ...strings(raw['charAliases']).filter((alias) => alias.length === 1).map((alias) => `-${alias}`)];
  option.description = descriptionText(raw['description']) ?? descriptionText(raw['summary']);
  option.required = raw['required'] === true;
  option.repeatable = raw['multiple'] === true;
  if (raw['type'] === 'option') {
    option.takes_value = true;
    option.value_name = typeof raw['helpValue'] === 'string' ? raw['helpValue'].replace(/^<|>$/g, '') : name.toUpperCase();
    const choices = strings(raw['options']);
    option.choices = choices.length > 0 ? [...new Set(choices)] : null;
    option.type = option.choices === null ? valueTypeOf(option.value_name) : 'string';
    option.default = defaultText(raw['default']);
  } else if (raw['type'] !== 'boolean') {
    throw new SidecarSpecError(`flag "${name.slice(0, 60)}": type ${JSON.stringify(raw['type'])?.slice(0, 40)} is neither "boolean" nor "option"`);
  } else {
    if (raw['allowNo'] === true) option.negation = `--no-${name}`;
    if (raw['default'] === true && option.negation !== null) option.default = true;
  }
  return option;
}

function readArgs(raw: unknown, strict: boolean, budget: SidecarBudget): CliPositional[] {
  const entries: [string, unknown][] = Array.isArray(raw) ? raw.map((arg, index) => [String(index), arg]) : isObject(raw) ? Object.entries(raw) : [];
  const positionals: CliPositional[] = [];
  for (const [key, arg] of entries) {
    if (!isObject(arg)) throw new SidecarSpecError(`arg "${key.slice(0, 60)}" is not an object`);
    if (arg['hidden'] === true) continue;
    if (positionals.length >= MAX_SIDECAR_POSITIONALS) {
      budget.note(`more than ${MAX_SIDECAR_POSITIONALS} args on one command: the rest are left out`);
      break;
    }
    const name = typeof arg['name'] === 'string' && arg['name'] !== '' ? arg['name'] : key;
    const choices = strings(arg['options']);
    const help = descriptionText(arg['description']);
    const description = choices.length === 0 ? help : `${help === null ? '' : `${help} `}(one of: ${choices.join(', ')})`;
    positionals.push({
      name,
      required: arg['required'] === true && arg['default'] === undefined,
      variadic: false,
      type: choices.length > 0 ? 'string' : valueTypeOf(name),
      ...(description !== null ? { description } : {}),
    });
  }
  const last = positionals.at(-1);
  if (!strict && last !== undefined) last.variadic = true;
  return positionals;
}

function readCommand(id: string, raw: unknown, budget: SidecarBudget): { options: CliOption[]; positionals: CliPositional[]; description: string | null } {
  if (!isObject(raw)) throw new SidecarSpecError(`command "${id.slice(0, 60)}" is not an object`);
  const flags = raw['flags'] === undefined ? {} : raw['flags'];
  if (!isObject(flags)) throw new SidecarSpecError(`command "${id.slice(0, 60)}": flags is not an object`);
  const options: CliOption[] = [];
  for (const [key, value] of Object.entries(flags)) {
    const option = readFlag(key, value, budget);
    if (option !== undefined) options.push(option);
  }
  return {
    options,
    positionals: readArgs(raw['args'], raw['strict'] !== false, budget),
    description: descriptionText(raw['summary']) ?? descriptionText(typeof raw['description'] === 'string' ? raw['description'].trim().split('\n')[0] : null),
  };
}

/** Reads an oclif manifest; never throws (a bad manifest is `{ ok: false, message }`). */
export function readOclifManifest(source: string, options: SidecarReadOptions): SidecarSpecResult {
  return readSidecarSafely(() => {
    const manifest: unknown = JSON.parse(source);
    if (!isObject(manifest) || !isObject(manifest['commands'])) throw new SidecarSpecError('not an oclif manifest: no "commands" object');
    const budget = new SidecarBudget();
    const commands = Object.entries(manifest['commands']);
    const draft: CliSpec = { name: options.fallbackName, description: '', options: [], positionals: [], subcommands: [] };
    const single = commands.length === 1 && commands[0]?.[0] === SINGLE_COMMAND_ID ? commands[0] : undefined;
    if (single !== undefined) {
      const root = readCommand(single[0], single[1], budget);
      return finishSidecarSpec({ ...draft, description: root.description ?? '', options: root.options, positionals: root.positionals }, 'oclif', options, budget.notes);
    }
    const subcommands: CliSubcommand[] = [];
    for (const [id, command] of commands) {
      if (isObject(command) && command['hidden'] === true) continue;
      if (/\s/.test(id) || id === '') throw new SidecarSpecError(`command id "${id.slice(0, 60)}" is not one word`);
      if (!budget.takeSubcommand()) break;
      const read = readCommand(id, command, budget);
      subcommands.push({
        name: id,
        description: read.description,
        ...(read.options.length > 0 ? { options: read.options } : {}),
        ...(read.positionals.length > 0 ? { positionals: read.positionals } : {}),
      });
    }
    return finishSidecarSpec({ ...draft, subcommands, ...(subcommands.length > 0 ? { command_required: true } : {}) }, 'oclif', options, budget.notes);
  });
}
