import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { startServer } from '../../src/server/serve.ts';
import { assertBindAllowed, assertBindSettings, bearerTokenOf, isLoopbackAddress, isLoopbackHostHeader, tokensEqual } from '../../src/server/security.ts';
import { createTestHost, postJson, readJson, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** fetch() will not let a test forge the Host header; node:http will. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('bearer token', () => {
  it('is required on every endpoint but /healthz', async () => {
    t = await startTestServer({ token: 's3cret-token' });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    for (const path of ['/v1/tools', '/v1/tools/echo', '/metrics', '/openapi.json', '/v1/events']) {
      const response = await fetch(`${t.url}${path}`);
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      expect((await readJson(response)).error.code).toBe('unauthorized');
    }
    const call = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'x' } });
    expect(call.status).toBe(401);
  });

  it('accepts the right token and refuses a wrong one', async () => {
    t = await startTestServer({ token: 's3cret-token' });
    const ok = await fetch(`${t.url}/v1/tools`, { headers: { authorization: 'Bearer s3cret-token' } });
    expect(ok.status).toBe(200);
    const call = await postJson(`${t.url}/v1/tools/echo/call`, { arguments: { text: 'x' } }, { authorization: 'bearer s3cret-token' });
    expect(call.status).toBe(200);
    for (const header of ['Bearer s3cret-tokeN', 'Bearer s3cret-token-longer', 'Bearer s', 'Basic czNjcmV0LXRva2Vu', 's3cret-token']) {
      const response = await fetch(`${t.url}/v1/tools`, { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
    }
  });

  it('compares tokens in constant time over fixed-length digests (any lengths, no throw)', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
    expect(tokensEqual('a'.repeat(10_000), 'a')).toBe(false);
    expect(bearerTokenOf('Bearer  tok ')).toBe('tok');
    expect(bearerTokenOf('Bearer')).toBeUndefined();
    expect(bearerTokenOf(undefined)).toBeUndefined();
  });
});

describe('Host header check on a loopback bind (DNS rebinding)', () => {
  it('refuses a non-loopback Host header with 403', async () => {
    t = await startTestServer();
    const refused = await getWithHost(`${t.url}/v1/tools`, 'evil.example.com');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe('forbidden_host');
    expect((await getWithHost(`${t.url}/v1/tools`, 'localhost.evil.example:80')).status).toBe(403);
  });

  it('accepts localhost, 127.0.0.1 and [::1] with any port', async () => {
    t = await startTestServer();
    for (const host of ['localhost', 'localhost:7411', '127.0.0.1', `127.0.0.1:${t.server.port}`, '[::1]', '[::1]:9']) {
      expect((await getWithHost(`${t.url}/healthz`, host)).status, host).toBe(200);
    }
  });

  it('classifies addresses and Host headers', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('[::1]')).toBe(true);
    expect(isLoopbackAddress('0:0:0:0:0:0:0:1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('localhost')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0')).toBe(false);
    expect(isLoopbackAddress('::')).toBe(false);
    expect(isLoopbackAddress('192.168.1.10')).toBe(false);
    expect(isLoopbackHostHeader('LOCALHOST:80')).toBe(true);
    expect(isLoopbackHostHeader('127.0.0.1:abc')).toBe(false);
    expect(isLoopbackHostHeader('[::1]x')).toBe(false);
    expect(isLoopbackHostHeader(undefined)).toBe(false);
  });
});

describe('non-loopback bind', () => {
  it('is refused without a token, naming --token and TOOLHOST_TOKEN', async () => {
    const host = await createTestHost();
    try {
      const error = await startServer(host, { host: '0.0.0.0', port: 0 }).catch((caught: unknown) => caught);
      expect(ToolHostError.is(error, 'SERVER_START_REFUSED')).toBe(true);
      expect((error as Error).message).toContain('--token');
      expect((error as Error).message).toContain('TOOLHOST_TOKEN');
      expect(() => assertBindAllowed({ host: '192.168.0.2', token: '' })).toThrow(/--token/);
    } finally {
      await host.close();
    }
  });

  it('is allowed with a token, and then does not check the Host header', async () => {
    t = await startTestServer({ host: '0.0.0.0', token: 'tok' });
    expect(t.server.address).toBe('0.0.0.0');
    const response = await new Promise<number>((resolve, reject) => {
      const req = request({ hostname: '127.0.0.1', port: t?.server.port, path: '/v1/tools', headers: { host: 'toolhost.lan:7411', authorization: 'Bearer tok' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(response).toBe(200);
  });

  it('checks host syntax, port range and the token rule without touching the network', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost', 'my-host.lan', 'fe80::1']) expect(() => assertBindSettings({ host, port: 0, token: 't' }), host).not.toThrow();
    for (const host of ['bad host', '[::1]', 'a_b.test', '-x.test', '', 'x'.repeat(254)]) {
      expect(() => assertBindSettings({ host, port: 0, token: 't' }), host).toThrow(/Invalid host/);
    }
    for (const port of [-1, 65536, 1.5, Number.NaN]) expect(() => assertBindSettings({ host: '127.0.0.1', port, token: undefined }), String(port)).toThrow(/Invalid port/);
    expect(() => assertBindSettings({ host: 'my-host.lan', port: 80, token: undefined })).toThrow(/--token/);
  });

  it('reports a port in use as SERVER_LISTEN_FAILED', async () => {
    t = await startTestServer();
    const host = await createTestHost();
    try {
      const error = await startServer(host, { port: t.server.port }).catch((caught: unknown) => caught);
      expect(ToolHostError.is(error, 'SERVER_LISTEN_FAILED')).toBe(true);
      expect((error as Error).message).toContain('already in use');
    } finally {
      await host.close();
    }
  });
});
