/**
 * The audit log inside a real host (createHost with the shipped built-ins and a real file sink): the
 * principal a call carries is recorded, a nested call (run_code's `tools.x()`) is recorded with its
 * parent's call id and keeps its parent's principal and transport, arguments that try to break the
 * line format stay one record, and a host whose log cannot be written refuses calls unrun.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileAuditSink } from '../../src/audit/file-sink.ts';
import { HostAudit } from '../../src/audit/host-audit.ts';
import type { AuditFields, AuditSink } from '../../src/audit/sink.ts';
import { verifyAuditLog } from '../../src/audit/verify.ts';
import type { Host } from '../../src/host-types.ts';
import { createHost } from '../../src/host.ts';
import type { Principal } from '../../src/identity/principal.ts';
import { silentLogger } from '../../src/logger.ts';
import { textResult } from '../../src/result.ts';
import { defineTool } from '../../src/tool.ts';
import { temporaryDirectory } from '../server/helpers.ts';
import { recordsOf } from './helpers.ts';

const ALICE: Principal = { subject: 'alice', clientId: 'ide-client', scopes: ['tools.write'], kind: 'token' };

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close({ graceMs: 1_000 });
});

async function auditedHost(): Promise<{ host: Host; log: string }> {
  const root = temporaryDirectory('toolhost-host-audit-');
  mkdirSync(join(root, 'ws'));
  const log = join(root, 'logs', 'audit.jsonl');
  const sink = await FileAuditSink.open({ path: log, fsync: 'always', maxBytes: 1024 * 1024, logger: silentLogger(), started: { type: 'audit', event: 'started' } });
  const host = await createHost({ workspaceRoot: join(root, 'ws') }, { audit: new HostAudit(sink) });
  hosts.push(host);
  return { host, log };
}

describe('a host with an audit log', () => {
  it('records the principal, and a nested call with its parent and the same principal and transport', async () => {
    const { host, log } = await auditedHost();
    const result = await host.callTool('run_code', { code: 'const listing = await tools.list_dir({ path: "." }); return listing;' }, { principal: ALICE, transport: 'mcp' });
    expect(result.is_error, result.content).toBe(false);
    await host.close();
    const calls = recordsOf(log).filter((record) => record.type === 'call');
    expect(calls.map((call) => call.tool)).toEqual(['list_dir', 'run_code']);
    const [inner, outer] = calls;
    const principal = { sub: 'alice', client_id: 'ide-client', kind: 'token' };
    expect(outer).toMatchObject({ principal, transport: 'mcp', status: 'ok' });
    expect(outer.parent_call_id).toBeUndefined();
    expect(inner).toMatchObject({ principal, transport: 'mcp', status: 'ok', parent_call_id: outer.call_id });
    expect(verifyAuditLog(log).ok).toBe(true);
  }, 60_000);

  it('arguments built to forge a record stay inside one line', async () => {
    const { host, log } = await auditedHost();
    const forged = '"}\n{"seq":3,"type":"call","tool":"write_file","status":"ok","prev":"' + '0'.repeat(64) + '","hash":"' + 'f'.repeat(64) + '"}\n';
    await host.callTool('list_dir', { path: forged }, {});
    await host.callTool('unknown_tool', { key: 'sk-should-not-be-recorded' }, {});
    await host.close();
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4); // started, two calls, stopped
    const records = recordsOf(log);
    expect(records[1]).toMatchObject({ type: 'call', tool: 'list_dir', arguments: { path: forged }, status: 'error' });
    // A tool that is not found: its secret parameters are unknown, so its arguments are recorded by hash only.
    expect(records[2]).toMatchObject({ tool: 'unknown_tool', status: 'refused', reason: 'unknown', arguments: null, arguments_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), tool_digest: null });
    expect(readFileSync(log, 'utf8')).not.toContain('sk-should-not-be-recorded');
    expect(verifyAuditLog(log).ok).toBe(true);
  }, 60_000);

  it('refuses calls unrun once the log cannot be written', async () => {
    let ran = 0;
    const counted = defineTool({
      name: 'counted',
      description: 'Counts its runs.',
      permission: 'read_only',
      input: z.object({}),
      secretParams: [],
      async execute() {
        ran += 1;
        return textResult('ran');
      },
    });
    const appended: AuditFields[] = [];
    const broken: AuditSink & { writable: boolean } = {
      writable: true,
      fsync: 'always',
      async append(fields) {
        appended.push(fields);
      },
      async close() {},
    };
    const host = await createHost({ workspaceRoot: temporaryDirectory() }, { builtinTools: [counted], audit: new HostAudit(broken) });
    hosts.push(host);
    expect((await host.callTool('counted', {})).is_error).toBe(false);
    broken.writable = false;
    const refused = await host.callTool('counted', {});
    expect(refused).toMatchObject({ is_error: true, metadata: { reason: 'audit_unavailable' } });
    expect(ran).toBe(1);
    expect(appended.map((fields) => [fields['tool'], fields['status']])).toEqual([
      ['counted', 'ok'],
      ['counted', 'refused'],
    ]);
  }, 60_000);
});
