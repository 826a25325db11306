/** `toolhost serve`: the HTTP daemon (REST, SSE events, MCP over Streamable HTTP) with hot reload. */
import { Command } from 'commander';
import { composeServer } from '../../compose.ts';
import { DEFAULT_CONFIG_DRAIN_TIMEOUT_MS, DEFAULT_CONFIG_MAX_DISPATCH_CALLS } from '../../config.ts';
import { LOCKFILE_NAME } from '../../distribution/lockfile.ts';
import { ToolHostError } from '../../errors.ts';
import type { AdminToken } from '../../server/admin-token.ts';
import { DEFAULT_SERVER_HOST, DEFAULT_SERVER_PORT } from '../../server/serve.ts';
import { installShutdownHandlers } from '../../server/shutdown.ts';
import { tuneDaemonHeap } from '../../server/heap-tuning.ts';
import { installLastResortGuard } from '../../server/last-resort-guard.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { addHostOptions, daemonLogger, type HostFlags, reportExtensionsFolder, reportLoadFailures, resolveHostConfig } from '../host-setup.ts';
import { CliError, EXIT_FAILURE, EXIT_USAGE, painterFor } from '../output.ts';
import { exitIfStillRunning } from '../process-exit.ts';

interface ServeFlags extends HostFlags {
  host?: string;
  port?: string;
  token?: string;
  allowedOrigin?: string[];
  maxDispatchCalls?: string;
  drainTimeoutMs?: string;
  lock?: string;
}

/**
 * The start-up line about the admin token, on stderr: a generated token in full (the one time it is
 * shown) with its file; a configured one only by where it came from.
 */
export function adminTokenLine(admin: AdminToken): string {
  if (admin.source === 'configured') return 'toolhost admin token: set by TOOLHOST_ADMIN_TOKEN or the config key admin_token (it lists and decides approvals)\n';
  const where = admin.file !== undefined ? `saved to ${admin.file} (mode 0600) until shutdown` : `not saved: ${admin.notWritten ?? 'no file'}`;
  return `toolhost admin token: ${admin.token} (lists and decides approvals; ${where})\n`;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function defineServeCommand(command: Command, context: CommandContext): Command {
  command
    .option('--host <address>', `address to bind (env TOOLHOST_HOST; default: ${DEFAULT_SERVER_HOST}); a non-loopback address needs --token`)
    .option('--port <port>', `port to listen on, 0 for an ephemeral one (env TOOLHOST_PORT; default: ${DEFAULT_SERVER_PORT})`)
    .option('--token <token>', 'bearer token required on every request but /healthz (env TOOLHOST_TOKEN)')
    .option(
      '--allowed-origin <origin>',
      'a browser origin (scheme://host[:port]) allowed to call the daemon besides its own; repeatable (env TOOLHOST_ALLOWED_ORIGINS, comma-separated)',
      collect,
    )
    .option('--max-dispatch-calls <n>', `the most tool calls one POST /v1/dispatch may carry; more are refused with 400 too_many_calls (config limits.max_dispatch_calls; default: ${DEFAULT_CONFIG_MAX_DISPATCH_CALLS})`)
    .option(
      '--drain-timeout-ms <ms>',
      `on SIGTERM/SIGINT, how long calls in flight may finish while /readyz answers 503 and new requests are refused with 503 + Retry-After (config limits.drain_timeout_ms; default: ${DEFAULT_CONFIG_DRAIN_TIMEOUT_MS})`,
    )
    .option('--lock <file>', `the lockfile that says where each wasm tool came from, shown by GET /v1/tools/{name}/inspect and the console (config lock; default ./${LOCKFILE_NAME}; none there = no lock)`);
  addHostOptions(command);
  command.addHelpText(
    'after',
    [
      '',
      'Prints one line with the URL once listening, e.g. "toolhost listening on http://127.0.0.1:7411 (7 tools)",',
      'where the count is the tools served at that moment: it listens before the extensions folder has loaded,',
      'serves each tool as its file loads, and GET /readyz answers 200 once all have (stderr then says "toolhost ready").',
      'A call to a tool whose file is still loading waits for it (within its deadline).',
      'Before the URL line, on stderr, the admin token generated for this start (it lists and decides approvals; a person',
      'keeps it, tools never see it), also written 0600 to $XDG_RUNTIME_DIR/toolhost/admin-token-<port> (else',
      '~/.cache/toolhost/admin-token-<port>) and removed at shutdown. TOOLHOST_ADMIN_TOKEN or the config key',
      'admin_token set it instead (no flag: a token on the command line shows in ps).',
      'JSON logs go to stderr (level: TOOLHOST_LOG_LEVEL, or debug with --debug). SIGINT/SIGTERM drain, then exit 0:',
      'GET /readyz answers 503 {"draining": true} at once, new requests get 503 shutting_down with Retry-After: 1,',
      'calls in flight finish within --drain-timeout-ms (then they are cancelled), background processes are killed.',
      '',
      'Examples:',
      '  toolhost serve',
      '  toolhost serve --port 0 --extensions ./tools',
      '  toolhost serve --host 0.0.0.0 --token "$(openssl rand -hex 16)"',
    ].join('\n'),
  );
  command.action(
    context.action(async (flags: ServeFlags, self: Command) => {
      const { io } = context;
      const config = resolveHostConfig(flags, io);
      const logger = daemonLogger(isDebug(self));
      installLastResortGuard(logger);
      tuneDaemonHeap();
      let started: Awaited<ReturnType<typeof composeServer>>;
      try {
        // Listens before the extensions folder has loaded: each tool is served as its file loads,
        // GET /readyz answers 200 once all have (the host's `ready`).
        started = await composeServer({
          config,
          logger,
          watch: true,
          // Tools compile in the background once the daemon listens (or at their first call), not before.
          extensions: { compileOnLoad: false },
        });
      } catch (error) {
        if (ToolHostError.is(error, 'SERVER_START_REFUSED')) {
          const hint = /without a bearer token/.test(error.message)
            ? 'bind 127.0.0.1, or pass --token (or TOOLHOST_TOKEN)'
            : /admin token/.test(error.message)
              ? 'set TOOLHOST_ADMIN_TOKEN (or the config key admin_token), or fix the directory named'
              : 'fix --host/--port (or TOOLHOST_HOST/TOOLHOST_PORT, or the config file)';
          throw new CliError(error.message, { exitCode: EXIT_USAGE, hint, cause: error });
        }
        throw error;
      }
      const { host, server } = started;
      // Signal handlers go in before the URL is printed: whoever reads the line may signal at once.
      const shutdown = new Promise<number>((resolveExit) => {
        installShutdownHandlers(() => server.close(), logger, { exit: resolveExit });
      });
      reportExtensionsFolder(config, flags, io);
      io.stderr.write(adminTokenLine(server.admin));
      const paint = painterFor(io.stdout, io.env);
      // N counts the tools served at this moment: the built-ins and any extension already loaded.
      io.stdout.write(`toolhost listening on ${paint('cyan', server.url)} (${host.listTools().length} tools)\n`);
      void host.ready.then(() => {
        reportLoadFailures(host, io);
        io.stderr.write(`toolhost ready: ${host.listTools().length} tools (extensions loaded: ${host.readiness().loaded}, failed: ${host.loadFailures().length})\n`);
      });
      const exitCode = await shutdown;
      exitIfStillRunning(exitCode);
      return exitCode === 0 ? 0 : EXIT_FAILURE;
    }),
  );
  return command;
}
