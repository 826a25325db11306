/**
 * jdx/usage specs (`<tool>.usage.kdl`, what clap_usage and `usage generate` emit) → `CliSpec`.
 *
 * Read (KDL v2, or v1 as older specs are written): `bin` (else `name`) as the program, `about` (else the
 * first line of `long_about`) as its description, `subcommand_required`, the top-level `effect`, and
 * for the root and every `cmd` (nested ones flattened to `parent child`, with `path` giving the words):
 * - `flag "-s --long <value>"` with `help`/`long_help`, `required`, `var` or an ellipsis (repeatable),
 *   `count` (repeatable flag), `default`, `negate`, `value_optional`, `hide` (left out), `global`,
 *   `effect`, `alias` children, an `arg` child (the value), `choices` (strict ones only: a
 *   `strict=#false` list is a suggestion, not an enum), a `<a> <b>` pair (two values per use);
 * - `arg "<name>"` / `"[name]"` / `"<name>..."` with `required`, `var`, `default`, `help`, `choices`
 *   (a positional keeps them in its description), `hide`, `effect`;
 * - `cmd "name"` with `help`/`long_help`, `hide` (left out), `subcommand_required` (then the command is
 *   not callable alone), `effect`.
 * Flags named `--help`/`--version` (or with a help/version `action`) stay out, as with text help.
 * Not read: `include` (a sidecar never opens another file), `mount` and `complete` (they run
 * commands), `flagset`/`use`, `config`, `env`. A flag on an intermediate command reaches the commands
 * under it only when it is `global` (the others would have to sit between the command words).
 *
 * Effects follow usage's rule: a command's effect is the maximum of its own and its flags' and
 * arguments'; effects are not inherited by subcommands.
 */
import { parseCompat } from '@bgotink/kdl/v1-compat';
import type { Node } from '@bgotink/kdl';
import { maxEffect, TOOL_EFFECTS, type ToolEffect } from '../../permission.ts';
import type { CliOption, CliPositional, CliSpec, CliSubcommand } from '../spec.ts';
import {
  blankOption,
  defaultText,
  descriptionText,
  finishSidecarSpec,
  MAX_SIDECAR_DEPTH,
  MAX_SIDECAR_POSITIONALS,
  readSidecarSafely,
  SidecarBudget,
  SidecarSpecError,
  valueTypeOf,
  type SidecarReadOptions,
  type SidecarSpecResult,
} from './spec-build.ts';

type KdlValue = ReturnType<Node['getArgument']>;

const ELLIPSIS = /(?:\.\.\.|…)$/;
const HELP_ACTIONS = new Set(['help', 'help_short', 'help_long', 'help_all', 'version']);

function text(value: KdlValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function flag(value: KdlValue): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** A node's setting, written as a property (`help="…"`) or a child node (`help "…"`). */
function setting(node: Node, name: string): KdlValue | undefined {
  if (node.hasProperty(name)) return node.getProperty(name);
  const child = node.children?.findNodeByName(name);
  return child?.getArgument(0);
}

function effectValue(raw: KdlValue | undefined): ToolEffect | undefined {
  const value = text(raw);
  if (value === undefined) return undefined;
  if (!(TOOL_EFFECTS as readonly string[]).includes(value)) throw new SidecarSpecError(`effect "${value.slice(0, 40)}" is not one of ${TOOL_EFFECTS.join(', ')}`);
  return value as ToolEffect;
}

function effectOf(node: Node): ToolEffect | undefined {
  return effectValue(setting(node, 'effect'));
}

function helpOf(node: Node): string | null {
  const short = descriptionText(text(setting(node, 'help')));
  if (short !== null) return short;
  const long = text(setting(node, 'long_help'));
  return descriptionText(long?.trim().split('\n')[0]);
}

function childrenNamed(node: Node, name: string): Node[] {
  return node.children?.findNodesByName(name) ?? [];
}

/** A `choices` child's values when they are a closed list (`strict=#false` lists are suggestions). */
function choicesOf(node: Node): string[] | null {
  const choices = node.children?.findNodeByName('choices');
  if (choices === undefined || flag(choices.getProperty('strict')) === false || choices.hasProperty('env')) return null;
  const values = [
    ...choices.getArguments().filter((value): value is string => typeof value === 'string'),
    ...childrenNamed(choices, 'choice')
      .filter((choice) => flag(choice.getProperty('hide')) !== true)
      .map((choice) => text(choice.getArgument(0)))
      .filter((value): value is string => value !== undefined),
  ];
  return values.length > 0 ? [...new Set(values)] : null;
}

/** `<name>`, `[name]`, `<name>...`, `<-- name>` → the bare name and what the notation says. */
function argNotation(raw: string): { name: string; optional: boolean; variadic: boolean } {
  let value = raw.trim();
  const variadic = ELLIPSIS.test(value);
  value = value.replace(ELLIPSIS, '');
  const optional = value.startsWith('[');
  value = value.replace(/^[<[]/, '').replace(/[>\]]$/, '').replace(/^--\s+/, '');
  return { name: value.replace(ELLIPSIS, '').trim(), optional, variadic };
}

function readFlag(node: Node, budget: SidecarBudget): { option: CliOption; global: boolean } | undefined {
  const usage = text(node.getArgument(0));
  if (usage === undefined) throw new SidecarSpecError('a flag without its names (`flag "-s --long <value>"`)');
  if (flag(setting(node, 'hide')) === true) return undefined;
  const action = text(node.getProperty('action'));
  if (action !== undefined && HELP_ACTIONS.has(action)) return undefined;
  const option = blankOption();
  const values: string[] = [];
  let repeatable = flag(setting(node, 'var')) === true || flag(setting(node, 'count')) === true;
  for (const token of usage.trim().split(/\s+/).slice(0, 16)) {
    if (token.startsWith('<') || token.startsWith('[')) {
      const value = argNotation(token);
      values.push(value.name);
      if (value.variadic) repeatable = true;
      continue;
    }
    if (!token.startsWith('-')) throw new SidecarSpecError(`flag "${usage.slice(0, 60)}": "${token.slice(0, 40)}" is neither a flag name nor a <value>`);
    if (ELLIPSIS.test(token)) repeatable = true;
    const name = token.replace(ELLIPSIS, '');
    if (name.startsWith('--')) {
      if (option.long === null) option.long = name.slice(2);
      else option.aliases.push(name);
    } else if (name.length === 2 && option.short === null) {
      option.short = name.slice(1);
    } else {
      option.aliases.push(name);
    }
  }
  for (const alias of childrenNamed(node, 'alias')) {
    if (flag(alias.getProperty('hide')) === true) continue;
    for (const value of alias.getArguments()) if (typeof value === 'string' && value.startsWith('-')) option.aliases.push(value);
  }
  if (option.long === 'help' || option.long === 'version') return undefined;
  const valueNode = node.children?.findNodeByName('arg');
  if (valueNode !== undefined && values.length === 0) {
    const value = argNotation(text(valueNode.getArgument(0)) ?? 'VALUE');
    values.push(value.name);
    if (value.variadic || flag(valueNode.getProperty('var')) === true) repeatable = true;
  }
  if (!budget.takeOption()) return undefined;
  option.description = helpOf(node);
  option.required = flag(setting(node, 'required')) === true;
  option.repeatable = repeatable;
  const negate = text(setting(node, 'negate'));
  if (negate !== undefined && negate.startsWith('-')) option.negation = negate;
  const effect = maxEffect(effectOf(node), valueNode === undefined ? undefined : effectOf(valueNode));
  if (effect !== undefined) option.effect = effect;
  const defaultValue = setting(node, 'default');
  if (values.length > 0) {
    option.takes_value = true;
    option.value_name = values[0] ?? 'VALUE';
    option.type = valueTypeOf(option.value_name);
    if (values.length > 1) option.value_count = values.length;
    option.choices = choicesOf(node) ?? (valueNode === undefined ? null : choicesOf(valueNode));
    if (option.choices !== null) option.type = 'string';
    option.default = defaultText(defaultValue);
    if (flag(setting(node, 'value_optional')) === true) option.value_optional = true;
  } else if (flag(defaultValue) === true && option.negation !== null) {
    option.default = true;
  }
  if (option.long === null && option.short === null) {
    // Only other spellings (`-single`, a second short): the first becomes the name.
    const first = option.aliases.shift();
    if (first === undefined) throw new SidecarSpecError(`flag "${usage.slice(0, 60)}" has no name`);
    if (first.startsWith('--')) option.long = first.slice(2);
    else {
      option.long = first.slice(1);
      option.prefix = '-';
    }
  }
  return { option, global: flag(setting(node, 'global')) === true };
}

function readArg(node: Node): { positional: CliPositional; effect: ToolEffect | undefined } | undefined {
  const raw = text(node.getArgument(0));
  if (raw === undefined) throw new SidecarSpecError('an arg without its name (`arg "<file>"`)');
  const effect = effectOf(node);
  if (flag(setting(node, 'hide')) === true) return undefined;
  const notation = argNotation(raw);
  if (notation.name === '') throw new SidecarSpecError(`arg "${raw.slice(0, 60)}" has no name`);
  const required = flag(setting(node, 'required')) ?? (!notation.optional && setting(node, 'default') === undefined);
  const choices = choicesOf(node);
  const help = helpOf(node);
  const described = choices === null ? help : `${help === null ? '' : `${help} `}(one of: ${choices.join(', ')})`;
  const positional: CliPositional = {
    name: notation.name,
    required,
    variadic: notation.variadic || flag(setting(node, 'var')) === true,
    type: choices === null ? valueTypeOf(notation.name) : 'string',
    ...(described !== null ? { description: described } : {}),
  };
  return { positional, effect };
}

interface CommandParts {
  options: CliOption[];
  globals: CliOption[];
  positionals: CliPositional[];
  effect: ToolEffect | undefined;
}

/** The flags, args and effect of one command node (the document's top level for the root). */
function readCommandParts(nodes: readonly Node[], own: ToolEffect | undefined, budget: SidecarBudget): CommandParts {
  const parts: CommandParts = { options: [], globals: [], positionals: [], effect: own };
  for (const node of nodes) {
    const kind = node.getName();
    if (kind === 'flag') {
      const read = readFlag(node, budget);
      if (read === undefined) continue;
      parts.options.push(read.option);
      if (read.global) parts.globals.push(read.option);
      parts.effect = maxEffect(parts.effect, read.option.effect);
    } else if (kind === 'arg') {
      const read = readArg(node);
      if (read === undefined) continue;
      parts.effect = maxEffect(parts.effect, read.effect);
      if (parts.positionals.length < MAX_SIDECAR_POSITIONALS) parts.positionals.push(read.positional);
      else budget.note(`more than ${MAX_SIDECAR_POSITIONALS} args on one command: the rest are left out`);
    }
  }
  return parts;
}

function readCommands(nodes: readonly Node[], parentPath: readonly string[], inherited: readonly CliOption[], budget: SidecarBudget, into: CliSubcommand[]): void {
  for (const node of nodes) {
    if (node.getName() !== 'cmd') continue;
    const name = text(node.getArgument(0));
    if (name === undefined || name.trim() === '' || /\s/.test(name)) throw new SidecarSpecError(`cmd "${String(name).slice(0, 60)}": a command needs a one-word name`);
    if (flag(setting(node, 'hide')) === true) continue;
    const path = [...parentPath, name];
    if (path.length > MAX_SIDECAR_DEPTH) {
      budget.note(`commands nested deeper than ${MAX_SIDECAR_DEPTH} levels are left out`);
      continue;
    }
    const children = node.children?.nodes ?? [];
    const parts = readCommandParts(children, effectOf(node), budget);
    const callable = flag(setting(node, 'subcommand_required')) !== true;
    if (callable && budget.takeSubcommand()) {
      const options = [...inherited.filter((option) => !parts.options.some((own) => own.long !== null && own.long === option.long)), ...parts.options];
      into.push({
        name: path.join(' '),
        description: helpOf(node),
        ...(options.length > 0 ? { options } : {}),
        ...(parts.positionals.length > 0 ? { positionals: parts.positionals } : {}),
        ...(path.length > 1 ? { path } : {}),
        ...(parts.effect !== undefined ? { effect: parts.effect } : {}),
      });
    }
    readCommands(children, path, [...inherited, ...parts.globals], budget, into);
  }
}

/** Reads a usage KDL spec; never throws (a bad spec is `{ ok: false, message }`). */
export function readUsageSpec(source: string, options: SidecarReadOptions): SidecarSpecResult {
  return readSidecarSafely(() => {
    const document = parseCompat(source);
    const budget = new SidecarBudget();
    const top = document.nodes;
    const first = (name: string): KdlValue | undefined => top.find((node) => node.getName() === name)?.getArgument(0);
    const root = readCommandParts(top, effectValue(first('effect')), budget);
    const subcommands: CliSubcommand[] = [];
    readCommands(top, [], [], budget, subcommands);
    const about = descriptionText(text(first('about'))) ?? descriptionText(text(first('long_about'))?.trim().split('\n')[0]);
    const required = flag(first('subcommand_required'));
    const draft: CliSpec = {
      name: text(first('bin')) ?? text(first('name')) ?? options.fallbackName,
      description: about ?? '',
      options: root.options,
      positionals: root.positionals,
      subcommands,
      ...(required !== undefined && subcommands.length > 0 ? { command_required: required } : {}),
      ...(root.effect !== undefined ? { effect: root.effect } : {}),
    };
    return finishSidecarSpec(draft, 'usage', options, budget.notes);
  });
}
