/**
 * toolhost as an OAuth resource server, attacked with tokens: a real OpenID provider on loopback
 * (oidc-provider) issues the real ones; the bad ones are what an attacker would try. Every refusal is
 * a 401 whose WWW-Authenticate names the Protected Resource Metadata (MCP authorization 2025-11-25).
 */
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIssuer, type SigningKey, type TestIssuer } from './oidc-issuer.ts';
import { IDENTITY_ADMIN_TOKEN, startIdentityDaemon, type IdentityDaemon } from './identity-daemon.ts';

let issuer: TestIssuer;
let daemon: IdentityDaemon;
let metadataUrl: string;

beforeAll(async () => {
  issuer = await startIssuer({ clients: [{ client_id: 'alice', scope: 'tools:read tools:write' }], scopes: ['tools:read', 'tools:write'] });
  daemon = await startIdentityDaemon(issuer.issuer, { auth: { scopes: { 'tools:read': 'read_only', 'tools:write': 'write' } } });
  metadataUrl = `${daemon.audience}/.well-known/oauth-protected-resource`;
});

afterAll(async () => {
  await daemon?.close();
  await issuer?.close();
});

/** A token signed with the issuer's own key, claims as given (defaults: valid for the daemon). */
async function minted(claims: Record<string, unknown> = {}, options: { key?: SigningKey; kid?: string; alg?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'tools:read tools:write', client_id: 'alice', ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? issuer.kid, typ: 'at+jwt' })
    .setIssuer(typeof claims['iss'] === 'string' ? claims['iss'] : issuer.issuer)
    .setAudience(typeof claims['aud'] === 'string' ? claims['aud'] : daemon.audience)
    .setSubject('alice')
    .setIssuedAt(typeof claims['iat'] === 'number' ? claims['iat'] : now)
    .setExpirationTime(typeof claims['exp'] === 'number' ? claims['exp'] : now + 300)
    .sign(options.key ?? issuer.privateKey);
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function get(path: string, token?: string): Promise<Response> {
  return fetch(`${daemon.url}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
}

/** Parameters of a `Bearer k="v", ...` challenge. */
function challenge(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate') ?? '';
  expect(header.startsWith('Bearer ')).toBe(true);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
}

async function expectRefused(token: string, descriptionPattern: RegExp): Promise<void> {
  for (const path of ['/v1/tools', '/mcp']) {
    const response = path === '/mcp' ? await fetch(`${daemon.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }) : await get(path, token);
    expect(response.status, path).toBe(401);
    const params = challenge(response);
    expect(params['resource_metadata']).toBe(metadataUrl);
    expect(params['error']).toBe('invalid_token');
    expect(params['error_description']).toMatch(descriptionPattern);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  }
}

describe('a valid token from the issuer', () => {
  it('lists tools over HTTP', async () => {
    const token = await issuer.clientToken('alice', { scope: 'tools:read tools:write', resource: daemon.audience });
    const response = await get('/v1/tools', token);
    expect(response.status).toBe(200);
    const names = ((await response.json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toContain('write_file');
  });
});

describe('refusals', () => {
  it('no token: 401 naming the metadata, no error code (RFC 6750 §3.1)', async () => {
    const response = await get('/v1/tools');
    expect(response.status).toBe(401);
    const params = challenge(response);
    expect(params).toEqual({ resource_metadata: metadataUrl });
  });

  it('a token the issuer made for another resource (RFC 8707)', async () => {
    const token = await issuer.clientToken('alice', { scope: 'tools:read', resource: 'https://other-resource.example/mcp' });
    await expectRefused(token, /not meant for this resource/);
  });

  it('an expired token', async () => {
    const long = Math.floor(Date.now() / 1000) - 3600;
    await expectRefused(await minted({ iat: long - 300, exp: long }), /expired/);
  });

  it('a wrong audience', async () => {
    await expectRefused(await minted({ aud: 'http://127.0.0.1:1' }), /not meant for this resource/);
  });

  it('a wrong issuer, signed with the right key', async () => {
    await expectRefused(await minted({ iss: 'http://127.0.0.1:2' }), /another issuer/);
  });

  it('alg none (an unsigned token)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${base64url({ alg: 'none', typ: 'at+jwt' })}.${base64url({ iss: issuer.issuer, aud: daemon.audience, sub: 'alice', scope: 'tools:read tools:write', iat: now, exp: now + 300 })}.`;
    await expectRefused(unsigned, /algorithm|malformed|not valid/);
  });

  it('HS256 signed with a guessable secret', async () => {
    const secret = new TextEncoder().encode('secret');
    await expectRefused(await minted({}, { key: secret, alg: 'HS256' }), /algorithm/);
  });

  it("a key not in the issuer's JWKS (same kid, and an unknown kid)", async () => {
    const { privateKey } = await generateKeyPair('RS256');
    await expectRefused(await minted({}, { key: privateKey }), /signature/);
    await expectRefused(await minted({}, { key: privateKey, kid: 'attacker-key' }), /key set does not hold/);
  });

  it('garbage and oversized tokens', async () => {
    await expectRefused('not.a.jwt', /malformed|not valid/);
    await expectRefused(`a${'b'.repeat(10_000)}`, /longer than/);
  });

  it('the static token mode is off: a made-up shared token is just an invalid token', async () => {
    await expectRefused('some-shared-token-value', /malformed|not valid/);
  });
});

describe('public paths', () => {
  it('/healthz and /readyz answer without a token and say nothing private', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const text = await response.text();
      expect(text).not.toMatch(/alice|write_file|issuer|127\.0\.0\.1|token/);
    }
  });

  it('serves Protected Resource Metadata (RFC 9728) at the root and the /mcp-suffixed path', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(await response.json()).toEqual({
        resource: daemon.audience,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['tools:read', 'tools:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'toolhost',
      });
    }
  });

  it('everything else needs a token: /metrics, /openapi.json, /v1/approvals, /v1/events', async () => {
    for (const path of ['/metrics', '/openapi.json', '/v1/approvals', '/v1/events', '/v1/calls']) {
      const response = await get(path);
      expect(response.status, path).toBe(401);
      expect(challenge(response)['resource_metadata']).toBe(metadataUrl);
    }
  });

  it('the admin token still works (a person, recorded as admin-token)', async () => {
    const response = await get('/v1/approvals', IDENTITY_ADMIN_TOKEN);
    expect(response.status).toBe(200);
  });
});

describe('an issuer that cannot be reached', () => {
  it('answers 503 auth_unavailable (the token may be fine: retry), never lets the request through', async () => {
    const gone = await startIssuer({ clients: [{ client_id: 'alice', scope: 'tools:read' }], scopes: ['tools:read'] });
    const lonely = await startIdentityDaemon(gone.issuer, {});
    try {
      const token = await gone.clientToken('alice', { scope: 'tools:read', resource: lonely.audience });
      await gone.close();
      const response = await fetch(`${lonely.url}/v1/tools`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('auth_unavailable');
    } finally {
      await lonely.close();
    }
  });
});
