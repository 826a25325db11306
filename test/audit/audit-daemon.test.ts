/**
 * The audit log through real processes: a `toolhost serve` daemon with `audit` on, calls over HTTP
 * (a built-in, a real wasm tool with a secret parameter, a write tool waiting for an approval decided
 * with the admin token), then `toolhost audit verify|tail|query` on the files it wrote, and the
 * attacks on them: a flipped byte, a deleted record, a record rewritten with a fresh hash, a cut
 * tail, a removed rotated file. Then rotation with a small `max_bytes`, and `kill -9` while calls are
 * being written (torn tail reported, repaired on restart, chain continued). Each fsync policy runs.
 */
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sealRecord } from '../../src/audit/chain.ts';
import { spawnCli } from '../cli/run-cli.ts';
import { fixture } from '../extensions/helpers.ts';
import { decideApproval, pendingApprovals } from '../server/helpers.ts';
import type { DaemonProcess } from '../server/daemon-process.ts';
import { allRecords, AUDIT_ADMIN_TOKEN, auditCli, auditProject, type AuditProject, callOverHttp, copyLog, lineOffset, logFiles, recordsOf, startAuditDaemon, waitReady } from './helpers.ts';

const PASTED_SECRET = 'sk-pasted-literal-4242';
const ENV_SECRET = 'sk-env-secret-9999-abcdef';

const projects: AuditProject[] = [];
const daemons: DaemonProcess[] = [];
afterAll(async () => {
  for (const daemon of daemons) if (daemon.child.exitCode === null && daemon.child.signalCode === null) daemon.child.kill('SIGKILL');
  for (const project of projects) project.remove();
});

function project(audit: Record<string, unknown>, extra: Record<string, unknown> = {}): AuditProject {
  const created = auditProject(audit, extra);
  projects.push(created);
  return created;
}

async function daemon(target: AuditProject, env: Record<string, string> = {}): Promise<DaemonProcess> {
  const started = await startAuditDaemon(target, env);
  daemons.push(started);
  return started;
}

/** A real wasm tool (rt-behave: `print <text>` prints it) whose `text` parameter is declared secret. */
function addSecretTool(target: AuditProject): void {
  const tools = join(target.root, 'tools');
  copyFileSync(fixture('rt-behave'), join(tools, 'leaky.wasm'));
  const spec = {
    name: 'leaky',
    description: 'Prints what it is given.',
    options: [],
    positionals: [
      { name: 'mode', required: true, variadic: false },
      { name: 'text', required: true, variadic: false },
    ],
    subcommands: [],
  };
  writeFileSync(join(tools, 'leaky.tool.json'), JSON.stringify({ spec, secret_params: ['text'] }));
}

describe('a daemon with fsync always', () => {
  const target = project({ fsync: 'always' }, { approvals: [{ tool: 'write_file', action: 'ask' }] });
  addSecretTool(target);
  let records: any[] = [];

  it('records every call, the approval with its decider, secrets redacted; verify exits 0', async () => {
    const served = await daemon(target, { TOOLHOST_SECRET_AUDIT_KEY: ENV_SECRET });
    await waitReady(served.url);
    expect((await callOverHttp(served.url, 'list_dir', { path: '.' })).is_error).toBe(false);
    expect((await callOverHttp(served.url, 'leaky', { mode: 'print', text: PASTED_SECRET })).is_error).toBe(false);
    const substituted = await callOverHttp(served.url, 'leaky', { mode: 'print', text: '<secret_ref:AUDIT_KEY>' });
    expect(substituted.is_error).toBe(false);
    const allowed = callOverHttp(served.url, 'write_file', { path: 'a.txt', content: 'hello' });
    const [pending] = await pendingApprovals(served.url, 1, AUDIT_ADMIN_TOKEN);
    expect((await decideApproval(served.url, pending.id, 'allow', AUDIT_ADMIN_TOKEN)).status).toBe(200);
    expect((await allowed).is_error).toBe(false);
    const denied = callOverHttp(served.url, 'write_file', { path: 'b.txt', content: 'no' });
    const [second] = await pendingApprovals(served.url, 1, AUDIT_ADMIN_TOKEN);
    expect((await decideApproval(served.url, second.id, 'deny', AUDIT_ADMIN_TOKEN)).status).toBe(200);
    expect((await denied).is_error).toBe(true);
    await served.stop();

    const text = readFileSync(target.log, 'utf8');
    expect(text).not.toContain(PASTED_SECRET);
    expect(text).not.toContain(ENV_SECRET);
    records = recordsOf(target.log);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(records[0]).toMatchObject({ seq: 1, type: 'audit', event: 'started', fsync: 'always', prev: '0'.repeat(64) });
    expect(records.at(-1)).toMatchObject({ type: 'audit', event: 'stopped' });
    const added = records.find((record) => record.type === 'tool' && record.tool === 'leaky');
    expect(added).toMatchObject({ event: 'added', source: 'wasm', tool_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });

    const calls = records.filter((record) => record.type === 'call');
    expect(calls.map((call) => call.tool)).toEqual(['list_dir', 'leaky', 'leaky', 'write_file', 'write_file']);
    expect(calls[0]).toMatchObject({
      principal: null,
      transport: 'http',
      tool_digest: expect.stringMatching(/^builtin:list_dir@/),
      arguments: { path: '.' },
      approval: null,
      quota: { outcome: 'admitted' },
      status: 'ok',
      reason: null,
      duration_ms: expect.any(Number),
    });
    expect(calls[1]).toMatchObject({ tool_digest: added.tool_digest, arguments: { mode: 'print', text: '[REDACTED]' }, status: 'ok' });
    expect(calls[2]).toMatchObject({ arguments: { mode: 'print', text: '<secret_ref:AUDIT_KEY>' }, status: 'ok' });
    const decider = { sub: 'admin-token', client_id: null, kind: 'static-token' };
    expect(calls[3]).toMatchObject({ status: 'ok', approval: { decision: 'allow', reason: 'user', via: 'http', decided_by: decider }, quota: { outcome: 'admitted' } });
    expect(calls[4]).toMatchObject({ status: 'refused', reason: 'approval_denied', approval: { decision: 'deny', decided_by: decider }, quota: { outcome: 'not_reached' } });
    const approvals = records.filter((record) => record.type === 'approval');
    expect(approvals).toHaveLength(2);
    expect(approvals[0]).toMatchObject({ approval_id: pending.id, tool: 'write_file', decision: 'allow', reason: 'user', via: 'http', decided_by: decider, requested_by: null, call_id: calls[3].call_id });
    // The decision is written when it is made, before the call it admitted ends.
    expect(approvals[0].seq).toBeLessThan(calls[3].seq);

    const verified = await auditCli(['verify', '--config', target.config], target.root);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`audit log intact: ${records.length} records`);
  }, 240_000);

  it('a flipped byte in the middle: verify exits 1 naming that record', async () => {
    const copy = copyLog(target.log);
    const middle = Math.floor(records.length / 2);
    const bytes = readFileSync(copy);
    const offset = lineOffset(copy, middle) + 20; // inside `"time":"…"`
    bytes[offset] = bytes[offset]! ^ 0x01;
    writeFileSync(copy, bytes);
    const verified = await auditCli(['verify', '--path', copy], target.root);
    expect(verified.exitCode).toBe(1);
    expect(verified.stdout).toContain(`audit log damaged at record ${records[middle].seq} (${copy} line ${middle + 1})`);
    const json = JSON.parse((await auditCli(['verify', '--path', copy, '--json'], target.root)).stdout);
    expect(json).toMatchObject({ ok: false, bad: { seq: records[middle].seq, line: middle + 1 } });
  }, 60_000);

  it('a deleted record, a rewritten record with a fresh hash, and a cut tail are each detected', async () => {
    const lines = readFileSync(target.log, 'utf8').split('\n').filter((line) => line !== '');
    const middle = Math.floor(lines.length / 2);

    const deleted = copyLog(target.log);
    writeFileSync(deleted, `${lines.filter((_, index) => index !== middle).join('\n')}\n`);
    const afterDelete = await auditCli(['verify', '--path', deleted], target.root);
    expect(afterDelete.exitCode).toBe(1);
    expect(afterDelete.stdout).toContain(`at record ${records[middle].seq}`);
    expect(afterDelete.stdout).toContain(`record ${records[middle].seq} is missing`);

    // An attacker who knows the format rewrites a record and seals it again: the next record's prev gives it away.
    const rewritten = copyLog(target.log);
    const { seq, prev, hash: _hash, ...fields } = records[middle];
    const forged = sealRecord(seq, { ...fields, time: '2020-01-01T00:00:00.000Z' }, prev);
    writeFileSync(rewritten, `${lines.map((line, index) => (index === middle ? forged.line.trimEnd() : line)).join('\n')}\n`);
    const afterRewrite = await auditCli(['verify', '--path', rewritten], target.root);
    expect(afterRewrite.exitCode).toBe(1);
    expect(afterRewrite.stdout).toContain(`at record ${seq + 1}`);
    expect(afterRewrite.stdout).toContain(`does not match the hash of record ${seq}`);

    // Cutting whole records off the end leaves a well-formed file: the head file says more was written.
    const cut = copyLog(target.log);
    writeFileSync(cut, `${lines.slice(0, -2).join('\n')}\n`);
    const afterCut = await auditCli(['verify', '--path', cut], target.root);
    expect(afterCut.exitCode).toBe(1);
    expect(afterCut.stdout).toContain('the log was truncated');
    // Without the head (a copy verified with --no-head) that goes unnoticed, and verify says so.
    const noHead = await auditCli(['verify', '--path', cut, '--no-head'], target.root);
    expect(noHead.exitCode).toBe(0);
    expect(noHead.stdout).toContain('a log cut short at its tail is not detected');
    // Deleting the head too is not a way out.
    rmSync(`${cut}.head`);
    expect((await auditCli(['verify', '--path', cut], target.root)).exitCode).toBe(1);
  }, 60_000);

  it('a daemon does not chain onto a log whose tail was cut', async () => {
    const lines = readFileSync(target.log, 'utf8').split('\n').filter((line) => line !== '');
    const original = readFileSync(target.log);
    writeFileSync(target.log, `${lines.slice(0, -1).join('\n')}\n`);
    await expect(startAuditDaemon(target)).rejects.toThrow(/head file says record \d+ was written/);
    writeFileSync(target.log, original);
  }, 60_000);

  it('query and tail read the records back with filters', async () => {
    const leaky = await auditCli(['query', '--config', target.config, '--tool', 'leaky', '--type', 'call', '--json'], target.root);
    expect(leaky.exitCode).toBe(0);
    expect(leaky.stdout.trim().split('\n').map((line) => JSON.parse(line).seq)).toEqual(records.filter((record) => record.type === 'call' && record.tool === 'leaky').map((record) => record.seq));
    const refused = await auditCli(['query', '--config', target.config, '--status', 'refused'], target.root);
    expect(refused.stdout.trim().split('\n')).toEqual([expect.stringMatching(/ call write_file refused \(approval_denied\) .*approval=deny by admin-token$/)]);
    const future = await auditCli(['query', '--config', target.config, '--since', '2999-01-01'], target.root);
    expect(future.stdout).toBe('');
    const recent = await auditCli(['query', '--config', target.config, '--since', '1h', '--type', 'approval'], target.root);
    expect(recent.stdout.trim().split('\n')).toHaveLength(2);
    const nobody = await auditCli(['query', '--config', target.config, '--principal', 'alice'], target.root);
    expect(nobody.stdout).toBe('');
    const tail = await auditCli(['tail', '--config', target.config, '-n', '2', '--json'], target.root);
    expect(tail.stdout.trim().split('\n').map((line) => JSON.parse(line).seq)).toEqual(records.slice(-2).map((record) => record.seq));
    const bad = await auditCli(['query', '--config', target.config, '--since', 'yesterday'], target.root);
    expect(bad.exitCode).toBe(2);
  }, 60_000);
});

describe('rotation (fsync never, small max_bytes)', () => {
  const target = project({ fsync: 'never', max_bytes: 2048 });

  it('rotates into numbered files with the chain carried over; verify walks them all', async () => {
    const served = await daemon(target);
    for (let index = 0; index < 30; index += 1) expect((await callOverHttp(served.url, 'list_dir', { path: '.' })).is_error).toBe(false);
    await served.stop();
    const files = logFiles(target.log);
    expect(files.length).toBeGreaterThan(3);
    for (const [index, file] of files.entries()) {
      if (index === 0) continue;
      const [first] = recordsOf(file);
      expect(first.prev).toBe(recordsOf(files[index - 1]!).at(-1).hash);
      expect(readFileSync(files[index - 1]!).length).toBeLessThanOrEqual(2048);
    }
    const records = allRecords(target.log);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(records.filter((record) => record.type === 'call')).toHaveLength(30);
    const verified = await auditCli(['verify', '--config', target.config], target.root);
    expect(verified.exitCode, verified.stdout).toBe(0);
    expect(verified.stdout).toContain(`in ${files.length} file(s)`);
    const query = await auditCli(['query', '--config', target.config, '--tool', 'list_dir', '--json'], target.root);
    expect(query.stdout.trim().split('\n')).toHaveLength(30);

    // Removing the oldest file breaks the start of the chain; removing a middle one breaks a link.
    const copy = copyLog(target.log);
    const copies = logFiles(copy);
    rmSync(copies[1]!);
    const gap = await auditCli(['verify', '--path', copy], target.root);
    expect(gap.exitCode).toBe(1);
    expect(gap.stdout).toMatch(/records \d+–\d+ are missing/);
    rmSync(copies[0]!);
    const start = await auditCli(['verify', '--path', copy], target.root);
    expect(start.exitCode).toBe(1);
    expect(start.stdout).toContain('the chain starts at record');
  }, 240_000);
});

describe('a clean restart, and tail -f', () => {
  const target = project({ fsync: 'never' });

  it('continues the chain across restarts; tail -f prints records as they are written', async () => {
    const first = await daemon(target);
    expect((await callOverHttp(first.url, 'list_dir', { path: '.' })).is_error).toBe(false);
    await first.stop();
    const second = await daemon(target);
    const follower = spawnCli(['audit', 'tail', '-f', '-n', '1', '--json', '--config', target.config], { cwd: target.root });
    let out = '';
    follower.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => follower.on('exit', (code) => resolve(code)));
    // The last record so far comes first; then each new one as it is written.
    while (!out.includes('"event":"started"')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await callOverHttp(second.url, 'glob', { pattern: '*.none' })).is_error).toBe(false);
    while (!out.includes('"tool":"glob"')) await new Promise((resolve) => setTimeout(resolve, 20));
    follower.kill('SIGINT');
    expect(await exited).toBe(0);
    await second.stop();
    const records = recordsOf(target.log);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(records.filter((record) => record.type === 'audit').map((record) => record.event)).toEqual(['started', 'stopped', 'started', 'stopped']);
    expect((await auditCli(['verify', '--config', target.config], target.root)).exitCode).toBe(0);
  }, 240_000);
});

describe('kill -9 while calls are written (fsync batch)', () => {
  const target = project({ fsync: 'batch' });

  it('verify reports at most a torn tail; a restart repairs it and continues the chain', async () => {
    const served = await daemon(target);
    let stop = false;
    const loop = async (): Promise<void> => {
      while (!stop) await callOverHttp(served.url, 'list_dir', { path: '.' }).catch(() => undefined);
    };
    const loops = [loop(), loop(), loop(), loop()];
    // Kill once some calls are on record, while the loops keep writing.
    while (recordsOf(target.log).filter((record) => record.type === 'call').length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    served.child.kill('SIGKILL');
    await served.exited;
    stop = true;
    await Promise.all(loops);

    const afterKill = await auditCli(['verify', '--config', target.config, '--json'], target.root);
    expect(afterKill.exitCode, afterKill.stdout).toBe(0);
    const report = JSON.parse(afterKill.stdout);
    expect(report.ok).toBe(true);
    expect(report.last_seq).toBeGreaterThanOrEqual(40);
    const recordsBefore = report.last_seq as number;

    // A write cut short by the crash (part of a line, no newline) is a torn tail, not a broken record.
    if (report.torn_tail === undefined) appendFileSync(target.log, '{"seq":99999,"time":"2026-01-01T00:00:00.000Z","type":"ca');
    const torn = await auditCli(['verify', '--config', target.config, '--json'], target.root);
    expect(torn.exitCode).toBe(0);
    const tornBytes = JSON.parse(torn.stdout).torn_tail.bytes as number;
    expect(tornBytes).toBeGreaterThan(0);
    expect((await auditCli(['verify', '--config', target.config], target.root)).stdout).toContain('torn tail');

    const restarted = await daemon(target);
    // One writer at a time: a second daemon on the same log refuses to start.
    await expect(startAuditDaemon(target)).rejects.toThrow(/is being written by process \d+/);
    expect((await callOverHttp(restarted.url, 'list_dir', { path: '.' })).is_error).toBe(false);
    await restarted.stop();

    const records = recordsOf(target.log);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(records[recordsBefore]).toMatchObject({ seq: recordsBefore + 1, type: 'audit', event: 'repaired', torn_bytes: tornBytes });
    expect(records[recordsBefore + 1]).toMatchObject({ type: 'audit', event: 'started' });
    expect(records.at(-2)).toMatchObject({ type: 'call', tool: 'list_dir', status: 'ok' });
    const final = await auditCli(['verify', '--config', target.config, '--json'], target.root);
    expect(final.exitCode, final.stdout).toBe(0);
    expect(JSON.parse(final.stdout).torn_tail).toBeUndefined();
  }, 240_000);
});

describe('config', () => {
  it('refuses an audit log inside the workspace, where tools write', async () => {
    const target = project({});
    writeFileSync(target.config, JSON.stringify({ workspace: 'ws', audit: { path: 'ws/audit.jsonl' } }));
    const run = await auditCli(['verify', '--config', target.config], target.root);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('lies inside the workspace');
    writeFileSync(target.config, JSON.stringify({ audit: { path: 'logs/a.jsonl', fsync: 'sometimes' } }));
    const invalid = await auditCli(['verify', '--config', target.config], target.root);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain('audit.fsync');
    writeFileSync(target.config, JSON.stringify({ audit: { path: 'logs/a.jsonl', secret: 1 } }));
    expect((await auditCli(['verify', '--config', target.config], target.root)).stderr).toContain('audit.secret: unknown field');
  }, 60_000);
});

