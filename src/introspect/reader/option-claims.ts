/**
 * The claims readers make again and again about one option, written once: that it takes a value
 * (its type, maybe its placeholder; a switch's boolean state and negation do not carry over to a
 * value), and that its value is one of a listed set. Each goes through the reader's claimer, so
 * the resolver decides and the field keeps the reader's source.
 */
import type { CliOption, CliValueType } from '../spec.ts';
import type { Claimer } from './claims.ts';

export interface TakesValueClaim {
  /** The value's type (default `string`). */
  type?: CliValueType;
  valueName?: string;
  /** `any`: the option's default goes (a switch's state is no value's default); `boolean`: only a boolean one. */
  dropDefault?: 'any' | 'boolean';
  /** The switch's negation (`--no-x`) goes too. */
  dropNegation?: boolean;
}

/** Claims that `option` takes a value. */
export function claimTakesValue(claim: Claimer, option: CliOption, how: TakesValueClaim = {}): void {
  claim(option, 'takes_value', true);
  if (how.valueName !== undefined) claim(option, 'value_name', how.valueName);
  claim(option, 'type', how.type ?? 'string');
  if (how.dropDefault === 'any' || (how.dropDefault === 'boolean' && typeof option.default === 'boolean')) claim(option, 'default', null);
  if (how.dropNegation === true) claim(option, 'negation', null);
}

/** Claims that `option`'s value is one of `choices` (a string, then). */
export function claimChoices(claim: Claimer, option: CliOption, choices: readonly string[]): void {
  claim(option, 'choices', choices);
  claim(option, 'type', 'string');
}
