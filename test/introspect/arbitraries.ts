/** fast-check generators of CLI specs and of inputs valid for them. */
import fc from 'fast-check';
import { propertyNamesOf } from '../../src/introspect/property-name.ts';
import type { CliOption, CliPositional, CliSpec, CliValueType } from '../../src/introspect/spec.ts';

const word = fc.stringMatching(/^[a-z]{2,7}$/);
const longName = fc.oneof(word, fc.tuple(word, word).map(([first, second]) => `${first}-${second}`));
const shortName = fc.constantFrom(...'abcdefgijklmnopqrstuwxyzABCDEFGIJKLMNOPQRSTUWXYZ0123456789'.split(''));
const valueType = fc.constantFrom<CliValueType>('integer', 'number', 'string', 'path');

interface OptionDraft {
  long: string | null;
  short: string | null;
  takesValue: boolean;
  type: CliValueType;
  choices: string[] | null;
  repeatable: boolean;
  required: boolean;
  defaultTrue: boolean;
  valueOptional: boolean;
  /** A flag with a `--no-x` form even without a true default (argparse BooleanOptionalAction). */
  negatable: boolean;
  /** A value-taking option with a stated default. */
  valueDefault: boolean;
  /** The value goes in the flag's own argument (`attached`). */
  attached: boolean;
}

const optionDraft = fc.record({
  long: fc.option(longName, { nil: null, freq: 4 }),
  short: fc.option(shortName, { nil: null }),
  takesValue: fc.boolean(),
  type: valueType,
  choices: fc.option(fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 4 }), { nil: null, freq: 4 }),
  repeatable: fc.boolean(),
  required: fc.boolean(),
  defaultTrue: fc.boolean(),
  valueOptional: fc.boolean(),
  negatable: fc.boolean(),
  valueDefault: fc.boolean(),
  attached: fc.boolean(),
});

/** A default of the option's type (the schema documents it; a value equal to it is sent like any other). */
function valueDefaultOf(draft: OptionDraft): string | number | null {
  if (draft.choices) return draft.choices[0] ?? null;
  switch (draft.type) {
    case 'integer':
      return 3;
    case 'number':
      return 0.5;
    case 'boolean':
      return null;
    case 'string':
    case 'path':
      return 'dflt';
  }
}

function toOption(draft: OptionDraft, style: 'gnu' | 'go'): CliOption {
  const takesValue = draft.takesValue;
  const isFlag = !takesValue;
  const long = style === 'go' ? (draft.long ?? draft.short) : draft.long;
  const short = style === 'go' ? null : draft.short;
  const option: CliOption = {
    long,
    short,
    aliases: [],
    takes_value: takesValue,
    value_name: takesValue ? 'VALUE' : null,
    type: isFlag ? 'boolean' : draft.choices ? 'string' : draft.type,
    default: isFlag ? (draft.defaultTrue && !draft.repeatable ? true : null) : draft.valueDefault && !draft.repeatable ? valueDefaultOf(draft) : null,
    choices: takesValue ? draft.choices : null,
    repeatable: style === 'go' ? false : draft.repeatable,
    required: draft.required && takesValue,
    negation: null,
    description: null,
  };
  if (isFlag && !option.repeatable && (option.default === true || draft.negatable) && long !== null) option.negation = style === 'go' ? `-${long}=false` : `--no-${long}`;
  if (style === 'go') option.prefix = '-';
  if (style === 'gnu' && takesValue && draft.valueOptional && !option.repeatable && long !== null) option.value_optional = true;
  // the value in the flag's own argument: `-B4`, `--long=v`, Go `-name=v` (issue 25)
  if (takesValue && draft.attached) option.attached = true;
  return option;
}

function dedupe(options: CliOption[]): CliOption[] {
  const longs = new Set<string>();
  const shorts = new Set<string>();
  const kept: CliOption[] = [];
  for (const option of options) {
    if (option.long === null && option.short === null) continue;
    if (option.long !== null && (longs.has(option.long) || longs.has(`no-${option.long}`) || option.long.startsWith('no-'))) continue;
    if (option.short !== null && shorts.has(option.short)) continue;
    if (option.long !== null) longs.add(option.long);
    if (option.negation !== null) longs.add(option.negation.replace(/^-+/, ''));
    if (option.short !== null) shorts.add(option.short);
    kept.push(option);
  }
  return kept;
}

const positionalsArbitrary = fc
  .tuple(fc.uniqueArray(fc.stringMatching(/^[A-Z]{2,8}$/), { maxLength: 3 }), fc.boolean(), fc.nat(3))
  .map(([names, lastVariadic, requiredCount]) =>
    names.map(
      (name, index): CliPositional => ({
        name,
        required: index < requiredCount,
        variadic: lastVariadic && index === names.length - 1,
      }),
    ),
  )
  // a required positional never follows an optional one
  .map((positionals) => positionals.map((positional, index) => ({ ...positional, required: positionals.slice(0, index + 1).every((earlier) => earlier.required) })));

export function specArbitrary(style: 'gnu' | 'go'): fc.Arbitrary<CliSpec> {
  return fc.record({ drafts: fc.array(optionDraft, { maxLength: 8 }), positionals: positionalsArbitrary }).map(({ drafts, positionals }) => ({
    name: 'tool',
    description: 'generated',
    options: dedupe(drafts.map((draft) => toOption(draft, style))),
    positionals,
    subcommands: [],
  }));
}

const anyString = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ maxLength: 8 }).map((text) => `-${text}`),
    fc.string({ maxLength: 8 }).map((text) => `--${text}`),
    fc.constantFrom('', '-', '--', '-x', '--flag', '=', 'a=b', ' spaced value ', '$(rm -rf /)', '"quoted"'),
  )
  .filter((text) => !text.includes('\u0000'));

function scalarArbitrary(type: CliValueType, choices: string[] | null): fc.Arbitrary<unknown> {
  if (choices !== null && choices.length > 0) return fc.constantFrom(...choices);
  switch (type) {
    case 'integer':
      return fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(1e21, -1e22, 2 ** 60));
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    default:
      return anyString;
  }
}

/** A random input valid for the spec; optional positionals present form a prefix. */
export function inputArbitrary(spec: CliSpec): fc.Arbitrary<Record<string, unknown>> {
  const names = propertyNamesOf(spec);
  const optionEntries = spec.options.map((option, index) => {
    const name = names.options[index] ?? '';
    let value: fc.Arbitrary<unknown>;
    if (!option.takes_value) value = option.repeatable ? fc.nat(5) : fc.boolean();
    else value = option.repeatable ? fc.array(scalarArbitrary(option.type, option.choices), { maxLength: 3 }) : scalarArbitrary(option.type, option.choices);
    return fc.tuple(fc.constant(name), option.required ? value : fc.option(value, { nil: undefined }));
  });
  const positionalValues = spec.positionals.map((positional) =>
    positional.variadic ? fc.array(anyString, { minLength: 1, maxLength: 3 }) : anyString,
  );
  return fc.tuple(fc.tuple(...optionEntries), fc.tuple(...positionalValues), fc.nat(spec.positionals.length)).map(([options, positionals, presentCount]) => {
    const input: Record<string, unknown> = {};
    for (const [name, value] of options) if (value !== undefined) input[name] = value;
    spec.positionals.forEach((positional, index) => {
      if (positional.required || index < presentCount) input[names.positionals[index] ?? ''] = positionals[index];
    });
    return input;
  });
}
