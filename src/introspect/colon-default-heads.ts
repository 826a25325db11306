/**
 * Go's `flag` package before Go 1.5, and pflag forks of that age (reflex), print every flag with its
 * default after `=` and a colon closing the head: `  -c, --config="": ` / `      --all=false: `,
 * the usage on the next line (or after the colon). What follows `=` is the default, never a
 * placeholder: `false` / `true` mark a switch, `[]` (a slice) a repeatable value with no default,
 * `""` a value with none, anything else (`500ms`, `"plain"`) a value and its default. kubectl's
 * templates print the same heads with the string in single quotes (`--dry-run='none':`, `--output='':`).
 */
import type { CliOption } from './spec.ts';
import { coerceDefault, typeFromDefault } from './value-type.ts';

const COLON_DEFAULT_LINE = /^\s*(?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*=(?:"[^"]*"|'[^']*'|\[[^\]\s]*\]|[^\s"'[]*):(?:\s|$)/;
const COLON_DEFAULT_HEAD = /^(?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*=("[^"]*"|'[^']*'|\[[^\]\s]*\]|[^\s"'[]*):(?=\s|$)/;
/** A help of this format prints every flag so: a few such lines say the format, not a stray line. */
const MIN_LINES = 3;
/**
 * Go prints a switch's default (`--all=false:`) or a string's quoted (`--config="":`): a help with
 * none of them is hand-written with placeholders after `=` (zopflipng `--iterations=[number]:`,
 * `--keepchunks=nAME,nAME,...:`), which are no defaults.
 */
const GO_DEFAULT_LINE = /^\s*(?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*=(?:"[^"]*"|'[^']*'|true|false):(?:\s|$)/;

/** True when the help prints its flags as `--name=DEFAULT:` heads. */
export function isColonDefaultHelp(lines: readonly string[]): boolean {
  return (
    lines.filter((line) => COLON_DEFAULT_LINE.test(line)).length >= MIN_LINES &&
    lines.some((line) => GO_DEFAULT_LINE.test(line))
  );
}

/** Reads an option's head `--name=DEFAULT:` (in such a help) into value-taking and its default. */
export function applyColonDefaultHead(option: CliOption, head: string): void {
  const match = COLON_DEFAULT_HEAD.exec(head.trim());
  const value = match?.[1];
  if (match === null || value === undefined) return;
  option.value_name = null;
  // Go 1.4 `  -verbose=false: log more`: the usage after the colon, one space on, is no placeholder
  const usage = head.trim().slice(match[0].length).trim();
  if (usage.length > 0 && option.description === null) option.description = usage;
  if (value === 'true' || value === 'false') {
    option.takes_value = false;
    option.type = 'boolean';
    option.choices = null;
    option.default = value === 'true';
    // a switch that is on is turned off with `--name=false`
    if (value === 'true' && option.long !== null) option.negation = `${option.prefix ?? '--'}${option.long}=false`;
    return;
  }
  option.takes_value = true;
  if (value.startsWith('[')) {
    option.repeatable = true;
    option.default = null;
    return;
  }
  const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
  const text = quoted === null ? value : (quoted[1] ?? '');
  if (text.length === 0) {
    option.default = null;
    return;
  }
  if (option.type === 'string' && quoted === null) option.type = typeFromDefault(text, false) ?? 'string';
  const typed = coerceDefault(text, option.type);
  option.default = option.choices !== null && !option.choices.includes(String(typed)) ? null : typed;
}
