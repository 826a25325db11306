/**
 * Reference parsers that turn argv back into an input object, to check `cliSpecToArgv`:
 * node's util.parseArgs for GNU-style specs, and a small re-implementation of Go's `flag`
 * package rules (single or double dash, `-name=value`, `-name value`, bools only as `-name` or
 * `-name=false`, `--` ends flags, the first non-flag ends flags).
 */
import { parseArgs } from 'node:util';
import { propertyNamesOf } from '../../src/introspect/property-name.ts';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';

function convert(option: CliOption, text: string): unknown {
  if (option.choices !== null) return text;
  if (option.type === 'integer' || option.type === 'number') return Number(text);
  if (option.type === 'boolean') return text === 'true';
  return text;
}

function assignPositionals(spec: CliSpec, values: string[], input: Record<string, unknown>): void {
  const names = propertyNamesOf(spec);
  let cursor = 0;
  spec.positionals.forEach((positional, index) => {
    if (cursor >= values.length) return;
    const name = names.positionals[index] ?? '';
    if (positional.variadic) {
      input[name] = values.slice(cursor);
      cursor = values.length;
    } else {
      input[name] = values[cursor];
      cursor += 1;
    }
  });
}

export function parseGnuArgv(spec: CliSpec, argv: string[]): Record<string, unknown> {
  const names = propertyNamesOf(spec);
  type Config = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
  const config: Record<string, Config> = {};
  const keyOf = (option: CliOption): string => option.long ?? `short-only-${option.short ?? ''}`;
  for (const option of spec.options) {
    const entry: Config = { type: option.takes_value ? 'string' : 'boolean' };
    if (option.short !== null) entry.short = option.short;
    if (option.repeatable) entry.multiple = true;
    config[keyOf(option)] = entry;
    if (option.negation !== null) config[option.negation.replace(/^--/, '')] = { type: 'boolean' };
  }
  const { values, positionals } = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true });
  const parsed = values as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  spec.options.forEach((option, index) => {
    const name = names.options[index] ?? '';
    const value = parsed[keyOf(option)];
    if (option.negation !== null && parsed[option.negation.replace(/^--/, '')] === true) input[name] = false;
    if (value === undefined) return;
    if (!option.takes_value) input[name] = option.repeatable ? (value as unknown[]).length : value;
    else input[name] = option.repeatable ? (value as string[]).map((text) => convert(option, text)) : convert(option, value as string);
  });
  assignPositionals(spec, positionals, input);
  return input;
}

export function parseGoArgv(spec: CliSpec, argv: string[]): Record<string, unknown> {
  const names = propertyNamesOf(spec);
  const input: Record<string, unknown> = {};
  let index = 0;
  for (; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--') {
      index += 1;
      break;
    }
    if (argument.length < 2 || !argument.startsWith('-')) break;
    const body = argument.startsWith('--') ? argument.slice(2) : argument.slice(1);
    if (body.length === 0 || body.startsWith('-') || body.startsWith('=')) throw new Error(`bad flag syntax: ${argument}`);
    const equals = body.indexOf('=');
    const name = equals === -1 ? body : body.slice(0, equals);
    const position = spec.options.findIndex((option) => (option.long ?? option.short) === name);
    const option = spec.options[position];
    if (option === undefined) throw new Error(`flag provided but not defined: -${name}`);
    const property = names.options[position] ?? '';
    if (!option.takes_value) {
      if (equals === -1) input[property] = true;
      else {
        const text = body.slice(equals + 1);
        if (text !== 'true' && text !== 'false') throw new Error(`invalid boolean value ${text}`);
        input[property] = text === 'true';
      }
      continue;
    }
    let text: string;
    if (equals !== -1) text = body.slice(equals + 1);
    else {
      index += 1;
      if (index >= argv.length) throw new Error(`flag needs an argument: -${name}`);
      text = argv[index] ?? '';
    }
    input[property] = convert(option, text);
  }
  assignPositionals(spec, argv.slice(index), input);
  return input;
}

/**
 * What the argv can express: false flags without a negation, and empty repeat lists, mean "absent". A
 * value equal to the option's default is sent like any other (to-argv.ts: send what the caller sent).
 */
export function expressible(spec: CliSpec, input: Record<string, unknown>): Record<string, unknown> {
  const names = propertyNamesOf(spec);
  const result: Record<string, unknown> = { ...input };
  spec.options.forEach((option, index) => {
    const name = names.options[index] ?? '';
    const value = result[name];
    if (value === false && option.negation === null) delete result[name];
    if (value === 0 && !option.takes_value && option.repeatable) delete result[name];
    if (Array.isArray(value) && value.length === 0) delete result[name];
  });
  return result;
}
