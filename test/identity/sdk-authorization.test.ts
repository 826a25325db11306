/**
 * The Done-when of identity: the real MCP SDK client does the OAuth authorization flow against
 * toolhost (401 → Protected Resource Metadata → the issuer's metadata → dynamic client registration →
 * authorization code with PKCE and the resource indicator → token) with a real issuer
 * (oidc-provider), and two users who went through it see different tools: one can call write_file,
 * the other cannot see it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeAs, MemoryOAuthProvider } from './authorization-flow.ts';
import { startIdentityDaemon, type IdentityDaemon } from './identity-daemon.ts';
import { startIssuer, type TestIssuer } from './oidc-issuer.ts';

let issuer: TestIssuer;
let daemon: IdentityDaemon;

beforeAll(async () => {
  issuer = await startIssuer({ clients: [], scopes: ['tools:read', 'tools:write'] });
  daemon = await startIdentityDaemon(issuer.issuer, {
    auth: { scopes: { 'tools:read': 'read_only', 'tools:write': 'write' } },
    principals: [{ match: { subject: 'alice' } }, { match: { subject: 'bob' }, permission_mode: 'read_only' }],
  });
});

afterAll(async () => {
  await daemon?.close();
  await issuer?.close();
});

/** Connects an SDK client as `login`, going through the whole authorization flow first. */
async function signedInClient(login: string): Promise<{ client: Client; provider: MemoryOAuthProvider }> {
  const provider = new MemoryOAuthProvider();
  const url = new URL(`${daemon.url}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const refused = await new Client({ name: 'identity-sdk-test', version: '1.0.0' }).connect(first).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl?.origin).toBe(issuer.issuer);
  // The SDK asked for this resource (RFC 8707) with PKCE.
  expect(provider.authorizationUrl?.searchParams.get('resource')).toMatch(new RegExp(`^${daemon.audience}/?`));
  expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  const code = await authorizeAs(provider.authorizationUrl as URL, login);
  await first.finishAuth(code);
  const client = new Client({ name: 'identity-sdk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider };
}

describe('the MCP SDK client through the OAuth flow', () => {
  it('alice can call write_file; bob cannot see it', async () => {
    const alice = await signedInClient('alice');
    const bob = await signedInClient('bob');
    try {
      const claims = decodeJwt(alice.provider.tokens()?.access_token ?? '');
      expect(claims.sub).toBe('alice');
      expect(claims.iss).toBe(issuer.issuer);

      const aliceNames = (await alice.client.listTools()).tools.map((tool) => tool.name);
      const bobNames = (await bob.client.listTools()).tools.map((tool) => tool.name);
      expect(aliceNames).toContain('write_file');
      expect(bobNames).toContain('read_file');
      expect(bobNames).not.toContain('write_file');

      const written = await alice.client.callTool({ name: 'write_file', arguments: { path: 'from-alice.txt', content: 'hello' } });
      expect(written.isError).toBe(false);
      const refused = await bob.client.callTool({ name: 'write_file', arguments: { path: 'from-bob.txt', content: 'hello' } });
      expect(refused.isError).toBe(true);
      const read = await bob.client.callTool({ name: 'read_file', arguments: { path: 'from-alice.txt' } });
      expect(read.isError).toBe(false);
      expect(JSON.stringify(read.content)).toContain('hello');
    } finally {
      await alice.client.close();
      await bob.client.close();
    }
  });
});
