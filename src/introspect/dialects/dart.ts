/**
 * Dart's args package prints an option's allowed values with help of their own (`allowedHelp`) as
 * bracketed lines under its head, one value a line, a blank line around them:
 *
 *     -p, --pkg-importer=<TYPE>      Built-in importer(s) to use for pkg: URLs.
 *
 *               [node]               Load files like Node.js package resolution.
 *
 * (flutter: `[android-arm] (default)   …`). Those bracketed names are the option's values. Only under a
 * head written the dart way, `--name=<VALUE>`, and only lines whose bracket a description (two or more
 * spaces on) or `(default)` follows: a usage form wrapped onto a line (`[year] [month]`) has neither.
 */
import type { CliOption } from '../spec.ts';
import type { Claimer } from '../reader/claims.ts';

const DART_VALUE_HEAD = /^\s{0,8}(?:-[A-Za-z0-9], )?--([A-Za-z0-9][\w-]{0,60})=<[^<>\s]{1,40}>/;
const ALLOWED_HELP_LINE = /^\s{4,}\[([a-z0-9][\w.-]{0,30})\]( \(default\))?(?:\s{2,}\S|\s*$)/;
/** Another option's head, or a title at the left margin: the values above belonged to the head before. */
const ENDS_OPTION = /^\s{0,8}-|^\S/;

/** The allowed values listed under each dart head, by long name. */
function allowedHelpValues(lines: readonly string[]): Map<string, { values: string[]; marked: string[] }> {
  const found = new Map<string, { values: string[]; marked: string[] }>();
  let current: string | null = null;
  for (const line of lines) {
    const head = DART_VALUE_HEAD.exec(line);
    if (head !== null) {
      current = head[1] ?? null;
      continue;
    }
    if (line.trim() === '') continue;
    if (ENDS_OPTION.test(line)) {
      current = null;
      continue;
    }
    const value = ALLOWED_HELP_LINE.exec(line);
    if (current === null || value === null) continue;
    // (a value line needs a description or the default mark: `[node]` alone could be a wrapped form)
    if (value[2] === undefined && /^\s*\[[^\]]*\]\s*$/.test(line)) continue;
    const entry = found.get(current) ?? { values: [], marked: [] };
    entry.values.push(value[1] ?? '');
    if (value[2] !== undefined) entry.marked.push(value[1] ?? '');
    found.set(current, entry);
  }
  return found;
}

/** Gives each value-taking option without choices the allowed values dart lists under its head. */
export function applyDartAllowedHelp(options: CliOption[], lines: readonly string[], claim: Claimer): void {
  if (!lines.some((line) => DART_VALUE_HEAD.test(line))) return;
  const allowed = allowedHelpValues(lines);
  for (const option of options) {
    const listed = option.long === null ? undefined : allowed.get(option.long);
    if (listed === undefined || !option.takes_value || option.choices !== null) continue;
    claim(option, 'choices', [...new Set(listed.values)]);
    if (option.default === null && listed.marked.length === 1) claim(option, 'default', listed.marked[0] ?? null);
  }
}
