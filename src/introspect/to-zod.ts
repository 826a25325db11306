/**
 * The tool's input schema, derived from the CLI spec. Property names come from
 * `propertyNamesOf` — the same function `cliSpecToArgv` uses — so schema and argv cannot drift.
 */
import { z } from 'zod';
import { emptyStringIsAValue } from '../bridge/coerce.ts';
import { withDocumentedKeywords } from '../schema/documented-keywords.ts';
import { COMMAND_PROPERTY, propertyNamesOf, STDIN_PROPERTY } from './property-name.ts';
import type { CliOption, CliPositional, CliSpec, CliValueType } from './spec.ts';
import { commandOptionProperties, commandPositionalProperties } from './command-options.ts';
import { commandIsRequired } from './subcommand.ts';
import { formatArgValue } from './value-format.ts';

/** Most times a repeatable flag (`-v -v -v`) can be given. */
export const MAX_FLAG_COUNT = 100;

function scalarSchema(type: CliValueType, choices: string[] | null): z.ZodTypeAny {
  const distinct = choices === null ? [] : [...new Set(choices)];
  if (distinct.length > 0) return z.enum(distinct as [string, ...string[]]);
  switch (type) {
    case 'integer':
      return z.number().int();
    case 'number':
      return z.number().finite();
    case 'boolean':
      return z.boolean();
    case 'path':
    case 'string':
      return z.string();
  }
}

/**
 * The option's description with its notes in parentheses (a path, the default, counts). A description
 * ending in a full stop keeps it at the very end: `Stop after this many (default: 10).`
 */
function describeOption(option: CliOption): string | undefined {
  const parts: string[] = [];
  const text = option.description?.trimEnd() ?? '';
  const fullStop = /[^.]\.$/.test(text);
  if (text !== '') parts.push(fullStop ? text.slice(0, -1) : text);
  if (option.type === 'path' && option.takes_value) parts.push('(a path)');
  if (option.default !== null && option.default !== undefined) parts.push(`(default: ${formatArgValue(option.default)})`);
  if (!option.takes_value && option.repeatable) parts.push('(how many times the flag is given)');
  const count = valueCountOf(option);
  if (count > 1 || option.variadic_values === true) parts.push(option.variadic_values === true ? `(${count} or more values per use)` : `(${count} values per use)`);
  if (parts.length === 0) return undefined;
  return fullStop ? `${parts.join(' ')}.` : parts.join(' ');
}

/**
 * One use takes several of the option's choices joined by its separator (`--style header,grid`): the
 * property is an array of choices, so each is checked, and argv joins them. Without choices a list is
 * one free string already, and a repeatable option repeats the flag instead.
 */
export function isChoiceList(option: Pick<CliOption, 'takes_value' | 'value_separator' | 'choices' | 'repeatable' | 'value_count' | 'variadic_values'>): boolean {
  return (
    option.takes_value &&
    option.value_separator !== undefined &&
    option.choices !== null &&
    option.choices.length > 0 &&
    !option.repeatable &&
    valueCountOf(option) === 1 &&
    option.variadic_values !== true
  );
}

/** One use of the option takes several values, each its own argument after the flag (`value_count` > 1, or one or more). */
export function hasSeveralValues(option: Pick<CliOption, 'takes_value' | 'value_count' | 'variadic_values'>): boolean {
  return option.takes_value && (valueCountOf(option) > 1 || option.variadic_values === true);
}

/** How many values one use of the option takes (1 unless the spec says `value_count`). */
export function valueCountOf(option: Pick<CliOption, 'takes_value' | 'value_count'>): number {
  return option.takes_value && option.value_count !== undefined && option.value_count > 1 ? option.value_count : 1;
}

/**
 * The values of one use. Several values are an array of exactly `value_count` items (or at least that
 * many with `variadic_values`) rather than a positional tuple: array-form `items` is refused by some
 * providers, a sized array of one item type is accepted everywhere.
 */
function oneUseSchema(option: CliOption): z.ZodTypeAny {
  const count = valueCountOf(option);
  if (isChoiceList(option)) return z.array(scalarSchema(option.type, option.choices)).min(1);
  // argparse `nargs='+'` (`-i PKG [PKG ...]`): one or more values, each checked
  if (count === 1 && option.variadic_values === true) return z.array(scalarSchema(option.type, option.choices)).min(1);
  if (count === 1) return scalarSchema(option.type, option.choices);
  const item = scalarSchema(option.type, null);
  return option.variadic_values === true ? z.array(item).min(count) : z.array(item).length(count);
}

/**
 * An option's property. A default is documentation only (JSON Schema `default`, and `(default: …)` in
 * the description): the parser never fills it in, so the argv carries exactly what the caller sent
 * (to-argv.ts). `withDefault: false` for subcommand options: their property is shared by several
 * commands, and a default stated for one would be wrong for another.
 */
function optionSchema(option: CliOption, withDefault = true): z.ZodTypeAny {
  let schema: z.ZodTypeAny;
  if (!option.takes_value) {
    schema = option.repeatable ? z.number().int().min(0).max(MAX_FLAG_COUNT) : z.boolean();
  } else {
    const one = oneUseSchema(option);
    schema = option.repeatable ? z.array(one) : one;
  }
  const description = describeOption(option);
  if (description !== undefined) schema = schema.describe(description);
  if (option.required && withDefault) return schema;
  const fallback = withDefault ? schemaDefaultOf(option) : undefined;
  return fallback === undefined ? schema.optional() : withDocumentedKeywords(schema.optional(), { default: fallback });
}

/**
 * The option's default as the JSON Schema's documented `default`, when it fits the property's type (a
 * number for integer/number values, a boolean for plain flags, one of the choices for enums).
 */
export function schemaDefaultOf(option: CliOption): string | number | boolean | undefined {
  const value = option.default;
  // a list's default stays in the description (one scalar cannot document an array property);
  // an optional value's default (`--iso-8601[=FMT]`, FMT defaults to 'date') is what the bare flag means,
  // not what an absent one means
  if (value === null || value === undefined || option.repeatable || hasSeveralValues(option) || isChoiceList(option) || option.value_optional === true) return undefined;
  if (!option.takes_value) return typeof value === 'boolean' ? value : undefined;
  if (option.choices !== null && option.choices.length > 0) return typeof value === 'string' && option.choices.includes(value) ? value : undefined;
  switch (option.type) {
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'string':
    case 'path':
      return typeof value === 'string' ? value : undefined;
  }
}

/** `optional: true` for subcommand positionals: a command's required one is checked before the run (command-options.ts). */
function positionalSchema(positional: CliPositional, optional = !positional.required): z.ZodTypeAny {
  const scalar = scalarSchema(positional.type ?? 'string', null);
  let schema: z.ZodTypeAny = positional.variadic ? (positional.required ? z.array(scalar).min(1) : z.array(scalar)) : scalar;
  if (positional.description) schema = schema.describe(positional.description);
  return optional ? schema.optional() : schema;
}

/**
 * A positional's property as it goes into the shape: a single text one (string or path) takes `""` as
 * an argument the program gets, optional or not (the bridge drops `""` from other optional fields).
 */
function positionalProperty(positional: CliPositional, schema: z.ZodTypeAny): z.ZodTypeAny {
  const type = positional.type ?? 'string';
  return !positional.variadic && (type === 'string' || type === 'path') ? emptyStringIsAValue(schema) : schema;
}

/**
 * `Only with command a, b (required with a).`: a subcommand parameter's scope, appended to its
 * description as a sentence of its own (`Count lines (default: words). Only with command count.`).
 */
function scoped(schema: z.ZodTypeAny, commands: readonly string[], requiredFor: readonly string[]): z.ZodTypeAny {
  const scope = `Only with command ${commands.join(', ')}${requiredFor.length > 0 ? ` (required with ${requiredFor.join(', ')})` : ''}.`;
  return schema.describe(schema.description !== undefined ? `${asSentence(schema.description)} ${scope}` : scope);
}

/** Text ending as a sentence: a full stop added unless it already ends in `.`, `!`, `?` or `:`. */
function asSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The JSON Schema `default` of each subcommand option property: the option's default (as
 * `schemaDefaultOf` takes it) when every command taking the property states the same one. The zod
 * schema cannot carry it (a filled-in value would count as given with every command, and the
 * pre-run check refuses an option given with another command), so it is an annotation only:
 * `withPropertyDefaults` writes it into the tool's JSON Schema, and the program applies it itself.
 */
export function commandOptionDefaults(spec: CliSpec): Record<string, string | number | boolean> {
  const names = propertyNamesOf(spec);
  const seen = new Map<string, (string | number | boolean | undefined)[]>();
  spec.subcommands.forEach((command, commandIndex) => {
    (command.options ?? []).forEach((option, optionIndex) => {
      const property = names.subcommandOptions[commandIndex]?.[optionIndex];
      if (property === undefined) return;
      seen.set(property, [...(seen.get(property) ?? []), schemaDefaultOf(option)]);
    });
  });
  const defaults: Record<string, string | number | boolean> = {};
  for (const [property, values] of seen) {
    const [first] = values;
    if (first !== undefined && values.every((value) => value === first)) defaults[property] = first;
  }
  return defaults;
}

/** A copy of an object schema whose named properties gain `default` (where they have none yet). */
export function withPropertyDefaults<Schema extends { properties?: unknown }>(schema: Schema, defaults: Readonly<Record<string, unknown>>): Schema {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Object.keys(defaults).length === 0) return schema;
  const next: Record<string, unknown> = { ...(properties as Record<string, unknown>) };
  for (const [name, value] of Object.entries(defaults)) {
    const property = next[name];
    if (typeof property === 'object' && property !== null && !('default' in property)) next[name] = { ...property, default: value };
  }
  return { ...schema, properties: next };
}

/** The zod object schema of a CLI spec: one property per option, positional and (if any) the subcommand. */
export function cliSpecToZod(spec: CliSpec): z.ZodObject<z.ZodRawShape> {
  const names = propertyNamesOf(spec);
  const shape: z.ZodRawShape = {};
  if (spec.subcommands.length > 0) {
    const commandNames = [...new Set(spec.subcommands.map((command) => command.name))] as [string, ...string[]];
    const described = z
      .enum(commandNames)
      .describe(`Subcommand to run: ${spec.subcommands.map((command) => (command.description ? `${command.name} (${command.description})` : command.name)).join('; ')}`);
    shape[COMMAND_PROPERTY] = commandIsRequired(spec) ? described : described.optional();
  }
  spec.options.forEach((option, index) => {
    shape[names.options[index] ?? `option_${index}`] = optionSchema(option);
  });
  spec.positionals.forEach((positional, index) => {
    shape[names.positionals[index] ?? `positional_${index}`] = positionalProperty(positional, positionalSchema(positional));
  });
  for (const entry of commandOptionProperties(spec)) {
    shape[entry.property] = scoped(optionSchema(entry.option, false), entry.commands, entry.requiredFor);
  }
  for (const entry of commandPositionalProperties(spec)) {
    // `min(1)` on a variadic one only when every command taking it requires it
    const required = entry.requiredFor.length === entry.commands.length;
    shape[entry.property] = positionalProperty(entry.positional, scoped(positionalSchema({ ...entry.positional, required }, true), entry.commands, entry.requiredFor));
  }
  if (spec.stdin === true) {
    shape[STDIN_PROPERTY] = z.string().describe('Text given to the tool on its standard input (the data it reads, e.g. a document or JSON)').optional();
  }
  return z.object(shape).strict();
}

/**
 * The JSON Schema with each option's `suggestions` as its property's `examples` (on the array's
 * `items` for a repeatable option): values the program offers, shown to the model, never enforced.
 * zod has no `examples`, so they are added to the derived JSON Schema. Returns a new schema.
 */
export function withSuggestionExamples(schema: Record<string, unknown>, spec: CliSpec): Record<string, unknown> {
  const names = propertyNamesOf(spec);
  const wanted = new Map<string, string[]>();
  spec.options.forEach((option, index) => {
    const property = names.options[index];
    if (property !== undefined && option.suggestions !== undefined && option.suggestions.length > 0) wanted.set(property, option.suggestions);
  });
  for (const entry of commandOptionProperties(spec)) {
    if (entry.option.suggestions !== undefined && entry.option.suggestions.length > 0 && !wanted.has(entry.property)) wanted.set(entry.property, entry.option.suggestions);
  }
  if (wanted.size === 0) return schema;
  const result = structuredClone(schema);
  const properties = result['properties'] as Record<string, Record<string, unknown>> | undefined;
  for (const [property, values] of wanted) {
    const target = properties?.[property];
    if (target === undefined) continue;
    const items = target['items'];
    const holder = target['type'] === 'array' && typeof items === 'object' && items !== null && !Array.isArray(items) ? (items as Record<string, unknown>) : target;
    if (holder['type'] === 'string') holder['examples'] = [...values];
  }
  return result;
}
