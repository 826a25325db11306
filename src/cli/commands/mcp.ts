/** `toolhost mcp`: an MCP server over stdio. stdout carries only JSON-RPC; everything else goes to stderr. */
import { Command } from 'commander';
import { installShutdownHandlers, runMcpStdioCommand } from '../../server/index.ts';
import { tuneDaemonHeap } from '../../server/heap-tuning.ts';
import { installLastResortGuard } from '../../server/last-resort-guard.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { createExtensionSource } from '../extension-source.ts';
import { addHostOptions, daemonLogger, type HostFlags, hostOptionsWithProgress, reportLoadFailures, resolveHostConfig } from '../host-setup.ts';
import { EXIT_FAILURE, EXIT_OK } from '../output.ts';
import { exitIfStillRunning } from '../process-exit.ts';
import { createProgressReporter } from '../progress.ts';

export function registerMcpCommand(program: Command, context: CommandContext): Command {
  const command = program
    .command('mcp')
    .description('serve the tools over MCP on stdio (for Claude Desktop, IDEs, agent frameworks); logs go to stderr');
  addHostOptions(command);
  command.addHelpText(
    'after',
    [
      '',
      'An MCP client config entry:',
      '  { "command": "npx", "args": ["toolhost", "mcp", "--workspace", "/path/to/workspace"] }',
      '',
      'The server exits 0 when the client closes stdin, or on SIGINT/SIGTERM after in-flight calls finish.',
    ].join('\n'),
  );
  command.action(
    context.action(async (flags: HostFlags, self: Command) => {
      const { io } = context;
      const config = resolveHostConfig(flags, io);
      const logger = daemonLogger(isDebug(self));
      installLastResortGuard(logger);
      tuneDaemonHeap();
      const progress = createProgressReporter(io);
      let started: Awaited<ReturnType<typeof runMcpStdioCommand>>;
      try {
        started = await runMcpStdioCommand({
          config: { ...config, host: hostOptionsWithProgress(config, progress) },
          logger,
          watch: true,
          dependencies: { extensions: createExtensionSource() },
          handleSignals: false,
        });
      } finally {
        progress.done();
      }
      const { host, session } = started;
      reportLoadFailures(host, io);
      const exitCode = await new Promise<number>((resolveExit) => {
        const removeHandlers = installShutdownHandlers(
          async () => {
            await host.close();
            await session.close();
          },
          logger,
          { exit: resolveExit },
        );
        void session.closed.then(async () => {
          removeHandlers();
          await host.close();
          resolveExit(EXIT_OK);
        });
      });
      exitIfStillRunning(exitCode);
      return exitCode === 0 ? EXIT_OK : EXIT_FAILURE;
    }),
  );
  return command;
}
