/**
 * Merges probe claims into a spec read from the help. Rules (issue 25):
 * - a closed list from the parser's own error is the option's enum (`choices`), replacing a list the
 *   help gave (the parser's list is the one it enforces);
 * - completion values are suggestions (`suggestions`, JSON Schema `examples`), never an enum, and are
 *   not kept on an option that has choices;
 * - a type or value-taking the parser proved (a conversion error, `invalid boolean value`, a value
 *   accepted) replaces the help's reading; `required` only ever turns on;
 * - nothing else a probe says overrides the help: a description fills one the help lacks, a
 *   subcommand is added only when missing.
 * Every field a claim set records its source in the `sources` map. Returns a new spec.
 */
import { cloneSpec, markSources } from '../reader/claims.ts';
import type { CliOption, CliSpec } from '../spec.ts';
import type { ProbeClaim } from './claims.ts';
import { optionSpelling } from './plan.ts';

function matches(option: CliOption, spelling: string): boolean {
  return optionSpelling(option) === spelling || `--${option.long ?? ''}` === spelling || `-${option.long ?? ''}` === spelling || `-${option.short ?? ''}` === spelling || option.aliases.includes(spelling);
}

function optionsOf(spec: CliSpec, command: string | null): CliOption[] {
  if (command === null) return spec.options;
  return spec.subcommands.find((entry) => entry.name === command)?.options ?? [];
}

function record(target: { sources?: Record<string, string> }, field: string, source: string): void {
  markSources(target, [field], source);
}

const positionalKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The spec with the claims merged (see the module comment); the input is not changed. */
export function mergeProbeClaims(spec: CliSpec, claims: readonly ProbeClaim[]): CliSpec {
  const merged = cloneSpec(spec);
  for (const claim of claims) {
    if (claim.field === 'subcommand') {
      if (!merged.subcommands.some((entry) => entry.name === claim.name)) merged.subcommands.push({ name: claim.name, description: claim.description });
      continue;
    }
    if (claim.field === 'positional_required') {
      const positional = merged.positionals.find((entry) => positionalKey(entry.name) === positionalKey(claim.positional));
      if (positional !== undefined && !positional.required) {
        positional.required = true;
        record(positional, 'required', claim.source);
      }
      continue;
    }
    if (claim.field === 'unlisted_flag') continue;
    // a root option claimed under a command (persistent flags) is the root's
    const option = optionsOf(merged, claim.command).find((entry) => matches(entry, claim.option)) ?? merged.options.find((entry) => matches(entry, claim.option));
    if (option === undefined) continue;
    switch (claim.field) {
      case 'choices':
        if (!option.takes_value) break;
        option.choices = [...claim.value];
        option.type = 'string';
        delete option.suggestions;
        record(option, 'choices', claim.source);
        break;
      case 'suggestions':
        if (!option.takes_value || (option.choices !== null && option.choices.length > 0)) break;
        option.suggestions = [...claim.value];
        record(option, 'suggestions', claim.source);
        break;
      case 'type':
        if (!option.takes_value || option.choices !== null) break;
        option.type = claim.value;
        record(option, 'type', claim.source);
        break;
      case 'takes_value':
        if (claim.value === option.takes_value) break;
        option.takes_value = claim.value;
        if (claim.value) {
          option.type = 'string';
          option.value_name ??= 'VALUE';
        } else {
          option.type = 'boolean';
          option.choices = null;
          option.value_name = null;
          if (typeof option.default !== 'boolean') option.default = null;
          delete option.suggestions;
          delete option.value_count;
          delete option.value_optional;
          delete option.value_separator;
          delete option.variadic_values;
        }
        record(option, 'takes_value', claim.source);
        record(option, 'type', claim.source);
        break;
      case 'description':
        if (option.description !== null) break;
        option.description = claim.value;
        record(option, 'description', claim.source);
        break;
      case 'required':
        if (option.required) break;
        option.required = true;
        record(option, 'required', claim.source);
        break;
    }
  }
  return merged;
}
