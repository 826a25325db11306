/** `toolhost mcp`: an MCP server over stdio. stdout carries only JSON-RPC; everything else goes to stderr. */
import { Command } from 'commander';
import { composeMcpStdio } from '../../compose.ts';
import { installShutdownHandlers } from '../../server/shutdown.ts';
import { tuneDaemonHeap } from '../../server/heap-tuning.ts';
import { installLastResortGuard } from '../../server/last-resort-guard.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { addHostOptions, daemonLogger, type HostFlags, reportLoadFailures, resolveHostConfig } from '../host-setup.ts';
import { EXIT_FAILURE, EXIT_OK } from '../output.ts';
import { selfInvocation } from '../invocation.ts';
import { exitIfStillRunning } from '../process-exit.ts';

export function defineMcpCommand(command: Command, context: CommandContext): Command {
  addHostOptions(command);
  const invocation = selfInvocation(context.io.env);
  const args = [...invocation.args, 'mcp', '--workspace', '/path/to/workspace'].map((arg) => JSON.stringify(arg)).join(', ');
  const entry = `{ "command": ${JSON.stringify(invocation.command)}, "args": [${args}] }`;
  command.addHelpText(
    'after',
    [
      '',
      'An MCP client config entry (it starts this toolhost, from any directory):',
      `  ${entry}`,
      ...(invocation.onPath ? [] : ['(`npm install -g` in the toolhost folder puts `toolhost` on PATH; then "command": "toolhost" is enough)']),
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
      // The session starts before the extensions folder has loaded: each tool is announced
      // (tools/list_changed) as its file loads, and a call to one still loading waits for it.
      const started = await composeMcpStdio({
        config,
        logger,
        watch: true,
        // Tools compile at their first call (or in the background once the session is up), not before initialize.
        extensions: { compileOnLoad: false },
      });
      void started.host.ready.then(() => {
        reportLoadFailures(started.host, io);
        io.stderr.write(`toolhost ready: ${started.host.listTools().length} tools (extensions loaded: ${started.host.readiness().loaded}, failed: ${started.host.loadFailures().length})\n`);
      });
      const exitCode = await new Promise<number>((resolveExit) => {
        const removeHandlers = installShutdownHandlers(() => started.close(), logger, { exit: resolveExit });
        void started.closed.then(() => {
          removeHandlers();
          resolveExit(EXIT_OK);
        });
      });
      exitIfStillRunning(exitCode);
      return exitCode === 0 ? EXIT_OK : EXIT_FAILURE;
    }),
  );
  return command;
}
