/**
 * Identity and the audit log together, through real parts: tokens from a real issuer (oidc-provider
 * on loopback), a daemon with `auth`, `principals` and `audit`. The writer's `write_file` waits for an
 * approval; the reader cannot see the tool; an approver principal decides. The audit log then says
 * who called, who asked and who decided; its chain verifies (`toolhost audit verify`, exit 0), and a
 * flipped byte is reported at its record (exit 1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/host-types.ts';
import { auditCli, copyLog, lineOffset, recordsOf } from '../audit/helpers.ts';
import { startIdentityDaemon, temporaryDirectory, type IdentityDaemon } from './identity-daemon.ts';
import { startIssuer, type TestIssuer } from './oidc-issuer.ts';

let issuer: TestIssuer;
let daemon: IdentityDaemon;
const auditLog = join(temporaryDirectory('toolhost-identity-audit-'), 'audit.jsonl');
const tokens = { alice: '', bob: '', carol: '' };

beforeAll(async () => {
  issuer = await startIssuer({
    clients: [
      { client_id: 'alice', scope: 'tools:read tools:write' },
      { client_id: 'bob', scope: 'tools:read' },
      { client_id: 'carol', scope: 'tools:read' },
    ],
    scopes: ['tools:read', 'tools:write'],
    groupsOf: (subject) => (subject === 'carol' ? ['approvers'] : undefined),
  });
  daemon = await startIdentityDaemon(issuer.issuer, {
    auth: { scopes: { 'tools:read': 'read_only', 'tools:write': 'write' } },
    principals: [{ match: { group: 'approvers' }, approver: true }, { match: { scope: 'tools:read' } }],
    approvals: [{ tool: 'write_file', action: 'ask' }],
    audit: { path: auditLog, fsync: 'always' },
  });
  for (const name of ['alice', 'bob', 'carol'] as const) {
    tokens[name] = await issuer.clientToken(name, { scope: name === 'alice' ? 'tools:read tools:write' : 'tools:read', resource: daemon.audience });
  }
}, 120_000);

afterAll(async () => {
  await daemon?.close();
  await issuer?.close();
});

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

function nextEvent<T extends HostEvent['type']>(type: T): Promise<Extract<HostEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = daemon.host.onEvent((event) => {
      if (event.type !== type) return;
      stop();
      resolve(event as Extract<HostEvent, { type: T }>);
    });
  });
}

describe('who did what, in the audit log', () => {
  it('records the caller, who asked and who decided; the reader never reaches write_file; the chain verifies and a flipped byte is found', async () => {
    // bob (read only) does not see write_file and cannot call it
    const listed = (await (await fetch(`${daemon.url}/v1/tools`, { headers: bearer(tokens.bob) })).json()) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).not.toContain('write_file');
    const refused = await fetch(`${daemon.url}/v1/tools/write_file/call`, { method: 'POST', headers: bearer(tokens.bob), body: JSON.stringify({ arguments: { path: 'b.txt', content: 'no' } }) });
    expect(refused.status).toBe(403);

    // alice's call waits for an approval; carol (an approver) allows it
    const requested = nextEvent('approval_requested');
    const pending = fetch(`${daemon.url}/v1/tools/write_file/call`, { method: 'POST', headers: bearer(tokens.alice), body: JSON.stringify({ arguments: { path: 'a.txt', content: 'approved' } }) });
    const request = await requested;
    const decided = await fetch(`${daemon.url}/v1/approvals/${request.id}`, { method: 'POST', headers: bearer(tokens.carol), body: JSON.stringify({ decision: 'allow' }) });
    expect(await decided.json()).toMatchObject({ decision: 'allow', decided_by: 'carol' });
    expect(((await (await pending).json()) as { is_error: boolean }).is_error).toBe(false);
    expect(readFileSync(join(daemon.workspace, 'a.txt'), 'utf8')).toBe('approved');

    // fsync "always": the records are on disk once the calls are answered
    const records = recordsOf(auditLog);
    const write = records.find((record) => record.type === 'call' && record.tool === 'write_file' && record.status === 'ok');
    expect(write).toMatchObject({ principal: { sub: 'alice', client_id: 'alice' }, transport: 'http', approval: { decision: 'allow', decided_by: { sub: 'carol', kind: 'token' } } });
    const approval = records.find((record) => record.type === 'approval' && record.approval_id === request.id);
    expect(approval).toMatchObject({ decision: 'allow', decided_by: { sub: 'carol' }, requested_by: { sub: 'alice' } });
    // bob's refused attempt never reached the call path with write_file's name as his: no ok call of his
    expect(records.filter((record) => record.type === 'call' && record.principal?.sub === 'bob' && record.status === 'ok' && record.tool === 'write_file')).toEqual([]);

    const verified = await auditCli(['verify', '--path', auditLog], daemon.workspace);
    expect(verified.exitCode).toBe(0);

    const copy = copyLog(auditLog);
    const index = records.indexOf(write);
    const bytes = readFileSync(copy);
    const offset = lineOffset(copy, index) + 20;
    bytes[offset] = bytes[offset]! ^ 0x01;
    writeFileSync(copy, bytes);
    const damaged = await auditCli(['verify', '--path', copy], daemon.workspace);
    expect(damaged.exitCode).toBe(1);
    expect(damaged.stdout).toContain(`audit log damaged at record ${write.seq}`);
  }, 120_000);
});
