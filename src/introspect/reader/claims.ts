/**
 * Claims and the resolver: how a help reader says what it found, and how one field's value is picked.
 *
 * A reader emits claims `{field, option, value, source, weight}`: "option `--sort` has `choices`
 * `[none, path]`, says `help:clap.possible-values`, with weight 30" — through a `Claimer` as it reads
 * (`ledger.claimer(source)`), or as a list (`ledger.claimAll`). The resolver (`ClaimLedger`) takes a
 * claim when the field is unset or its holder's weight is not higher (a later reader of equal weight
 * corrects an earlier one; a fallback fills only what no stronger reader decided) and `finish` writes
 * each kept field's source into the object's `sources` map, which `inspect --json` shows. A `default`
 * claim carries its type; a `kept: false` claim leaves a proposed positional out of the spec.
 *
 * Readers that name items make item-level claims (`exists`: an option the entry reader or a usage
 * form names; `replaces`: an item rebuilt, merged, split or renamed where another stood, keeping the
 * other's claims), so every field of the spec keeps where it came from. The positional readers are pure
 * list functions: `list` turns the list one returns into item-level claims by name. Never throws.
 */
import type { CliOption, CliPositional, CliSpec, CliValueType, FieldSource, FieldSources } from '../spec.ts';

/** The option fields a claim may set (the public `CliOption` fields besides `sources`). */
export const OPTION_FIELDS = [
  'long',
  'short',
  'aliases',
  'takes_value',
  'value_name',
  'type',
  'default',
  'choices',
  'repeatable',
  'required',
  'negation',
  'description',
  'prefix',
  'value_optional',
  'value_count',
  'variadic_values',
  'value_separator',
] as const;

export type OptionField = (typeof OPTION_FIELDS)[number];

export const POSITIONAL_FIELDS = ['name', 'required', 'variadic', 'description', 'type'] as const;

export type PositionalField = (typeof POSITIONAL_FIELDS)[number];

/** Weights the readers use: a later, weaker reader only fills a field no stronger one claimed. */
export const WEIGHT = {
  /** A fallback read from loose evidence (prose, a description cue): only where nothing else spoke. */
  fallback: 10,
  /** The generic reader of an entry, a usage form, a section. */
  generic: 20,
  /** A dialect reader reading its framework's own notation. */
  dialect: 30,
} as const;

export interface Claim<Field extends string = OptionField> {
  field: Field;
  /** The option (or positional) the claim is about: the object the readers build (identity, not name). */
  option: CliOption | CliPositional;
  value: unknown;
  source: FieldSource;
  weight: number;
  /**
   * A `default` claim's type: the default is read as a value of that type, so the resolver writes the
   * type (where it differs) together with the default it wins, under the same source, or neither.
   */
  type?: CliValueType;
}

/**
 * How a reader emits its claims as it reads: `claim(option, field, value)` (a default with its type:
 * `claim(option, 'default', value, type)`). A value the object already holds is no claim (the field
 * keeps its source).
 */
export type Claimer = (option: CliOption, field: OptionField, value: unknown, type?: CliValueType) => void;

/**
 * How a reader that names items claims them (item-level claims): `exists(item)` for one it adds to the
 * list it reads, `replaces(old, item)` for one it puts where another stood; both return the item.
 */
export interface ItemClaimer<T> {
  exists: (item: T) => T;
  replaces: (old: T, item: T) => T;
}

/** What a reader that adds options emits: field claims (`claim`) and item-level claims (`exists`, `replaces`). */
export interface OptionClaims extends ItemClaimer<CliOption> {
  claim: Claimer;
}

/** A claimer of positionals' fields (`claim(positional, 'required', false)`). */
export type PositionalClaimer = (positional: CliPositional, field: PositionalField, value: unknown) => void;

/**
 * Fields a claim may hold that are never written into the object: `kept` (`false`: the reader says
 * the proposed positional or option is none, and the core leaves it out of the spec).
 */
const HELD_ONLY: ReadonlySet<string> = new Set(['kept']);

/**
 * Sets an object's `sources` (a spec, an option, a positional) as metadata: a property that is not
 * enumerable, so it takes no part in the spec's value (equality, JSON, the `--help-json` schema);
 * `inspect --json` reads it explicitly (inspect-report.ts, inline in the report). Undefined removes it.
 */
export function setSources(object: object, sources: FieldSources | undefined): void {
  if (sources === undefined) {
    delete (object as { sources?: FieldSources }).sources;
    return;
  }
  Object.defineProperty(object, 'sources', { value: sources, enumerable: false, writable: true, configurable: true });
}

/**
 * Carries the sources of a spec's parts over to a copy of it (`structuredClone` and spreads drop the
 * metadata): the spec's own, then options by position and positionals by name.
 */
export function carrySources(from: CliSpecParts, to: CliSpecParts): void {
  if (from.sources !== undefined) setSources(to, { ...from.sources });
  from.options.forEach((option, index) => {
    const copy = to.options[index];
    if (copy !== undefined && option.sources !== undefined) setSources(copy, { ...option.sources });
  });
  for (const positional of from.positionals) {
    const copy = to.positionals.find((candidate) => candidate.name === positional.name);
    if (copy !== undefined && positional.sources !== undefined) setSources(copy, { ...positional.sources });
  }
}

/**
 * A deep copy of a spec that keeps every part's sources (structuredClone alone drops them): the spec's, its
 * options' and positionals', and its subcommands' own options and positionals.
 */
export function cloneSpec(spec: CliSpec): CliSpec {
  const copy = structuredClone(spec);
  carrySources(spec, copy);
  spec.subcommands.forEach((command, index) => {
    const target = copy.subcommands[index];
    if (target !== undefined) carrySources({ options: command.options ?? [], positionals: command.positionals ?? [] }, { options: target.options ?? [], positionals: target.positionals ?? [] });
  });
  return copy;
}

/** Records `fields` of an object as decided by `source` (an override's keys, say). */
export function markSources(object: { sources?: FieldSources }, fields: readonly string[], source: FieldSource): void {
  if (fields.length === 0) return;
  setSources(object, { ...(object.sources ?? {}), ...Object.fromEntries(fields.map((field) => [field, source])) });
}

interface CliSpecParts {
  sources?: FieldSources;
  options: CliOption[];
  positionals: CliPositional[];
}

/** `help:<reader>.<rule>`: the source of a help reader's claim. */
export function helpSource(reader: string, rule: string): FieldSource {
  return `help:${reader}.${rule}`;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => item === b[index]);
  return false;
}

/** A copy of a value to write into an object (arrays copied). */
function copyValue(value: unknown): unknown {
  return Array.isArray(value) ? value.slice() : value;
}

const NO_ITEMS: readonly unknown[] = Object.freeze([]);

/** A value to compare with later, never written anywhere (an empty array shares one frozen copy). */
function snapshotValue(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.length === 0 ? NO_ITEMS : value.slice();
}

/** An unset field (`null`, `false`, `[]`, absent): any claim may fill it, and it has no source. */
function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === false || (Array.isArray(value) && value.length === 0);
}

type Record_ = Record<string, unknown> & { sources?: Record<string, FieldSource> };

interface Held {
  weight: number;
  source: FieldSource;
  value: unknown;
}

/**
 * The resolver, applied claim by claim in reader order: a claim takes its field when the field is
 * unset or its holder's weight is not higher (so a fallback fills only what no stronger reader
 * decided, and a later reader of equal weight corrects an earlier one). `finish` writes each set
 * field's source into the object's `sources`.
 */
export class ClaimLedger {
  private readonly held = new Map<object, Map<string, Held>>();

  /** Applies one claim (writes its value when it wins). Returns whether it won. */
  claim(claim: Claim<string>): boolean {
    return this.take(claim, true);
  }

  private take(claim: Claim<string>, write: boolean): boolean {
    const target = claim.option as unknown as Record_;
    let fields = this.held.get(target);
    if (fields === undefined) {
      fields = new Map();
      this.held.set(target, fields);
    }
    const current = fields.get(claim.field);
    if (current !== undefined && !isUnset(current.value) && claim.weight < current.weight) {
      // a weaker reader changed a field in place that a stronger one holds: the stronger one stands
      if (!write) target[claim.field] = copyValue(current.value);
      return false;
    }
    fields.set(claim.field, { weight: claim.weight, source: claim.source, value: snapshotValue(claim.value) });
    if (write && !HELD_ONLY.has(claim.field)) target[claim.field] = copyValue(claim.value);
    if (write && claim.field === 'default' && claim.type !== undefined && target.type !== claim.type) {
      // the default's type goes with it, whoever held the type before (the default is only a value of that type)
      fields.set('type', { weight: Math.max(claim.weight, fields.get('type')?.weight ?? 0), source: claim.source, value: claim.type });
      target.type = claim.type;
    }
    return true;
  }

  /** A claimer for one reader: its claims, of `source` at `weight`, applied as they are made. */
  claimer(source: FieldSource, weight: number = WEIGHT.generic): Claimer {
    return (option, field, value, type) => {
      const current = (option as unknown as Record_)[field];
      if (sameValue(current, value) && (type === undefined || option.type === type)) return;
      this.take({ field, option, value, source, weight, ...(type === undefined ? {} : { type }) }, true);
    };
  }

  /** `claimer` for positionals. */
  positionalClaimer(source: FieldSource, weight: number = WEIGHT.generic): PositionalClaimer {
    return (positional, field, value) => {
      if (sameValue((positional as unknown as Record_)[field], value)) return;
      this.take({ field, option: positional, value, source, weight }, true);
    };
  }

  /** Applies claims in order (what a reader emitted); returns how many won. */
  claimAll(claims: Iterable<Claim<string>>): number {
    let won = 0;
    for (const claim of claims) if (this.take(claim, true)) won += 1;
    return won;
  }

  /**
   * An item-level claim: `item` exists (a reader names an option or positional the help shows). Each of
   * its set fields is claimed under `source`, or under the rule the item's own `sources` names. Returns it.
   */
  exists<T extends object>(item: T, source: FieldSource, weight: number = WEIGHT.generic, fields: readonly string[] = OPTION_FIELDS): T {
    const record = item as Record_;
    for (const field of fields) {
      const value = record[field];
      if (!isUnset(value)) this.take({ field, option: item as unknown as CliOption, value, source: record.sources?.[field] ?? source, weight }, false);
    }
    return item;
  }

  /**
   * An item-level claim: `item` stands where `old` stood (a reader rebuilt, split, merged or renamed it).
   * It keeps what was claimed for `old`, and each field it holds differently is claimed under `source`.
   */
  replaces<T extends object>(old: T, item: T, source: FieldSource, weight: number = WEIGHT.generic, fields: readonly string[] = OPTION_FIELDS): T {
    const held = this.held.get(old);
    if (old !== item && held !== undefined && !this.held.has(item)) this.held.set(item, new Map(held));
    const [before, after] = [old as Record_, item as Record_];
    for (const field of fields) {
      if (!sameValue(before[field], after[field])) this.take({ field, option: item as unknown as CliOption, value: after[field], source, weight }, false);
    }
    return item;
  }

  /** The item-level claimer of one reader: its `exists` and `replaces` claims are of `source`. */
  items<T extends object>(source: FieldSource, fields: readonly string[] = OPTION_FIELDS): ItemClaimer<T> {
    return { exists: (item) => this.exists(item, source, WEIGHT.generic, fields), replaces: (old, item) => this.replaces(old, item, source, WEIGHT.generic, fields) };
  }

  /** The items the resolver does not hold as left out (`kept: false`), in order. */
  kept<T extends object>(items: readonly T[]): T[] {
    return items.filter((item) => this.resolved(item, 'kept') !== false);
  }

  /** The value the resolver holds for a field of an object (a held-only one such as `kept` too), or undefined. */
  resolved(object: object, field: string): unknown {
    return this.held.get(object)?.get(field)?.value;
  }

  /**
   * The item-level claims of a reader that returns the list it leaves (the positional readers are pure
   * list functions): each item of the same key (name) as one before `replaces` it, keeping its claims
   * (an item the reader left unchanged claims nothing); any other `exists`. A reader may push onto the
   * list it was given: `before` is the list as it was. Linear in items × fields. Returns `after`.
   */
  list<T extends object>(source: FieldSource, before: readonly T[], after: T[], keyOf: (item: T) => string, fields: readonly string[] = POSITIONAL_FIELDS): T[] {
    let byKey: Map<string, T> | undefined;
    after.forEach((item, at) => {
      // (the same list in the same order is the common case; a name written twice stays two items)
      let old: T | undefined = before[at] === item ? item : undefined;
      if (old === undefined) {
        byKey ??= new Map(before.map((one) => [keyOf(one), one]));
        old = byKey.get(keyOf(item));
      }
      if (old === undefined) this.exists(item, source, WEIGHT.generic, fields);
      else if (old !== item) this.replaces(old, item, source, WEIGHT.generic, fields);
    });
    return after;
  }

  /** Writes the source of every set field of the given objects (the ones the spec keeps). */
  finish(objects: readonly object[]): void {
    for (const object of objects) {
      const record = object as Record_;
      const fields = this.held.get(object);
      const sources: Record<string, FieldSource> = {};
      for (const [field, held] of fields ?? []) {
        const value = record[field];
        if (!sameValue(value, held.value)) continue;
        if (isUnset(value) && field !== 'takes_value' && field !== 'required') continue;
        sources[field] = held.source;
      }
      setSources(record, Object.keys(sources).length > 0 ? sources : undefined);
    }
  }
}
