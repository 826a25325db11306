/** What every command module receives from the CLI's program (main.ts). */
import type { Command } from 'commander';
import type { CliIo } from './output.ts';

export interface CommandContext {
  io: CliIo;
  /** The version printed by `--version` (package.json). */
  version: string;
  /**
   * Wraps a command action that returns its exit code; main returns that code.
   * Thrown `CliError`s (and any other error) are reported by main as one line.
   */
  action<Args extends unknown[]>(handler: (...args: Args) => Promise<number>): (...args: Args) => Promise<void>;
}

/** True when the global `--debug` flag was given (before or after the command name). */
export function isDebug(command: Command): boolean {
  return command.optsWithGlobals()['debug'] === true;
}
