/**
 * `toolhost add https://…/tool.wasm --digest sha256:…` against a real https server on loopback (a
 * certificate made by openssl for the test, trusted through NODE_EXTRA_CA_CERTS): the download must
 * hash to the digest given, a redirect to plain http is refused, and sync reinstalls it from the lock.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, temporaryDirectory } from '../cli/run-cli.ts';

const wasm = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm'));
const digest = `sha256:${createHash('sha256').update(wasm).digest('hex')}`;

describe('toolhost add https://… with a required digest', { timeout: 120_000 }, () => {
  let work: { path: string; remove: () => void };
  let server: Server;
  let base: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    work = temporaryDirectory('toolhost-https-');
    const key = join(work.path, 'key.pem');
    const cert = join(work.path, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
      if (request.url === '/tools/wc.wasm') response.writeHead(200, { 'content-type': 'application/wasm' }).end(wasm);
      else if (request.url === '/to-http.wasm') response.writeHead(302, { location: 'http://127.0.0.1:9/wc.wasm' }).end();
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    env = { NODE_EXTRA_CA_CERTS: cert, TOOLHOST_CACHE_DIR: join(work.path, 'cache') };
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    work.remove();
  });

  it('installs the download when it has the digest, records it, and sync reinstalls it', async () => {
    const added = await runCli(['add', `${base}/tools/wc.wasm`, '--digest', digest], { cwd: work.path, env });
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toContain('pinned by --digest');
    expect(readFileSync(join(work.path, 'extensions', 'tools', 'wc.wasm')).equals(wasm)).toBe(true);
    const lock = JSON.parse(readFileSync(join(work.path, 'toolhost.lock'), 'utf8')) as { tools: Record<string, { reference: string; digest: string }> };
    expect(lock.tools['wc']).toMatchObject({ reference: `${base}/tools/wc.wasm`, digest });

    rmSync(join(work.path, 'extensions'), { recursive: true });
    const synced = await runCli(['sync'], { cwd: work.path, env: { ...env, TOOLHOST_CACHE_DIR: join(work.path, 'other-cache') } });
    expect(synced.exitCode, synced.stderr).toBe(0);
    expect(readFileSync(join(work.path, 'extensions', 'tools', 'wc.wasm')).equals(wasm)).toBe(true);
  });

  it('refuses a download with another digest, and a redirect to plain http; nothing is installed', async () => {
    const ws = join(work.path, 'ws2');
    const wrong = `sha256:${'0'.repeat(64)}`;
    const mismatch = await runCli(['add', `${base}/tools/wc.wasm`, '--digest', wrong, '--extensions', ws], { cwd: work.path, env: { ...env, TOOLHOST_CACHE_DIR: join(work.path, 'cache-2') } });
    expect(mismatch.exitCode).toBe(1);
    expect(mismatch.stderr).toContain(`refused (digest_mismatch)`);
    expect(mismatch.stderr).toContain(digest);
    const redirected = await runCli(['add', `${base}/to-http.wasm`, '--digest', digest, '--extensions', ws], { cwd: work.path, env: { ...env, TOOLHOST_CACHE_DIR: join(work.path, 'cache-3') } });
    expect(redirected.exitCode).toBe(1);
    expect(redirected.stderr).toContain('refused (redirect_refused)');
    expect(existsSync(ws)).toBe(false);
    const withCredentials = await runCli(['add', `https://user:pw@127.0.0.1:1/x.wasm`, '--digest', digest], { cwd: work.path, env });
    expect(withCredentials.exitCode).toBe(2);
  });
});
