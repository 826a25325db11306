/**
 * The effect of a whole tool from the effects its spec declares (usage's `effect`, or `--help-json`):
 * the maximum over the root, every subcommand and every option (usage's safe approximation when the
 * invocation is not known), and whether it is declared for every command a call can run. usage treats
 * a command without an effect as unknown, not safe; so does `complete: false`.
 */
import { maxEffect, type ToolEffect } from '../permission.ts';
import type { CliOption, CliSpec } from './spec.ts';
import { commandIsRequired } from './subcommand.ts';

export interface SpecEffect {
  /** The greatest effect declared anywhere in the spec; undefined when none is. */
  max?: ToolEffect;
  /** True when every command a call can run (the root unless a command is required, each subcommand) declares its effect. */
  complete: boolean;
}

function optionsMax(options: readonly CliOption[] | undefined): ToolEffect | undefined {
  return (options ?? []).reduce<ToolEffect | undefined>((effect, option) => maxEffect(effect, option.effect), undefined);
}

export function toolEffectOf(spec: CliSpec): SpecEffect {
  let max = maxEffect(spec.effect, optionsMax(spec.options));
  for (const subcommand of spec.subcommands) max = maxEffect(max, maxEffect(subcommand.effect, optionsMax(subcommand.options)));
  const rootCallable = !commandIsRequired(spec);
  const complete = (!rootCallable || spec.effect !== undefined) && spec.subcommands.every((subcommand) => subcommand.effect !== undefined);
  return { ...(max !== undefined ? { max } : {}), complete: complete && max !== undefined };
}
