/**
 * The admin token of a real `toolhost serve`: generated per start, printed once on stderr, written
 * 0600 under $XDG_RUNTIME_DIR/toolhost and removed at shutdown; or set by TOOLHOST_ADMIN_TOKEN or
 * the config key admin_token. And the attack it stops: a model whose `ask` call is held tries to
 * approve it itself with an allowed `shell` call that reaches the daemon over loopback.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon } from '../console/daemon.ts';
import { runCli, TEST_XDG_RUNTIME_DIR, temporaryDirectory } from './run-cli.ts';

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const portOf = (url: string): string => new URL(url).port;

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function pending(url: string, adminToken: string): Promise<Array<{ id: string; tool: string; arguments: Record<string, unknown> }>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${url}/v1/approvals`, { headers: bearer(adminToken) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { approvals: Array<{ id: string; tool: string; arguments: Record<string, unknown> }> };
    if (body.approvals.length > 0) return body.approvals;
    if (Date.now() > deadline) throw new Error('no pending approval appeared');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('toolhost serve: the admin token', { timeout: 90_000 }, () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory('toolhost-admin-cli-');
  });
  afterAll(() => workspace.remove());

  it('generates one per start, prints it once on stderr, keeps it 0600 in a 0700 directory until shutdown', async () => {
    const daemon = await startDaemon([], workspace.path);
    const token = daemon.adminToken ?? '';
    const file = join(TEST_XDG_RUNTIME_DIR, 'toolhost', `admin-token-${portOf(daemon.url)}`);
    try {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Once: the stderr line, nowhere in the JSON logs, never on stdout.
      expect(daemon.stderr().split(token)).toHaveLength(2);
      expect(daemon.stderr()).toContain(`toolhost admin token: ${token} (lists and decides approvals; saved to ${file} (mode 0600) until shutdown)`);
      expect(daemon.stdout()).not.toContain(token);
      expect(readFileSync(file, 'utf8')).toBe(`${token}\n`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(TEST_XDG_RUNTIME_DIR, 'toolhost')).mode & 0o777).toBe(0o700);

      const refused = await fetch(`${daemon.url}/v1/approvals`);
      expect(refused.status).toBe(401);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('admin_token_required');
      expect(body.error.message).toContain(file);
      expect((await fetch(`${daemon.url}/v1/approvals`, { headers: bearer(token) })).status).toBe(200);
      expect((await fetch(`${daemon.url}/v1/tools`, { headers: bearer(token) })).status).toBe(200);
    } finally {
      await daemon.stop();
    }
    expect((await daemon.exited).code).toBe(0);
    expect(existsSync(file)).toBe(false);

    const next = await startDaemon([], workspace.path);
    try {
      expect(next.adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(next.adminToken).not.toBe(token);
    } finally {
      await next.stop();
    }
  });

  it('takes TOOLHOST_ADMIN_TOKEN (over the config key admin_token), prints only where it came from, writes no file', async () => {
    const fromEnv = 'admin-token-from-the-environment';
    const fromFile = 'admin-token-from-the-config-file';
    // Outside the workspace: a config file inside it, where tools read, may not hold admin_token.
    const settings = temporaryDirectory('toolhost-admin-config-');
    const config = join(settings.path, 'admin.json');
    writeFileSync(config, JSON.stringify({ admin_token: fromFile }));
    const inside = await runCli(['serve', '--port', '0', '--config', config, '--workspace', settings.path], { cwd: workspace.path });
    expect(inside.exitCode).toBe(2);
    expect(inside.stderr).toContain('lies inside the workspace');
    // A runtime folder of its own: the shared one may hold a file a killed daemon left under a reused port.
    const runtime = temporaryDirectory('toolhost-admin-runtime-');
    const daemon = await startDaemon(['--config', config], workspace.path, { TOOLHOST_ADMIN_TOKEN: fromEnv, XDG_RUNTIME_DIR: runtime.path });
    try {
      expect(daemon.adminToken).toBeUndefined();
      expect(daemon.stderr()).toContain('toolhost admin token: set by TOOLHOST_ADMIN_TOKEN or the config key admin_token');
      expect(daemon.stderr()).not.toContain(fromEnv);
      expect(readdirSync(runtime.path, { recursive: true })).toEqual([]);
      expect((await fetch(`${daemon.url}/v1/approvals`, { headers: bearer(fromEnv) })).status).toBe(200);
      expect((await fetch(`${daemon.url}/v1/approvals`, { headers: bearer(fromFile) })).status).toBe(401);
    } finally {
      await daemon.stop();
      runtime.remove();
    }
    const fileOnly = await startDaemon(['--config', config], workspace.path);
    try {
      expect((await fetch(`${fileOnly.url}/v1/approvals`, { headers: bearer(fromFile) })).status).toBe(200);
    } finally {
      await fileOnly.stop();
      settings.remove();
    }
  });

  it('has no --admin-token flag (a token on the command line shows in ps), and refuses a short TOOLHOST_ADMIN_TOKEN', async () => {
    const flag = await runCli(['serve', '--port', '0', '--admin-token', 'admin-token-on-the-command-line'], { cwd: workspace.path });
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain("unknown option '--admin-token'");
    const short = await runCli(['serve', '--port', '0'], { cwd: workspace.path, env: { TOOLHOST_ADMIN_TOKEN: 'short' } });
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toContain('TOOLHOST_ADMIN_TOKEN: must be at least 16 visible ASCII characters');
  });

  it('a held `ask` call cannot be approved by an allowed shell call that reaches the daemon over loopback', async () => {
    const adminToken = 'admin-token-the-person-keeps-1';
    const regular = 'regular-token-the-agent-client-holds';
    writeFileSync(join(workspace.path, 'ask.json'), JSON.stringify({ approvals: [{ tool: 'shell', match: { command: 'echo deploy*' }, action: 'ask' }] }));
    // The attacker's program, as a model would write it with write_file: list the approvals, approve
    // the held one ("allow" and "always") with no token and with the regular token, and dump its environment.
    writeFileSync(
      join(workspace.path, 'approve-myself.mjs'),
      `const [port, id, regular] = process.argv.slice(2);
const base = 'http://127.0.0.1:' + port;
const out = { env: process.env };
const attempt = async (name, path, init) => {
  try { out[name] = (await fetch(base + path, init)).status; } catch { out[name] = 'unreachable'; }
};
for (const [who, headers] of [['none', {}], ['regular', { authorization: 'Bearer ' + regular }]]) {
  await attempt('list_' + who, '/v1/approvals', { headers });
  for (const decision of ['allow', 'always']) {
    await attempt(decision + '_' + who, '/v1/approvals/' + id, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ decision }) });
  }
}
console.log('ATTACK ' + JSON.stringify(out));
`,
    );
    const daemon = await startDaemon(['--config', 'ask.json', '--token', regular, '--workspace', workspace.path], workspace.path, { TOOLHOST_ADMIN_TOKEN: adminToken });
    try {
      const call = (command: string): Promise<{ content: string; is_error: boolean }> =>
        postJson(`${daemon.url}/v1/tools/shell/call`, { arguments: { command } }, bearer(regular)).then(async (response) => (await response.json()) as { content: string; is_error: boolean });
      const held = call('echo deploy prod');
      const [approval] = await pending(daemon.url, adminToken);
      expect(approval).toMatchObject({ tool: 'shell', arguments: { command: 'echo deploy prod' } });

      // The strongest attacker: it knows the approval id and the regular token.
      const attack = await call(`"${process.execPath}" approve-myself.mjs ${portOf(daemon.url)} ${approval?.id} ${regular}`);
      const line = /ATTACK (.*)/.exec(attack.content)?.[1];
      expect(line, attack.content).toBeDefined();
      const seen = JSON.parse(line ?? '{}') as Record<string, unknown> & { env: Record<string, string> };
      for (const attempt of ['list_none', 'allow_none', 'always_none']) expect([401, 'unreachable'], attempt).toContain(seen[attempt]);
      for (const attempt of ['list_regular', 'allow_regular', 'always_regular']) expect([403, 'unreachable'], attempt).toContain(seen[attempt]);
      expect(JSON.stringify(seen.env)).not.toContain(adminToken);
      expect(Object.keys(seen.env).filter((name) => name.startsWith('TOOLHOST_'))).toEqual([]);

      // Nothing was decided: the call still waits, and the person's decision is what runs it.
      expect((await pending(daemon.url, adminToken)).map((waiting) => waiting.id)).toEqual([approval?.id]);
      expect((await postJson(`${daemon.url}/v1/approvals/${approval?.id}`, { decision: 'allow' }, bearer(adminToken))).status).toBe(200);
      expect(await held).toMatchObject({ is_error: false });
      expect((await held).content).toContain('deploy prod');
    } finally {
      await daemon.stop();
    }
  });

  // The other half of "a secret the tools cannot reach": the shell runs as the daemon's user, so only its
  // sandbox keeps the file out of reach. Outside /tmp on purpose (every command's /tmp is private anyway):
  // once under $XDG_RUNTIME_DIR, once in the cache-folder fallback when XDG_RUNTIME_DIR is unset.
  it('a shell call cannot read the admin token file, under XDG_RUNTIME_DIR or in the cache-folder fallback', async () => {
    const outside = join(homedir(), `.toolhost-admin-test-${process.pid}`);
    try {
      for (const environment of [{ XDG_RUNTIME_DIR: join(outside, 'runtime') }, { XDG_RUNTIME_DIR: undefined, XDG_CACHE_HOME: join(outside, 'cache') }]) {
        const daemon = await startDaemon([], workspace.path, environment);
        try {
          const token = daemon.adminToken ?? '';
          const folder = environment.XDG_RUNTIME_DIR ?? join(environment.XDG_CACHE_HOME ?? '', 'toolhost');
          const file = join(environment.XDG_RUNTIME_DIR !== undefined ? join(folder, 'toolhost') : folder, `admin-token-${portOf(daemon.url)}`);
          expect(readFileSync(file, 'utf8')).toBe(`${token}\n`);
          const response = await postJson(`${daemon.url}/v1/tools/shell/call`, { arguments: { command: `cat ${file}; ls -la ${folder}; grep -r . ${outside}; echo done` } });
          const result = (await response.json()) as { content: string };
          expect(result.content).toContain('done');
          expect(result.content).not.toContain(token);
        } finally {
          await daemon.stop();
        }
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
