/**
 * `toolhost mcp`: an MCP server over stdio. stdout carries only JSON-RPC; everything else goes to
 * stderr. Its help prints an MCP client config entry with absolute folders (`clientEntryHelp`).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { composeMcpStdio } from '../../compose.ts';
import { resolveConfig } from '../../config.ts';
import { installShutdownHandlers } from '../../server/shutdown.ts';
import { tuneDaemonHeap } from '../../server/heap-tuning.ts';
import { installLastResortGuard } from '../../server/last-resort-guard.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { addHostOptions, daemonLogger, DEFAULT_EXTENSIONS_DIR, type HostFlags, reportExtensionsFolder, reportLoadFailures, resolveHostConfig } from '../host-setup.ts';
import { type CliIo, EXIT_FAILURE, EXIT_OK } from '../output.ts';
import { selfInvocation } from '../invocation.ts';
import { exitIfStillRunning } from '../process-exit.ts';

export function defineMcpCommand(command: Command, context: CommandContext): Command {
  addHostOptions(command);
  // Computed when the help is shown: the folders this directory (and the env) would use, absolute,
  // so the entry starts the same server from whatever directory the MCP client runs it.
  command.addHelpText('after', () => clientEntryHelp(context.io));
  command.action(
    context.action(async (flags: HostFlags, self: Command) => {
      const { io } = context;
      const config = resolveHostConfig(flags, io);
      reportExtensionsFolder(config, flags, io);
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

/**
 * The `mcp --help` text after the options: an MCP client config entry with absolute `--workspace`
 * and `--extensions` (the folders in effect here: env, config file, or the current directory and its
 * ./extensions/tools), which starts this toolhost the same way from any directory.
 */
export function clientEntryHelp(io: Pick<CliIo, 'cwd' | 'env'>): string {
  const invocation = selfInvocation(io.env);
  let workspace = resolve(io.cwd);
  let extensions: string | undefined;
  try {
    const { host } = resolveConfig({ flags: {}, env: io.env, cwd: io.cwd });
    workspace = host.workspaceRoot ?? workspace;
    extensions = host.extensionsDir;
  } catch {
    // An unreadable config file is reported when the server starts; the help shows the defaults.
  }
  extensions ??= resolve(io.cwd, DEFAULT_EXTENSIONS_DIR);
  const missing = !(existsSync(extensions) && statSync(extensions).isDirectory());
  const args = [...invocation.args, 'mcp', '--workspace', workspace, '--extensions', extensions].map((arg) => JSON.stringify(arg)).join(', ');
  const entry = `{ "command": ${JSON.stringify(invocation.command)}, "args": [${args}] }`;
  return [
    '',
    'An MCP client config entry (it starts this toolhost, from any directory):',
    `  ${entry}`,
    ...(missing ? [`(${extensions} does not exist yet: create it and drop .wasm tools in, or point --extensions at your tools folder; the server refuses a missing folder)`] : []),
    ...(invocation.onPath ? [] : ['(`npm install -g` in the toolhost folder puts `toolhost` on PATH; then "command": "toolhost" is enough)']),
    '',
    'The server starts at once and announces each extension tool as it loads (notifications/tools/list_changed);',
    'a call to a tool still loading waits for it. stderr says which extensions folder is in effect, and',
    '"toolhost ready: …" once all have loaded.',
    'The server exits 0 when the client closes stdin (after answering every request it has read),',
    'or on SIGINT/SIGTERM after in-flight calls finish.',
  ].join('\n');
}
