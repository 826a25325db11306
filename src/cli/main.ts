/**
 * The CLI's program: builds the commander program, runs it, and turns every outcome into an exit
 * code (0 ok, 1 failure or is_error, 2 usage error). The commands that need a host get it from the
 * composition root, src/compose.ts, which decides what it is made of.
 *
 * Start-up is paid on every `toolhost` run (and by every MCP client that spawns `toolhost mcp`), so
 * each command's module, and with it the host, the wasm runtime or the server, is imported only when
 * that command runs: the other commands are registered by name and description alone, which is all
 * `toolhost --help` and commander's "did you mean" need. `--version` loads commander and nothing else.
 */
import { Command, CommanderError } from 'commander';
import type { CommandContext } from './command-context.ts';
import { type CliIo, CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, oneLine, painterFor, processIo, writeError } from './output.ts';
import { packageVersion } from '../package-root.ts';

export { packageVersion } from '../package-root.ts';

/** Fills in a command created by main (name and description already set): arguments, options, action. */
export type DefineCommand = (command: Command, context: CommandContext) => Command;

interface CommandEntry {
  name: string;
  description: string;
  /** Imports the command's module; called only for the command being run (or asked for help). */
  load: () => Promise<DefineCommand>;
}

/** Every command, in `toolhost --help` order. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'list', description: 'list the tools this host exposes (built-ins and extensions)', load: async () => (await import('./commands/list.ts')).defineListCommand },
  { name: 'call', description: 'call one tool and print its result', load: async () => (await import('./commands/call.ts')).defineCallCommand },
  {
    name: 'dispatch',
    description: 'run the tool calls of an assistant message (provider JSON, a union turn, or text with <tool_call> blocks)',
    load: async () => (await import('./commands/dispatch.ts')).defineDispatchCommand,
  },
  {
    name: 'serve',
    description: 'run the HTTP daemon (REST API, events, MCP over Streamable HTTP) with hot reload of the extensions folder',
    load: async () => (await import('./commands/serve.ts')).defineServeCommand,
  },
  {
    name: 'mcp',
    description: 'serve the tools over MCP on stdio (for Claude Desktop, IDEs, agent frameworks); logs go to stderr',
    load: async () => (await import('./commands/mcp.ts')).defineMcpCommand,
  },
  {
    name: 'inspect',
    description: 'show how toolhost understood a wasm tool: spec, schema, example argv, imports and policy',
    load: async () => (await import('./commands/inspect.ts')).defineInspectCommand,
  },
  {
    name: 'check',
    description: 'lint a wasm tool: is it a component, does --help parse, are the options clear, how big and how fast is it',
    load: async () => (await import('./commands/check.ts')).defineCheckCommand,
  },
  {
    name: 'new',
    description: 'scaffold a wasm tool project (source, build script, README) that follows the tool contract',
    load: async () => (await import('./commands/new.ts')).defineNewCommand,
  },
  {
    name: 'push',
    description: 'push a wasm tool with its sidecars to an OCI registry (optionally signed) and print its digest',
    load: async () => (await import('./commands/push.ts')).definePushCommand,
  },
  {
    name: 'add',
    description: 'pull a tool from an OCI registry or an https URL, verify digest, signature and policy, install it and lock it',
    load: async () => (await import('./commands/add.ts')).defineAddCommand,
  },
  { name: 'sync', description: 'make the extensions folder hold exactly the tools of toolhost.lock', load: async () => (await import('./commands/sync.ts')).defineSyncCommand },
  {
    name: 'update',
    description: 'move locked tools to the newest digest of their tag, showing what changed (digest, signer, policy)',
    load: async () => (await import('./commands/update.ts')).defineUpdateCommand,
  },
  {
    name: 'schedules',
    description: "list the config's scheduled runs with their next run, and a running daemon's last results",
    load: async () => (await import('./commands/schedules.ts')).defineSchedulesCommand,
  },
  {
    name: 'audit',
    description: "check and read the daemon's hash-chained audit log: verify, tail, query",
    load: async () => (await import('./commands/audit.ts')).defineAuditCommand,
  },
  { name: 'cache', description: 'show or clear the transpile cache of wasm tools', load: async () => (await import('./commands/cache.ts')).defineCacheCommand },
  {
    name: 'completion',
    description: 'print a shell completion script: bash, zsh or fish (e.g. source <(toolhost completion bash))',
    load: async () => (await import('./commands/completion.ts')).defineCompletionCommand,
  },
];

/**
 * The command a command line runs: its first word that is not a flag (the root's flags take no
 * values), or the word after `help` (`toolhost help list`). Undefined for `toolhost --version` and
 * the like.
 */
export function selectedCommand(argv: readonly string[]): string | undefined {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
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
  try {
    const program = await buildProgram(context, selectedCommand(argv));
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    writeError(io, error, { debug });
    return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
  }
}

/**
 * The program with every command registered and `selected` (if any) fully defined; with
 * `{defineAll: true}` every command is defined (what shell completion walks).
 */
export async function buildProgram(context: CommandContext, selected: string | undefined | { defineAll: true }): Promise<Command> {
  const program = new Command('toolhost')
    .description('A tool host for LLM agents: built-in tools and sandboxed wasm command components behind one tool interface.')
    .version(context.version, '-V, --version', 'print the toolhost version')
    .option('--debug', 'show stack traces and debug logs on stderr')
    .showSuggestionAfterError(true);
  for (const entry of COMMANDS) {
    const command = program.command(entry.name).description(entry.description);
    if (entry.name === selected || (typeof selected === 'object' && selected.defineAll)) (await entry.load())(command, context);
  }
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
