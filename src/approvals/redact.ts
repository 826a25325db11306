/**
 * What a person is shown of a call's arguments. Approvals run before secret substitution, so secret
 * parameters can only hold `<secret_ref:NAME>` placeholders that name a secret without revealing it;
 * anything else a caller put there (a literal key pasted by a model) is replaced, so an approval list
 * or event never carries a secret value.
 */
import { findSecretRefs } from '../secrets.ts';

export const REDACTED = '[REDACTED]';

function redactSecretValue(value: unknown): unknown {
  if (typeof value === 'string') return findSecretRefs(value).length > 0 ? value : REDACTED;
  if (Array.isArray(value)) return value.map(redactSecretValue);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, redactSecretValue(entry)]));
  return REDACTED;
}

export function redactArguments(args: Readonly<Record<string, unknown>>, secretParams: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, secretParams.includes(key) ? redactSecretValue(value) : value]));
}
