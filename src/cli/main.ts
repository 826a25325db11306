/**
 * The CLI composition root: builds the commander program from one module per command, runs it,
 * and turns every outcome into an exit code (0 ok, 1 failure or is_error, 2 usage error).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CommandContext } from './command-context.ts';
import { registerCacheCommand } from './commands/cache.ts';
import { registerCallCommand } from './commands/call.ts';
import { registerCheckCommand } from './commands/check.ts';
import { registerInspectCommand } from './commands/inspect.ts';
import { registerListCommand } from './commands/list.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerNewCommand } from './commands/new.ts';
import { registerServeCommand } from './commands/serve.ts';
import { type CliIo, CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, oneLine, painterFor, processIo, writeError } from './output.ts';

export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** Runs the CLI with `argv` (without node and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const debug = argv.includes('--debug');
  let exitCode: number = EXIT_OK;
  const context: CommandContext = {
    io,
    version: packageVersion(),
    action:
      (handler) =>
      async (...args) => {
        exitCode = await handler(...args);
      },
  };
  const program = buildProgram(context);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    writeError(io, error, { debug });
    return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
  }
}

export function buildProgram(context: CommandContext): Command {
  const program = new Command('toolhost')
    .description('A tool host for LLM agents: built-in tools and sandboxed wasm command components behind one tool interface.')
    .version(context.version, '-V, --version', 'print the toolhost version')
    .option('--debug', 'show stack traces and debug logs on stderr')
    .showSuggestionAfterError(true);
  registerListCommand(program, context);
  registerCallCommand(program, context);
  registerServeCommand(program, context);
  registerMcpCommand(program, context);
  registerInspectCommand(program, context);
  registerCheckCommand(program, context);
  registerNewCommand(program, context);
  registerCacheCommand(program, context);
  program.addHelpText('after', '\nRun `toolhost <command> --help` for the options of one command.');
  for (const command of allCommands(program)) configureOutput(command, context.io);
  return program;
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

/** One-line commander errors with a pointer to the command's help; nothing calls process.exit. */
function configureOutput(command: Command, io: CliIo): void {
  const paint = painterFor(io.stderr, io.env);
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  const path = names.join(' ');
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    outputError: (text, write) => {
      const message = oneLine(text).replace(/^error:\s*/, '');
      write(`toolhost: ${paint('red', 'error:')} ${message} ${paint('dim', `(hint: run \`${path} --help\` for usage)`)}\n`);
    },
  });
}

function commanderExitCode(error: CommanderError): number {
  if (error.exitCode === 0) return EXIT_OK;
  switch (error.code) {
    case 'commander.helpDisplayed':
    case 'commander.version':
      return EXIT_OK;
    default:
      return EXIT_USAGE;
  }
}
