/**
 * Benchmark of abandoned MCP sessions (prints numbers, asserts nothing):
 *   node --import tsx test/bench/mcp-sessions.ts
 * Starts the real daemon (`toolhost serve --port 0`, a subprocess) and opens BENCH_SESSIONS MCP
 * sessions over Streamable HTTP the way a leaky client does: initialize, read the answer, never
 * DELETE. Reports the daemon's resident memory (VmRSS, Linux /proc) before and after, how many
 * sessions it still holds (estimated by probing 200 evenly spaced session ids), and how long SIGTERM takes to exit (grace 10 s). Twice: with the default
 * session cap (limits.max_mcp_sessions 1000) and with the cap lifted (1e9, the old behaviour).
 * Env: BENCH_SESSIONS (default 20000), BENCH_CONCURRENCY (default 32).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const sessions = Number(process.env.BENCH_SESSIONS ?? 20_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });

interface Result {
  label: string;
  rssBeforeMb: number;
  rssAfterMb: number;
  opened: number;
  refused: number;
  openSeconds: number;
  heldSessions: number;
  shutdownMs: number;
  exitCode: number | null;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? Number.NaN) / 1024);
}

async function run(label: string, limits: Record<string, number>): Promise<Result> {
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-bench-mcp-'));
  writeFileSync(join(workspace, 'toolhost.json'), JSON.stringify({ limits }));
  const child = spawn(process.execPath, [join(root, 'src/cli/bin.mjs'), 'serve', '--port', '0', '--config', 'toolhost.json'], {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', TOOLHOST_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`serve exited: ${stdout}`)));
  });
  const pid = child.pid as number;
  try {
    // Warm up (first requests compile code paths), then measure from a settled baseline.
    for (let index = 0; index < 20; index++) await (await fetch(`${url}/mcp`, { method: 'POST', headers: HEADERS, body: INITIALIZE })).text();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rssBeforeMb = rssMb(pid);
    let next = 0;
    let opened = 0;
    const ids: string[] = [];
    let refused = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < sessions) {
          next += 1;
          const response = await fetch(`${url}/mcp`, { method: 'POST', headers: HEADERS, body: INITIALIZE });
          await response.text();
          if (response.status === 200) {
            opened += 1;
            ids.push(response.headers.get('mcp-session-id') as string);
          } else {
            refused += 1;
          }
        }
      }),
    );
    const openSeconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAfterMb = rssMb(pid);
    const probes = Array.from({ length: 200 }, (_, index) => ids[Math.floor((index * ids.length) / 200)] as string);
    let alive = 0;
    for (const id of probes) {
      const response = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
      await response.text();
      if (response.status === 200) alive += 1;
    }
    const heldSessions = Math.round((alive / probes.length) * ids.length);
    const stopStarted = performance.now();
    child.kill('SIGTERM');
    const exitCode = await exited;
    const shutdownMs = Math.round(performance.now() - stopStarted);
    return { label, rssBeforeMb, rssAfterMb, opened, refused, openSeconds, heldSessions, shutdownMs, exitCode };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(workspace, { recursive: true, force: true });
  }
}

function report(result: Result): void {
  console.log(
    `${result.label.padEnd(22)} RSS ${String(result.rssBeforeMb).padStart(5)} MB → ${String(result.rssAfterMb).padStart(5)} MB` +
      `   opened ${result.opened} (refused ${result.refused}) in ${result.openSeconds.toFixed(1)} s` +
      `   sessions held ≈${result.heldSessions}` +
      `   SIGTERM → exit ${result.exitCode} in ${result.shutdownMs} ms`,
  );
}

console.log(`abandoned MCP sessions: ${sessions} initialize requests, never DELETEd, ${concurrency} at a time, against toolhost serve`);
report(await run('cap 1000 (default)', {}));
report(await run('no cap (1e9)', { max_mcp_sessions: 1_000_000_000 }));
