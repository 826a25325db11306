/** Exact argv text of a JSON value: integers without exponent, finite numbers via String(). */
export function formatArgValue(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Cannot pass non-finite number ${String(value)} as an argument`);
    if (Number.isInteger(value)) return Number.isSafeInteger(value) ? String(value === 0 ? 0 : value) : BigInt(value).toString();
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}
