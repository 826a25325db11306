/**
 * `toolhost schedules`: the config's scheduled runs (config `schedules`) with their next run. When a
 * daemon answers (`--url`, else the configured address `http://<host>:<port>`), its
 * `GET /v1/schedules` is shown instead: next runs as armed, last results and counts (the fleet's,
 * with shared state in Redis). Otherwise the next runs are computed here from the config, and a note
 * on stderr says so. `--json` prints `{source: "daemon" | "config", url?, schedules: [...]}`.
 *
 * The daemon's token: TOOLHOST_TOKEN (or the config `token`); never a flag (it would show in `ps`).
 */
import { Command } from 'commander';
import { plannedSchedule, type ScheduleSummary } from '../../schedules/summary.ts';
import type { ScheduleStatus, SchedulesBody } from '../../schedules/types.ts';
import type { CommandContext } from '../command-context.ts';
import { resolveHostConfig } from '../host-setup.ts';
import { CliError, EXIT_FAILURE, EXIT_OK, painterFor, renderTable, usageError, writeJson } from '../output.ts';

interface SchedulesFlags {
  config?: string;
  json?: boolean;
  url?: string;
  local?: boolean;
}

/** How long the daemon may take to answer before the config's own view is shown. */
const DAEMON_TIMEOUT_MS = 3_000;

type Row = ScheduleSummary & Partial<Pick<ScheduleStatus, 'last_run' | 'counts'>>;

export function defineSchedulesCommand(command: Command, context: CommandContext): Command {
  command
    .option('--config <file>', 'JSON config file (env TOOLHOST_CONFIG) whose "schedules" to list')
    .option('--url <url>', "the daemon to ask for last results (default: the config's http://<host>:<port>)")
    .option('--local', 'do not ask a daemon: next runs computed from the config')
    .option('--json', 'print JSON: {source: "daemon" | "config", url?, schedules: [...]}');
  command.addHelpText(
    'after',
    [
      '',
      "With a daemon reachable, shows its view (GET /v1/schedules): next runs, last results and counts, the fleet's when",
      'shared state is in Redis. Otherwise the next runs are computed from the config (a note on stderr says so).',
      'The daemon token comes from TOOLHOST_TOKEN or the config key token.',
      '',
      'Examples:',
      '  toolhost schedules --config toolhost.json',
      '  toolhost schedules --url http://127.0.0.1:7411 --json',
    ].join('\n'),
  );
  command.action(
    context.action(async (flags: SchedulesFlags) => {
      const { io } = context;
      const config = resolveHostConfig({ ...(flags.config !== undefined ? { config: flags.config } : {}) }, io);
      const url = flags.local === true ? undefined : daemonUrl(flags.url, config.server.host, config.server.port);
      const daemon = url === undefined ? undefined : await askDaemon(url, config.server.token);
      if (daemon !== undefined && 'refused' in daemon) throw new CliError(daemon.refused, { exitCode: EXIT_FAILURE });
      const rows: Row[] = daemon?.body.schedules ?? config.schedules.map((schedule) => plannedSchedule(schedule));
      if (daemon === undefined && flags.local !== true) {
        io.stderr.write(`note: no daemon answered at ${url}: next runs computed from the config; last results need a running daemon (--url)\n`);
      }
      if (flags.json === true) {
        writeJson(io, daemon !== undefined ? { source: 'daemon', url, ...daemon.body } : { source: 'config', schedules: rows });
      } else {
        io.stdout.write(renderSchedules(rows, context));
      }
      return EXIT_OK;
    }),
  );
  return command;
}

/** `--url`, else the configured bind address (a wildcard bind is asked on loopback). */
function daemonUrl(flag: string | undefined, host: string, port: number): string {
  if (flag !== undefined) {
    try {
      const parsed = new URL(flag);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
      return parsed.origin;
    } catch {
      throw usageError(`--url ${flag}: not an http(s) URL`, 'e.g. --url http://127.0.0.1:7411');
    }
  }
  const loopback = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${port}`;
}

/** The daemon's schedules; undefined when nothing answers; `refused` when it answers with an error (e.g. a wrong token). */
async function askDaemon(url: string, token: string | undefined): Promise<{ body: SchedulesBody } | { refused: string } | undefined> {
  let response: Response;
  try {
    response = await fetch(`${url}/v1/schedules`, {
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(DAEMON_TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
  if (response.status === 404) return undefined;
  if (!response.ok) {
    const text = (await response.text()).slice(0, 300);
    return { refused: `${url}/v1/schedules answered ${response.status}: ${text}${response.status === 401 ? ' (set TOOLHOST_TOKEN)' : ''}` };
  }
  try {
    return { body: (await response.json()) as SchedulesBody };
  } catch (error) {
    throw new CliError(`${url}/v1/schedules did not answer JSON: ${(error as Error).message}`, { exitCode: EXIT_FAILURE });
  }
}

function renderSchedules(rows: readonly Row[], context: CommandContext): string {
  if (rows.length === 0) return '(no schedules: add "schedules" to the config)\n';
  const paint = painterFor(context.io.stdout, context.io.env);
  const columns = [
    { header: 'NAME', value: (row: Row) => row.name, colour: () => 'cyan' as const },
    { header: 'CRON', value: (row: Row) => row.cron },
    { header: 'TOOL', value: (row: Row) => row.tool },
    { header: 'NEXT RUN', value: (row: Row) => row.next_run ?? '-' },
  ];
  if (rows.some((row) => row.counts !== undefined)) {
    columns.push(
      { header: 'LAST', value: (row: Row) => (row.last_run ? `${row.last_run.status} ${row.last_run.tick}` : '-') },
      { header: 'OK/ERR/REFUSED/SKIPPED', value: (row: Row) => (row.counts ? `${row.counts.ok}/${row.counts.error}/${row.counts.refused}/${row.counts.skipped}` : '-') },
    );
  }
  return renderTable(rows, columns, { paint });
}
