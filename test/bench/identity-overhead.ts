/**
 * What identity mode costs per HTTP call: the same built-in call (`list_dir` of a small folder)
 * against two real `toolhost serve` processes, one with the static bearer token and one in identity
 * mode (config `auth` + a `principals` rule, a JWT access token from a real issuer, oidc-provider on
 * loopback), measured one daemon at a time from keep-alive connections. Prints a table (p50, p99,
 * calls/s, ratios against the static token row); asserts nothing.
 *
 *   node --import tsx test/bench/identity-overhead.ts
 *
 * Env: BENCH_SECONDS (per row, default 10), BENCH_CALLERS (default 8).
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { renderTable, rowFromTimings, timeConcurrent, type BenchRow } from './bench-table.ts';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { temporaryDirectory } from '../identity/identity-daemon.ts';
import { startIssuer } from '../identity/oidc-issuer.ts';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);
const callers = Number(process.env['BENCH_CALLERS'] ?? 8);
const STATIC_TOKEN = 'bench-static-token-0123456789';
const ADMIN_TOKEN = 'bench-admin-token-0123456789ab';

function caller(url: string, token: string, agent: Agent): () => Promise<void> {
  const target = new URL(url);
  const body = JSON.stringify({ arguments: { path: '.' } });
  return () =>
    new Promise((resolve, reject) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, method: 'POST', path: '/v1/tools/list_dir/call', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => (response.statusCode === 200 && !(JSON.parse(text) as { is_error: boolean }).is_error ? resolve() : reject(new Error(`${response.statusCode} ${text.slice(0, 300)}`))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

async function measure(path: string, daemon: DaemonProcess, token: string): Promise<BenchRow> {
  const agent = new Agent({ keepAlive: true, maxSockets: callers });
  try {
    const timings = await timeConcurrent(caller(daemon.url, token, agent), callers, { warmup: 300, calls: Number.MAX_SAFE_INTEGER, maxSeconds: seconds });
    return rowFromTimings(path, timings, `${callers} keep-alive callers, POST /v1/tools/list_dir/call, ${seconds} s`);
  } finally {
    agent.destroy();
    await daemon.stop();
  }
}

const workspace = temporaryDirectory('toolhost-bench-identity-');
for (let index = 0; index < 20; index += 1) writeFileSync(join(workspace, `file-${index}.txt`), 'x');
const env = { ...process.env, TOOLHOST_ADMIN_TOKEN: ADMIN_TOKEN, TOOLHOST_TOKEN: undefined };
const rows: BenchRow[] = [];

rows.push(await measure('static token (--token)', await startDaemon(['--workspace', workspace, '--token', STATIC_TOKEN], { cwd: workspace, env }), STATIC_TOKEN));

const issuer = await startIssuer({ clients: [{ client_id: 'bench', scope: 'tools:read' }], scopes: ['tools:read'] });
try {
  const audience = 'http://127.0.0.1:1/toolhost';
  const config = join(temporaryDirectory('toolhost-bench-identity-config-'), 'toolhost.json');
  writeFileSync(config, JSON.stringify({ auth: { issuer: issuer.issuer, audience, scopes: { 'tools:read': 'read_only' } }, principals: [{ match: { scope: 'tools:read' }, exclude: ['shell'] }] }));
  const token = await issuer.clientToken('bench', { scope: 'tools:read', resource: audience });
  rows.push(await measure('identity mode (JWT RS256, auth.scopes, principals)', await startDaemon(['--workspace', workspace, '--config', config], { cwd: workspace, env }), token));
} finally {
  await issuer.close();
}
console.log(renderTable(rows, 'static token (--token)'));
