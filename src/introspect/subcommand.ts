/**
 * Subcommand design: ONE tool per program. When the help lists subcommands, the tool's input gets
 * a `command` enum property (required when the usage line writes `<COMMAND>` outside brackets, or
 * when the program takes no root-level positionals; optional for a cobra root command that runs on
 * its own). argv is `[...root options, command, ...command options, ...positionals]`: root options go
 * before the subcommand because argparse, clap and click parse them only there, except for cobra
 * (`options_after_command`), whose persistent flags belong after it. Each subcommand's own options
 * come from its `--help` (see command-options.ts and subcommand-help.ts).
 */
import type { CliSpec } from './spec.ts';

export { COMMAND_PROPERTY } from './property-name.ts';

/** True when the `command` property must be given. */
export function commandIsRequired(spec: Pick<CliSpec, 'subcommands' | 'positionals' | 'command_required'>): boolean {
  if (spec.subcommands.length === 0) return false;
  return spec.command_required ?? spec.positionals.length === 0;
}
