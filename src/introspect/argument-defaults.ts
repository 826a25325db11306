/**
 * A default that names another argument of the program is computed from that argument, not a value
 * the option could be given: argparse `--conf-dir PATH … (default: SOURCE_DIR)`, `--doctree-dir PATH
 * … (default: OUTPUT_DIR/.doctrees)`, where SOURCE_DIR and OUTPUT_DIR are positionals.
 */
import type { Claimer } from './reader/claims.ts';
import type { CliOption, CliPositional } from './spec.ts';

/** The positional a default text starts with (`NAME` or `NAME/…`), compared as written. */
function namesArgument(text: string, names: readonly string[]): boolean {
  return names.some((name) => text === name || text.startsWith(`${name}/`));
}

/**
 * Drops option defaults that name one of the program's positionals. Only placeholder names written
 * in capitals count (`SOURCE_DIR`): a lower-case positional such as `mode` could also be a word value.
 */
export function dropDefaultsNamingArguments(options: CliOption[], positionals: readonly CliPositional[], lines: readonly string[], claim: Claimer): void {
  // electron-packager `executable-name  … Defaults to appname` under `Usage: electron-packager <sourcedir>
  // <appname>`: a lower-case name counts too when the help writes it as a `<placeholder>`
  const text = lines.join('\n');
  const bracketed = (name: string): boolean => /^[a-z][a-z0-9_-]{2,40}$/.test(name) && text.includes(`<${name}>`);
  const names = positionals.map((positional) => positional.name).filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name) || bracketed(name));
  if (names.length === 0) return;
  for (const option of options) {
    if (typeof option.default === 'string' && namesArgument(option.default, names)) claim(option, 'default', null);
  }
}

/**
 * cac `--release-github <path>  Release GitHub Repository, defaults to \`github\``: a backquoted
 * default spelling the long name of another option of the program is that option's value (the
 * default follows `--github`), not the literal word. A plain `(default: json)` beside a `--json`
 * flag stays a value.
 */
export function dropDefaultsNamingOptions(options: CliOption[], claim: Claimer): void {
  for (const option of options) {
    const text = option.default;
    if (typeof text !== 'string') continue;
    // …an option taking a value of its own: napi's flag `--commonjs  Alias for \`--format commonjs\`` is a
    // shortcut for the value, and `--format … Defaults to \`commonjs\`.` names the value
    const namesOther = options.some((other) => other !== option && other.long === text && other.takes_value);
    if (namesOther && (option.description ?? '').includes(`\`${text}\``)) claim(option, 'default', null);
  }
}
