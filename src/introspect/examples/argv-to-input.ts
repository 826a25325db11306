/**
 * argv → argument object: the inverse of `cliSpecToArgv` (to-argv.ts), for example command lines.
 * Options by every spelling the spec knows (`--long`, `--long=V`, `-s V`, `-sV`, clustered short
 * flags `-abc`, aliases, negations `--no-x`, Go's `-long`), repeatable options into arrays and counted
 * flags into counts, `value_count` options into their tuples, comma lists of choices into arrays,
 * a subcommand by its words, positionals in order (a variadic one takes what the others leave).
 *
 * Exact or nothing: any word the spec cannot place (an unknown flag, a value of the wrong type, a
 * non-repeatable option given twice, a positional too many, an option that needs its value attached
 * given it apart) makes the answer null; nothing is guessed. The caller still validates the object
 * against the tool's schema. Linear in the argv's length (spelling lookups are maps).
 */
import { COMMAND_PROPERTY, propertyNamesOf } from '../property-name.ts';
import type { CliOption, CliPositional, CliSpec, CliValueType } from '../spec.ts';
import { flagSpellingOf } from '../to-argv.ts';
import { hasSeveralValues, isChoiceList, MAX_FLAG_COUNT, valueCountOf } from '../to-zod.ts';

interface Placed {
  option: CliOption;
  property: string;
}

/** Every spelling of each option → the option and its property (a negation maps with `negated`). */
function spellingsOf(options: readonly CliOption[], properties: readonly string[]): { spellings: Map<string, Placed>; negations: Map<string, Placed> } {
  const spellings = new Map<string, Placed>();
  const negations = new Map<string, Placed>();
  options.forEach((option, index) => {
    const placed = { option, property: properties[index] ?? '' };
    const add = (spelling: string): void => {
      if (!spellings.has(spelling)) spellings.set(spelling, placed);
    };
    if (option.long !== null) add(`${option.prefix ?? '--'}${option.long}`);
    if (option.short !== null) add(`-${option.short}`);
    for (const alias of option.aliases) if (/^-{1,2}[^-]/.test(alias)) add(alias);
    if (option.negation !== null && !option.takes_value) negations.set(option.negation, placed);
  });
  return { spellings, negations };
}

/**
 * A value word as the option's or positional's type reads it; undefined when it does not, or when the
 * word is no value but a stand-in: the placeholder itself (`DIR` for positional `DIR`, `FILE` for
 * `--out FILE`), or an elision (`…`, `...`).
 */
function typedValue(text: string, type: CliValueType, placeholder?: string | null): unknown {
  if (text.includes('...') || text.includes('…')) return undefined;
  if (placeholder !== undefined && placeholder !== null && /^[A-Z][A-Z0-9_-]*$/.test(text) && text === placeholder.toUpperCase()) return undefined;
  switch (type) {
    case 'integer':
      // the schema judges the size (as to-argv writes it, a large integer is all digits)
      return /^-?\d{1,30}$/.test(text) ? Number(text) : undefined;
    case 'number': {
      if (!/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text)) return undefined;
      const value = Number(text);
      return Number.isFinite(value) ? value : undefined;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'string':
    case 'path':
      return text;
  }
}

class Unmappable extends Error {}

function fail(): never {
  throw new Unmappable();
}

/** Sets `input[property]` to one use of an option, refusing a second use of a non-repeatable one. */
function setOptionUse(input: Record<string, unknown>, placed: Placed, use: unknown): void {
  const { option, property } = placed;
  if (option.repeatable) {
    const list = input[property];
    if (list === undefined) input[property] = [use];
    else if (Array.isArray(list)) list.push(use);
    else fail();
    return;
  }
  if (property in input) fail();
  input[property] = use;
}

/** One value-taking use from its value words (one word, or `value_count` of them). */
function optionUse(option: CliOption, values: readonly string[]): unknown {
  if (isChoiceList(option)) {
    const [joined] = values;
    return (joined ?? '').split(option.value_separator ?? ',').map((part) => typedValue(part, option.type, option.value_name) ?? fail());
  }
  const typed = values.map((value) => typedValue(value, option.type, option.value_name) ?? fail());
  return hasSeveralValues(option) ? typed : typed[0];
}

/**
 * Positional words into the slots, in order: each required one claims a word, the words left over go
 * to the optional ones in order, one each, and the rest to the first variadic one; a word no slot
 * takes makes the argv unmappable. Too few words fill the first slots (the schema then refuses the
 * missing required ones).
 */
function placePositionals(words: readonly string[], slots: readonly { positional: CliPositional; property: string }[], input: Record<string, unknown>): void {
  const counts: number[] = slots.map(({ positional }) => (positional.required ? 1 : 0));
  let spare = words.length - counts.reduce((sum, count) => sum + count, 0);
  slots.forEach(({ positional }, position) => {
    if (spare > 0 && !positional.required && !positional.variadic) {
      counts[position] = 1;
      spare -= 1;
    }
  });
  const variadic = slots.findIndex(({ positional }) => positional.variadic);
  if (spare > 0 && variadic !== -1) {
    counts[variadic] = (counts[variadic] ?? 0) + spare;
    spare = 0;
  }
  if (spare > 0) fail();
  let next = 0;
  slots.forEach(({ positional, property }, position) => {
    const count = Math.min(counts[position] ?? 0, words.length - next);
    if (count <= 0) return;
    const values = words.slice(next, next + count).map((word) => typedValue(word, positional.type ?? 'string', positional.name) ?? fail());
    input[property] = positional.variadic ? values : values[0];
    next += count;
  });
}

/**
 * The argument object `argv` stands for under `spec`, or null when a word cannot be placed exactly
 * (see the header). `cliSpecToArgv(spec, argvToInput(spec, argv))` runs the same program call.
 */
export function argvToInput(spec: CliSpec, argv: readonly string[]): Record<string, unknown> | null {
  try {
    return mapArgv(spec, argv);
  } catch (error) {
    if (error instanceof Unmappable) return null;
    throw error;
  }
}

function mapArgv(spec: CliSpec, argv: readonly string[]): Record<string, unknown> {
  const names = propertyNamesOf(spec);
  const root = spellingsOf(spec.options, names.options);
  let scope = root;
  let commandIndex = -1;
  const input: Record<string, unknown> = {};
  const positionalWords: string[] = [];
  let index = 0;
  // a subcommand is chosen by its words before any positional word
  const chooseCommand = (): boolean => {
    if (spec.subcommands.length === 0 || commandIndex !== -1 || positionalWords.length > 0) return false;
    let best = -1;
    let bestLength = 0;
    spec.subcommands.forEach((command, position) => {
      const words = command.path ?? [command.name];
      if (words.length > bestLength && words.every((word, offset) => argv[index + offset] === word)) {
        best = position;
        bestLength = words.length;
      }
    });
    if (best === -1) return false;
    commandIndex = best;
    input[COMMAND_PROPERTY] = spec.subcommands[best]?.name;
    const own = spellingsOf(spec.subcommands[best]?.options ?? [], names.subcommandOptions[best] ?? []);
    // the command's own spellings first, then the root's (cobra takes root flags after the command too)
    scope = { spellings: new Map([...root.spellings, ...own.spellings]), negations: new Map([...root.negations, ...own.negations]) };
    index += bestLength;
    return true;
  };
  const takeValues = (placed: Placed, first: string | undefined): void => {
    const { option } = placed;
    if (option.variadic_values === true) fail();
    const count = valueCountOf(option);
    const values: string[] = first === undefined ? [] : [first];
    while (values.length < count) {
      const word = argv[index];
      // a value apart from its flag that starts with `-` may as well be the next option (`--host --dev`):
      // only `-` itself (standard input) and negative numbers are taken
      if (word === undefined || (word.startsWith('-') && word !== '-' && !/^-\d/.test(word))) fail();
      values.push(word);
      index += 1;
    }
    setOptionUse(input, placed, optionUse(option, values));
  };
  const setFlag = (placed: Placed, value: boolean): void => {
    const { option, property } = placed;
    if (option.repeatable && value) {
      const count = input[property];
      const next = (typeof count === 'number' ? count : 0) + 1;
      if (next > MAX_FLAG_COUNT) fail();
      input[property] = next;
      return;
    }
    if (property in input) fail();
    input[property] = value;
  };
  while (index < argv.length) {
    const word = argv[index] ?? '';
    if (word === '--') {
      // `--` is needed only before a positional that starts with `-` (as to-argv writes it); after
      // it, the usage may have meant another program's arguments (`kpt fn eval [-- fn-args]`)
      const rest = argv.slice(index + 1);
      if (!rest.some((item) => item.startsWith('-'))) fail();
      positionalWords.push(...rest);
      break;
    }
    if (chooseCommand()) continue;
    index += 1;
    if (word.length < 2 || !word.startsWith('-')) {
      positionalWords.push(word);
      continue;
    }
    const exact = scope.spellings.get(word);
    if (exact !== undefined) {
      if (!exact.option.takes_value) setFlag(exact, true);
      else if (exact.option.value_optional === true) fail();
      else if (exact.option.attached === true) {
        // an empty value cannot be glued on: to-argv writes it as its own argument (`-B ""`)
        if (argv[index] !== '') fail();
        index += 1;
        takeValues(exact, '');
      } else takeValues(exact, undefined);
      continue;
    }
    const negated = scope.negations.get(word);
    if (negated !== undefined) {
      setFlag({ ...negated, option: { ...negated.option, repeatable: false } }, false);
      continue;
    }
    // `--long=V`, Go's `-long=V`; otherwise a short flag's `=` is part of its glued value (`-M=`, `-Aa=b`)
    const equals = word.indexOf('=');
    const named = equals > 1 ? scope.spellings.get(word.slice(0, equals)) : undefined;
    if (named !== undefined && (word.startsWith('--') || equals > 2 || (named.option.long !== null && flagSpellingOf(named.option) === word.slice(0, equals)))) {
      const value = word.slice(equals + 1);
      if (named.option.takes_value) {
        if (named.option.long === null || flagSpellingOf(named.option) !== word.slice(0, equals)) fail();
        takeValues(named, value);
      } else {
        // pflag's `--color=false`
        const flag = typedValue(value, 'boolean');
        if (typeof flag !== 'boolean' || named.option.repeatable) fail();
        if (!flag && named.option.negation === null) fail();
        setFlag(named, flag);
      }
      continue;
    }
    if (word.startsWith('--')) fail();
    // `-9`: the number is the flag itself (zstd's `-#`)
    const numbered = scope.spellings.get('-#');
    if (/^-\d+$/.test(word) && numbered !== undefined && numbered.option.long === null) {
      takeValues(numbered, word.slice(1));
      continue;
    }
    // `-sVALUE`, `-abc` (clustered flags, the last of which may take the rest as its value)
    for (let position = 1; position < word.length; position += 1) {
      const placed = scope.spellings.get(`-${word[position] ?? ''}`);
      if (placed === undefined || placed.option.short !== word[position]) fail();
      if (!placed.option.takes_value) {
        setFlag(placed, true);
        continue;
      }
      const rest = word.slice(position + 1);
      if (rest.length === 0) {
        if (placed.option.attached === true || placed.option.value_optional === true) fail();
        takeValues(placed, undefined);
      } else {
        takeValues(placed, rest);
      }
      break;
    }
  }
  const slots = [
    ...(commandIndex === -1 ? [] : (spec.subcommands[commandIndex]?.positionals ?? []).map((positional, position) => ({ positional, property: names.subcommandPositionals[commandIndex]?.[position] ?? '' }))),
    ...spec.positionals.map((positional, position) => ({ positional, property: names.positionals[position] ?? '' })),
  ];
  placePositionals(positionalWords, slots, input);
  return input;
}
