/**
 * The admin token on a real daemon on loopback: `/v1/approvals` answers only to it (never to no
 * token, a wrong one, or the regular token), it works on every other route, approval arguments on
 * /v1/events need it, and a generated one is written 0600 in a private directory and removed at shutdown.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../src/approvals/index.ts';
import { ToolHostError } from '../../src/errors.ts';
import { adminTokenFileName, defaultAdminTokenDirectory, generateAdminToken } from '../../src/server/admin-token.ts';
import { startServer } from '../../src/server/serve.ts';
import { ADMIN_HEADERS, createTestHost, decideApproval, pendingApprovals, postJson, readJson, startTestServer, TEST_ADMIN_TOKEN, temporaryDirectory, type TestServer } from './helpers.ts';

const ASK_ECHO: ApprovalRule[] = [{ tool: 'echo', match: { text: 'deploy *' }, action: 'ask' }];
const REGULAR = 'regular-token-for-clients';

const open: TestServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

async function daemon(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const started = await startTestServer(options, { approvals: ASK_ECHO });
  open.push(started);
  return started;
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const heldCall = (url: string, headers: Record<string, string> = {}): Promise<any> =>
  postJson(`${url}/v1/tools/echo/call`, { arguments: { text: 'deploy prod' } }, headers).then(readJson);

describe('the admin token guards approvals', { timeout: 30_000 }, () => {
  it('without a regular token: no token, a wrong token or a guessed one get 401 admin_token_required; the admin token decides', async () => {
    const t = await daemon();
    const result = heldCall(t.url);
    const [approval] = await pendingApprovals(t.url);

    for (const headers of [{}, bearer('not-the-admin-token-at-all'), { authorization: `Basic ${TEST_ADMIN_TOKEN}` }, bearer(`${TEST_ADMIN_TOKEN}x`)]) {
      const list = await fetch(`${t.url}/v1/approvals`, { headers });
      expect(list.status).toBe(401);
      expect(list.headers.get('www-authenticate')).toContain('Bearer');
      const body = await readJson(list);
      expect(body.error.code).toBe('admin_token_required');
      expect(body.error.message).toContain('Authorization: Bearer <admin token>');
      expect(body.error.message).toContain('TOOLHOST_ADMIN_TOKEN');
      for (const decision of ['allow', 'always']) {
        const decide = await postJson(`${t.url}/v1/approvals/${approval.id}`, { decision }, headers);
        expect(decide.status).toBe(401);
        expect((await readJson(decide)).error.code).toBe('admin_token_required');
      }
    }
    // Nothing was decided: the call still waits.
    expect((await pendingApprovals(t.url)).map((pending) => pending.id)).toEqual([approval.id]);

    const allowed = await decideApproval(t.url, approval.id, 'allow');
    expect(allowed.status).toBe(200);
    expect(await result).toMatchObject({ is_error: false, content: 'deploy prod' });
  });

  it('with a regular token: it gets 403 admin_token_required on approvals, the admin token works there and on every route', async () => {
    const t = await daemon({ token: REGULAR });
    const result = heldCall(t.url, bearer(REGULAR));
    const [approval] = await pendingApprovals(t.url);

    const list = await fetch(`${t.url}/v1/approvals`, { headers: bearer(REGULAR) });
    expect(list.status).toBe(403);
    const refusal = await readJson(list);
    expect(refusal.error.code).toBe('admin_token_required');
    expect(refusal.error.message).toMatch(/^The regular token does not decide approvals/);
    for (const decision of ['allow', 'always']) {
      const decide = await postJson(`${t.url}/v1/approvals/${approval.id}`, { decision }, bearer(REGULAR));
      expect(decide.status).toBe(403);
    }
    // No token at all: still the admin code, not the generic one.
    const none = await fetch(`${t.url}/v1/approvals`);
    expect(none.status).toBe(401);
    expect((await readJson(none)).error.code).toBe('admin_token_required');

    // The admin token is also a bearer token for everything the regular one opens.
    const tools = await fetch(`${t.url}/v1/tools`, { headers: ADMIN_HEADERS });
    expect(tools.status).toBe(200);
    expect(JSON.stringify(await readJson(tools))).toContain('echo');
    expect((await fetch(`${t.url}/metrics`, { headers: ADMIN_HEADERS })).status).toBe(200);
    expect((await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'hi' } }, ADMIN_HEADERS)).status).toBe(200);
    expect((await fetch(`${t.url}/v1/tools`, { headers: bearer('wrong') })).status).toBe(401);

    expect((await decideApproval(t.url, approval.id, 'deny')).status).toBe(200);
    expect((await result).metadata).toEqual({ reason: 'approval_denied' });
  });

  it('approval_requested carries the arguments only on an event stream opened with the admin token', async () => {
    const t = await daemon();
    const plain = await fetch(`${t.url}/v1/events`);
    const admin = await fetch(`${t.url}/v1/events`, { headers: ADMIN_HEADERS });
    const readers = [plain, admin].map((response) => collect(response));
    await Promise.all(readers.map((reader) => reader.until(': connected')));
    const result = heldCall(t.url);
    await Promise.all(readers.map((reader) => reader.until('event: approval_requested')));
    const [plainEvent] = readers[0]?.events('approval_requested') ?? [];
    const [adminEvent] = readers[1]?.events('approval_requested') ?? [];
    expect(adminEvent.arguments).toEqual({ text: 'deploy prod' });
    expect(plainEvent).not.toHaveProperty('arguments');
    expect(plainEvent).toEqual(omit(adminEvent, 'arguments'));
    expect(readers[0]?.text).not.toContain('deploy prod');
    await decideApproval(t.url, adminEvent.id, 'allow');
    await result;
    await Promise.all(readers.map((reader) => reader.close()));
  });

  it('the refusal names the file a generated token was written to', async () => {
    const directory = join(temporaryDirectory('toolhost-admin-dir-'), 'toolhost');
    const host = await createTestHost({ approvals: ASK_ECHO });
    const server = await startServer(host, { port: 0, keepAliveMs: 0, adminTokenDirectory: directory });
    open.push({ host, server, url: server.url, close: () => server.close(2_000) });
    const body = await readJson(await fetch(`${server.url}/v1/approvals`));
    expect(body.error.message).toContain(join(directory, adminTokenFileName(server.port)));
    expect(body.error.message).toContain('printed it on stderr');
  });
});

describe('a generated admin token', { timeout: 30_000 }, () => {
  it('is 32 random bytes in base64url, new per start', async () => {
    const first = await startServer(await createTestHost(), { port: 0, keepAliveMs: 0 });
    const second = await startServer(await createTestHost(), { port: 0, keepAliveMs: 0 });
    try {
      expect(first.admin.source).toBe('generated');
      expect(first.admin.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.admin.token).not.toBe(first.admin.token);
      // No directory given (an embedder): no file.
      expect(first.admin.file).toBeUndefined();
      expect((await fetch(`${first.url}/v1/approvals`, { headers: bearer(first.admin.token) })).status).toBe(200);
      expect((await fetch(`${first.url}/v1/approvals`, { headers: bearer(second.admin.token) })).status).toBe(401);
    } finally {
      await first.close(2_000);
      await second.close(2_000);
    }
    expect(generateAdminToken()).not.toBe(generateAdminToken());
  });

  it('is written 0600 to <directory>/admin-token-<port> in a 0700 directory, and removed at shutdown', async () => {
    const parent = temporaryDirectory('toolhost-admin-dir-');
    const directory = join(parent, 'runtime', 'toolhost');
    const server = await startServer(await createTestHost(), { port: 0, keepAliveMs: 0, adminTokenDirectory: directory });
    const file = join(directory, `admin-token-${server.port}`);
    try {
      expect(server.admin.file).toBe(file);
      expect(readFileSync(file, 'utf8')).toBe(`${server.admin.token}\n`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(directory).mode & 0o777).toBe(0o700);
    } finally {
      await server.close(2_000);
    }
    expect(existsSync(file)).toBe(false);
  });

  it('tightens an existing directory of ours to 0700 and replaces a stale file atomically', async () => {
    const directory = join(temporaryDirectory('toolhost-admin-dir-'), 'toolhost');
    mkdirSync(directory, { mode: 0o755 });
    chmodSync(directory, 0o755);
    const host = await createTestHost();
    const server = await startServer(host, { port: 0, keepAliveMs: 0, adminTokenDirectory: directory });
    try {
      expect(statSync(directory).mode & 0o777).toBe(0o700);
      expect(readFileSync(server.admin.file ?? '', 'utf8').trim()).toBe(server.admin.token);
    } finally {
      await server.close(2_000);
    }
    // A stale file of a crashed daemon on the same port is replaced by the next one.
    const stale = join(directory, adminTokenFileName(server.port));
    writeFileSync(stale, 'stale-token-of-a-crashed-daemon\n', { mode: 0o644 });
    const next = await startServer(await createTestHost(), { port: server.port, keepAliveMs: 0, adminTokenDirectory: directory });
    try {
      expect(readFileSync(stale, 'utf8').trim()).toBe(next.admin.token);
      expect(statSync(stale).mode & 0o777).toBe(0o600);
    } finally {
      await next.close(2_000);
    }
  });

  it('refuses a symbolic link, a file, and a directory another user owns (SERVER_START_REFUSED)', async () => {
    const parent = temporaryDirectory('toolhost-admin-dir-');
    const elsewhere = join(parent, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    const link = join(parent, 'link');
    symlinkSync(elsewhere, link);
    const file = join(parent, 'file');
    writeFileSync(file, '');
    const cases: Array<[string, RegExp]> = [
      [link, /symbolic link/],
      [file, /not a directory/],
    ];
    if (process.getuid?.() === 0) {
      const foreign = join(parent, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 4242, 4242);
      cases.push([foreign, /belongs to another user \(uid 4242\)/]);
    }
    for (const [directory, reason] of cases) {
      const host = await createTestHost();
      try {
        const error = await startServer(host, { port: 0, adminTokenDirectory: directory }).catch((caught: unknown) => caught);
        expect(ToolHostError.is(error, 'SERVER_START_REFUSED'), directory).toBe(true);
        expect((error as Error).message).toMatch(reason);
        expect((error as Error).message).toContain('TOOLHOST_ADMIN_TOKEN');
      } finally {
        await host.close();
      }
    }
    expect(existsSync(join(elsewhere, 'admin-token-0'))).toBe(false);
  });

  it('is not written inside the workspace, where tools read', async () => {
    const workspace = temporaryDirectory('toolhost-admin-ws-');
    const host = await createTestHost({ workspaceRoot: workspace });
    const server = await startServer(host, { port: 0, keepAliveMs: 0, adminTokenDirectory: join(workspace, '.cache', 'toolhost') });
    try {
      expect(server.admin.file).toBeUndefined();
      expect(server.admin.notWritten).toContain('inside the workspace');
      expect(existsSync(join(workspace, '.cache', 'toolhost', adminTokenFileName(server.port)))).toBe(false);
    } finally {
      await server.close(2_000);
    }
  });
});

describe('a configured admin token', { timeout: 30_000 }, () => {
  it('is used as given, with no file; too short or equal to the regular token is refused', async () => {
    const directory = join(temporaryDirectory('toolhost-admin-dir-'), 'toolhost');
    const t = await daemon({ adminToken: 'configured-admin-token-123', adminTokenDirectory: directory });
    expect(t.server.admin).toEqual({ token: 'configured-admin-token-123', source: 'configured', file: undefined, notWritten: undefined });
    expect(existsSync(directory)).toBe(false);
    expect((await fetch(`${t.url}/v1/approvals`, { headers: bearer('configured-admin-token-123') })).status).toBe(200);
    expect((await readJson(await fetch(`${t.url}/v1/approvals`))).error.message).toContain('It is the value of TOOLHOST_ADMIN_TOKEN');

    for (const [options, reason] of [
      [{ adminToken: 'short' }, /at least 16 visible ASCII characters/],
      [{ adminToken: 'has spaces in the middle of it' }, /without spaces/],
      [{ adminToken: 'same-token-for-both-1234', token: 'same-token-for-both-1234' }, /must differ from the regular token/],
    ] as const) {
      const host = await createTestHost();
      try {
        const error = await startServer(host, { port: 0, ...options }).catch((caught: unknown) => caught);
        expect(ToolHostError.is(error, 'SERVER_START_REFUSED')).toBe(true);
        expect((error as Error).message).toMatch(reason);
      } finally {
        await host.close();
      }
    }
  });

  it('defaults its directory to $XDG_RUNTIME_DIR/toolhost, else the user cache directory', () => {
    expect(defaultAdminTokenDirectory({ XDG_RUNTIME_DIR: '/run/user/1000', XDG_CACHE_HOME: '/c' }, '/home/u')).toBe('/run/user/1000/toolhost');
    expect(defaultAdminTokenDirectory({ XDG_CACHE_HOME: '/c' }, '/home/u')).toBe('/c/toolhost');
    expect(defaultAdminTokenDirectory({ XDG_RUNTIME_DIR: 'relative', XDG_CACHE_HOME: 'also-relative' }, '/home/u')).toBe('/home/u/.cache/toolhost');
    expect(defaultAdminTokenDirectory({}, '/home/u')).toBe('/home/u/.cache/toolhost');
  });
});

function omit<T extends Record<string, unknown>>(value: T, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** Reads an SSE stream in the background. */
function collect(response: Response): { text: string; until(needle: string): Promise<void>; events(type: string): any[]; close(): Promise<void> } {
  if (!response.body) throw new Error('no body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const log = {
    text: '',
    async until(needle: string): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (!log.text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`no "${needle}" in the event stream:\n${log.text}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    events(type: string): any[] {
      return log.text
        .split('\n\n')
        .filter((block) => block.split('\n').includes(`event: ${type}`))
        .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))?.slice(6) ?? 'null'));
    },
    close: () => reader.cancel().catch(() => undefined),
  };
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      log.text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  return log;
}
