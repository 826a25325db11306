/**
 * Subcommand design: ONE tool per program. When the help lists subcommands, the tool's input gets
 * a `command` enum property (required unless the program also takes root-level positionals, as a
 * cobra root command that runs on its own does). argv is `[...root options, command, ...positionals]`:
 * root options go before the subcommand because argparse, clap and click parse them only there.
 * Options that only a subcommand knows are not in the spec; give them with a `.tool.json` spec
 * override when a tool needs them.
 */
import type { CliSpec } from './spec.ts';

export { COMMAND_PROPERTY } from './property-name.ts';

/** True when the `command` property must be given. */
export function commandIsRequired(spec: Pick<CliSpec, 'subcommands' | 'positionals'>): boolean {
  return spec.subcommands.length > 0 && spec.positionals.length === 0;
}
