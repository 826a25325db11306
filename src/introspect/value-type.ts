import type { CliValueType } from './spec.ts';

const INTEGER_NAMES = new Set([
  'n', 'num', 'number', 'int', 'integer', 'count', 'seconds', 'secs', 'sec', 'port', 'lines', 'depth', 'level', 'jobs', 'nmerge',
  'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'ints', 'uints', 'ms', 'milliseconds',
  'millis', 'minutes', 'hours', 'days', 'retries', 'threads', 'workers', 'limit', 'timeout', 'size_t', 'usize', 'u8', 'u16',
  'u32', 'u64', 'i8', 'i16', 'i32', 'i64', 'integer range', 'int range', '#',
]);
const NUMBER_NAMES = new Set([
  'float', 'float32', 'float64', 'double', 'decimal', 'ratio', 'factor', 'fraction', 'f32', 'f64', 'real',
  'float range', 'percent', 'percentage', 'float32slice', 'float64slice',
]);
const BOOLEAN_NAMES = new Set(['bool', 'boolean', 'bools', 'boolslice']);
const PATH_NAMES = new Set([
  'file', 'files', 'path', 'paths', 'dir', 'dirs', 'directory', 'directories', 'filename', 'filenames', 'folder',
  'filepath', 'pathbuf', 'dirname', 'file_name', 'file_path', 'output_dir', 'input_file', 'output_file', 'outfile', 'infile',
]);
const STRING_NAMES = new Set(['string', 'str', 'text', 'strings', 'stringarray', 'stringslice', 'list[str]', 'duration', 'string array', 'regex', 'regexp']);

/** Normalizes a value name for lookups: lowercase, brackets and ellipses removed, dashes as underscores. */
function normalizeValueName(valueName: string): string {
  return valueName
    .toLowerCase()
    .replace(/\.{2,}/g, '')
    .replace(/[<>[\]{}]/g, '')
    .replace(/-/g, '_')
    .trim();
}

/** The type a value name (metavar) hints at, or null when it says nothing. */
export function typeFromValueName(valueName: string | null): CliValueType | null {
  if (valueName === null) return null;
  // typer `<list[Path]>`: a container names the type of each of its values
  const container = /^<?(?:list|tuple|set|sequence)\[([\w-]{1,30})\]>?$/i.exec(valueName.trim());
  if (container) return typeFromValueName(container[1] ?? '');
  const name = normalizeValueName(valueName);
  if (name.length === 0) return null;
  if (STRING_NAMES.has(name)) return 'string';
  if (INTEGER_NAMES.has(name) || /^n\d$/.test(name) || /^num_?/.test(name)) return 'integer';
  if (NUMBER_NAMES.has(name)) return 'number';
  if (BOOLEAN_NAMES.has(name)) return 'boolean';
  if (PATH_NAMES.has(name) || /(^|_)(file|dir|path)$/.test(name)) return 'path';
  return null;
}

/** True when the value name is explicitly a string type word (so defaults must not promote it). */
export function isExplicitStringName(valueName: string | null): boolean {
  return valueName !== null && STRING_NAMES.has(normalizeValueName(valueName));
}

const INTEGER_TEXT = /^[+-]?\d{1,15}$/;
const NUMBER_TEXT = /^[+-]?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})([eE][+-]?\d{1,3})?$/;

export function isIntegerText(text: string): boolean {
  return INTEGER_TEXT.test(text);
}

export function isNumberText(text: string): boolean {
  return NUMBER_TEXT.test(text) && Number.isFinite(Number(text));
}

/** The type a default hints at. Quoted defaults are strings. */
export function typeFromDefault(raw: string, quoted: boolean): CliValueType | null {
  if (quoted) return null;
  // pflag `--dir-perms FileMode … (default 0777)`: digits after a leading zero are an octal mode, written as text
  if (/^0\d+$/.test(raw)) return null;
  if (isIntegerText(raw)) return 'integer';
  if (isNumberText(raw)) return 'number';
  return null;
}

/** Converts a default's text into the option's type when it fits, else keeps the text. */
export function coerceDefault(raw: string, type: CliValueType): string | number | boolean {
  if (type === 'integer' && isIntegerText(raw)) return Number(raw);
  if (type === 'number' && isNumberText(raw)) return Number(raw);
  if (type === 'boolean') {
    const lowered = raw.toLowerCase();
    if (lowered === 'true') return true;
    if (lowered === 'false') return false;
  }
  return raw;
}
