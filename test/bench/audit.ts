/**
 * The audit log's per-call cost: the same daemon (the shipped build, `node dist/src/cli/bin.js
 * serve`, built-ins only) without `audit`, then with `audit` under each fsync policy (never, batch,
 * always), each on a fresh log in the same run. Calls are the built-in `list_dir` over HTTP
 * (keep-alive), so the row differences are the host's own per-call work: one sequential caller (p50,
 * p99) and AUDIT_BENCH_CALLERS concurrent callers (calls/s; under `always` concurrent records share
 * one fdatasync). The load generator shares the machine's cores with the daemon. The first row is
 * measured again at the end to show the drift of the machine over the run.
 *
 *   npm run build && node --import tsx test/bench/audit.ts
 *
 * Env: AUDIT_BENCH_SECONDS (per series, default 5), AUDIT_BENCH_CALLERS (default 8).
 * Prints numbers, asserts nothing; the log of each audited row is verified after it (`verifyAuditLog`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { FileAuditSink } from '../../src/audit/file-sink.ts';
import { HostAudit } from '../../src/audit/host-audit.ts';
import { verifyAuditLog } from '../../src/audit/verify.ts';
import { silentLogger } from '../../src/logger.ts';
import { textResult } from '../../src/result.ts';
import { defineTool } from '../../src/tool.ts';
import { z } from 'zod';
import { renderTable, rowFromTimings, timeConcurrent, timeSequential, type BenchRow } from './bench-table.ts';
import { DIST_BIN } from './peers/context.ts';
import { httpCaller } from './peers/toolhost-daemon.ts';

const seconds = Number(process.env['AUDIT_BENCH_SECONDS'] ?? 5);
const callers = Number(process.env['AUDIT_BENCH_CALLERS'] ?? 8);
const scratch = mkdtempSync(join(tmpdir(), 'toolhost-audit-bench-'));
const LIST_DIR = { tool: 'list_dir', arguments: { path: '.' }, expect: (content: string) => content.startsWith('. (workspace root)') };

interface Variant {
  name: string;
  audit?: { fsync: 'never' | 'batch' | 'always' };
}

async function startDaemon(variant: Variant, index: number): Promise<{ child: ChildProcess; url: URL; log: string | undefined }> {
  const folder = join(scratch, `${index}-${variant.name.replace(/\W+/g, '-')}`);
  const workspace = join(folder, 'ws');
  mkdirSync(workspace, { recursive: true });
  const log = variant.audit ? join(folder, 'logs', 'audit.jsonl') : undefined;
  const config = join(folder, 'toolhost.json');
  writeFileSync(config, JSON.stringify({ workspace, ...(log ? { audit: { path: log, fsync: variant.audit!.fsync } } : {}) }));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', TOOLHOST_LOG_LEVEL: 'warn' };
  delete env['NODE_OPTIONS'];
  const child = spawn(process.execPath, [DIST_BIN, 'serve', '--port', '0', '--config', config], { cwd: folder, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line);
      if (found?.[1]) resolve(new URL(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`toolhost serve exited with ${code} before listening`)));
  });
  return { child, url, log };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The host's own work per record, without HTTP: HostAudit.around over a call that returns at once, 20 000 times. */
async function recordMicroseconds(): Promise<number> {
  const log = join(scratch, 'micro', 'audit.jsonl');
  const sink = await FileAuditSink.open({ path: log, fsync: 'never', maxBytes: 1024 * 1024 * 1024, logger: silentLogger(), started: { type: 'audit', event: 'started' } });
  const audit = new HostAudit(sink);
  const result = textResult('ok');
  const run = async (): Promise<ReturnType<typeof textResult>> => result;
  const tool = defineTool({ name: 'list_dir', description: 'd', permission: 'read_only', input: z.object({ path: z.string() }), secretParams: [], execute: run });
  const options = { transport: 'http' as const, lookedUp: tool };
  for (let index = 0; index < 2_000; index += 1) await audit.around('list_dir', { path: '.' }, options, run);
  const started = performance.now();
  const count = 20_000;
  for (let index = 0; index < count; index += 1) await audit.around('list_dir', { path: '.' }, options, run);
  const micros = ((performance.now() - started) * 1000) / count;
  await audit.close();
  return micros;
}

const variants: Variant[] = [{ name: 'audit off' }, { name: 'audit fsync never', audit: { fsync: 'never' } }, { name: 'audit fsync batch', audit: { fsync: 'batch' } }, { name: 'audit fsync always', audit: { fsync: 'always' } }, { name: 'audit off (again)' }];
const sequential: BenchRow[] = [];
const concurrent: BenchRow[] = [];
try {
  for (const [index, variant] of variants.entries()) {
    const daemon = await startDaemon(variant, index);
    const agent = new Agent({ keepAlive: true, maxSockets: callers });
    try {
      const call = httpCaller(daemon.url, agent, LIST_DIR);
      sequential.push(rowFromTimings(variant.name, await timeSequential(call, { warmup: 300, calls: Number.MAX_SAFE_INTEGER, maxSeconds: seconds }), 'list_dir over HTTP, 1 caller'));
      concurrent.push(rowFromTimings(variant.name, await timeConcurrent(call, callers, { warmup: 100, calls: Number.MAX_SAFE_INTEGER, maxSeconds: seconds }), `list_dir over HTTP, ${callers} callers`));
    } finally {
      agent.destroy();
      await stop(daemon.child);
    }
    if (daemon.log !== undefined) {
      const report = verifyAuditLog(daemon.log);
      console.error(`${variant.name}: ${report.ok ? 'verified' : 'NOT verified'}, ${report.records} records`);
    }
  }
  console.log(`## Audit log cost per call (${seconds} s per series, node ${process.version})\n`);
  console.log(`In process, one call record (build, seal, one write; fsync never): ${(await recordMicroseconds()).toFixed(1)} µs\n`);
  console.log(renderTable(sequential, 'audit off'));
  console.log('');
  console.log(renderTable(concurrent, 'audit off'));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
