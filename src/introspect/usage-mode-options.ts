/**
 * GNU-style usage forms, one per mode, each opening with the long option that picks the mode:
 * crudini `Usage: crudini --set [OPTION]... config_file section` / `or:  crudini --get [OPTION]...`.
 * Two or more forms of one program, each with a different long spelling right after the program and
 * a bracket after it, name those spellings as switches, even when no entry lists them.
 */
import type { CliOption } from './spec.ts';
import type { OptionClaims } from './reader/claims.ts';

/**
 * Round 18: the mode's spelling may be followed by a required option too (docopt
 * `hellfire --csv --file=<filename> [--output=…]`), not only by a bracket.
 */
const MODE_FORM = /^(\S{1,80})\s+--([A-Za-z0-9][\w-]{0,40})\s+(?:\[|--[A-Za-z0-9])/;
const NOT_AN_OPTION = /^(?:help|version)$/;

function known(options: readonly CliOption[], name: string): boolean {
  return options.some((option) => option.long === name || option.aliases.includes(`--${name}`) || option.negation === `--${name}`);
}

export function addUsageModeOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  const modes = usageForms.map((form) => MODE_FORM.exec(form.trim())).filter((match): match is RegExpExecArray => match !== null);
  const programs = new Set(modes.map((match) => match[1]));
  const names = [...new Set(modes.map((match) => match[2] ?? ''))];
  if (programs.size !== 1 || names.length < 2 || names.length !== modes.length) return;
  for (const name of names) {
    if (NOT_AN_OPTION.test(name) || known(options, name)) continue;
    options.push(emit.exists({ long: name, short: null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null, repeatable: false, required: false, negation: null, description: null }));
  }
}
