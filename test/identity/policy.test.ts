/** The per-principal policy's decisions, and the config keys of identity mode, exactly as documented. */
import { describe, expect, it } from 'vitest';
import { parseConfig, resolveConfig } from '../../src/config.ts';
import { createPrincipalPolicy } from '../../src/identity/policy.ts';
import type { Principal } from '../../src/identity/principal.ts';
import { principalFromClaims } from '../../src/identity/claims.ts';
import { bearerChallenge, resourceMetadataUrl } from '../../src/identity/challenge.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryDirectory } from './identity-daemon.ts';

const token = (subject: string, scopes: string[], groups?: string[]): Principal => ({ subject, scopes, ...(groups ? { groups } : {}), kind: 'token' });
const SCOPES = { 'tools:read': 'read_only', 'tools:write': 'write', 'tools:admin': 'execute' } as const;

describe('createPrincipalPolicy', () => {
  it('without scopes or rules a valid token gets the host permission mode', () => {
    const policy = createPrincipalPolicy({ hostMode: 'write' });
    expect(policy.grantFor(token('a', []))).toMatchObject({ allowed: true, permissionMode: 'write', approver: false });
  });

  it('the scope mapping gives the highest mapped level, capped by the host mode', () => {
    const policy = createPrincipalPolicy({ hostMode: 'write', scopes: SCOPES });
    expect(policy.grantFor(token('a', ['tools:read']))).toMatchObject({ permissionMode: 'read_only', scopeLimited: true });
    expect(policy.grantFor(token('a', ['tools:read', 'tools:write']))).toMatchObject({ permissionMode: 'write' });
    expect(policy.grantFor(token('a', ['tools:admin']))).toMatchObject({ permissionMode: 'write', scopeLimited: false });
  });

  it('a token with none of the mapped scopes is denied', () => {
    const policy = createPrincipalPolicy({ hostMode: 'execute', scopes: SCOPES });
    const grant = policy.grantFor(token('a', ['email']));
    expect(grant).toMatchObject({ allowed: false, permissionMode: 'none' });
    expect(grant?.denied).toMatch(/none of the scopes/);
  });

  it('rules: first match wins, every match field must hold, no match = denied; a rule narrows and never widens', () => {
    const policy = createPrincipalPolicy({
      hostMode: 'execute',
      scopes: SCOPES,
      rules: [
        { match: { subject: 'root', group: 'ops' }, approver: true },
        { match: { scope: 'tools:write' }, permission_mode: 'read_only', include: ['read_*', 'write_*'], exclude: ['write_secret'] },
        { match: { client_id: 'ci' }, permission_mode: 'execute' },
      ],
    });
    expect(policy.grantFor(token('root', ['tools:read']))).toMatchObject({ allowed: false });
    expect(policy.grantFor(token('root', ['tools:admin'], ['ops']))).toMatchObject({ allowed: true, permissionMode: 'execute', approver: true, rule: 1 });
    const writer = policy.grantFor(token('w', ['tools:write']));
    expect(writer).toMatchObject({ permissionMode: 'read_only', scopeLimited: false, rule: 2 });
    expect([writer?.exposes('read_file'), writer?.exposes('write_file'), writer?.exposes('write_secret'), writer?.exposes('shell')]).toEqual([true, true, false, false]);
    // execute in the rule, read_only from the scopes: the scope is the ceiling.
    expect(policy.grantFor({ subject: 'bot', clientId: 'ci', scopes: ['tools:read'], kind: 'token' })).toMatchObject({ permissionMode: 'read_only', rule: 3 });
  });

  it('principals that are not tokens (admin token, local, schedules) are not restricted here', () => {
    const policy = createPrincipalPolicy({ hostMode: 'execute', scopes: SCOPES, rules: [] });
    expect(policy.grantFor({ subject: 'admin-token', scopes: [], kind: 'static-token' })).toBeUndefined();
    expect(policy.grantFor(undefined)).toBeUndefined();
    expect(policy.grantFor(token('x', ['tools:admin']))).toMatchObject({ allowed: false });
  });

  it('scopesGranting names the scopes that would allow a level', () => {
    const policy = createPrincipalPolicy({ hostMode: 'write', scopes: SCOPES });
    expect(policy.scopesGranting('write')).toEqual(['tools:write', 'tools:admin']);
    expect(policy.scopesGranting('read_only')).toEqual(['tools:read', 'tools:write', 'tools:admin']);
    // Nothing grants more than the host runs with.
    expect(policy.scopesGranting('execute')).toEqual([]);
  });
});

describe('claims → principal', () => {
  it('reads sub, client_id or azp, scope or scp, groups; caps what the issuer sends', () => {
    expect(principalFromClaims({ sub: 'u', client_id: 'c', scope: 'a b', groups: ['g'] })).toEqual({ subject: 'u', clientId: 'c', scopes: ['a', 'b'], groups: ['g'], kind: 'token' });
    expect(principalFromClaims({ sub: 'u', azp: 'c2', scp: ['x', 5, 'y'] })).toEqual({ subject: 'u', clientId: 'c2', scopes: ['x', 'y'], kind: 'token' });
    expect(principalFromClaims({ scope: 'a' })).toBeUndefined();
    expect(principalFromClaims({ sub: 'u', scope: Array(1000).fill('s').join(' ') })?.scopes).toHaveLength(256);
  });
});

describe('challenges', () => {
  it('derives the metadata URL from the audience (RFC 9728 §3.1) and quotes safely', () => {
    expect(resourceMetadataUrl('https://tools.example.com')).toBe('https://tools.example.com/.well-known/oauth-protected-resource');
    expect(resourceMetadataUrl('https://tools.example.com/mcp')).toBe('https://tools.example.com/.well-known/oauth-protected-resource/mcp');
    expect(bearerChallenge('https://r/m', { error: 'invalid_token', description: 'bad "quote" \\ and\nnewline' })).toBe('Bearer resource_metadata="https://r/m", error="invalid_token", error_description="bad  quote    and newline"');
  });
});

describe('config keys', () => {
  const auth = { issuer: 'https://issuer.example.com', audience: 'https://tools.example.com/mcp' };

  it('accepts auth and principals exactly as documented', () => {
    const parsed = parseConfig({ auth: { ...auth, jwks_uri: 'https://issuer.example.com/jwks', scopes: { 'tools:read': 'read_only' } }, principals: [{ match: { group: 'ops' }, permission_mode: 'write', include: ['*'], exclude: ['shell'], approver: true, approvals: [{ tool: 'write_file', action: 'ask' }], quotas: { '*': { per_minute: 60 } } }] });
    expect(parsed.auth?.scopes).toEqual({ 'tools:read': 'read_only' });
    expect(parsed.principals).toHaveLength(1);
  });

  it('refuses unknown keys, bad levels, plain http off loopback, credentials in URLs', () => {
    expect(() => parseConfig({ auth: { ...auth, extra: 1 } })).toThrow(/extra/);
    expect(() => parseConfig({ auth: { ...auth, scopes: { a: 'admin' } } })).toThrow();
    expect(() => parseConfig({ auth: { ...auth, issuer: 'http://issuer.example.com' } })).toThrow(/https/);
    expect(() => parseConfig({ auth: { ...auth, jwks_uri: 'https://user:pw@issuer.example.com/jwks' } })).toThrow(/credentials/);
    expect(() => parseConfig({ principals: [{ match: { role: 'x' } }] })).toThrow(/role/);
    expect(parseConfig({ auth: { ...auth, issuer: 'http://127.0.0.1:8080' } }).auth?.issuer).toBe('http://127.0.0.1:8080');
  });

  it('principals need auth, and auth excludes the static token', () => {
    const directory = temporaryDirectory('toolhost-identity-keys-');
    const file = join(directory, 'toolhost.json');
    writeFileSync(file, JSON.stringify({ principals: [{ match: {} }] }));
    expect(() => resolveConfig({ configFile: file, env: {}, cwd: directory })).toThrow(/need identity mode/);
    writeFileSync(file, JSON.stringify({ auth }));
    expect(() => resolveConfig({ configFile: file, env: { TOOLHOST_TOKEN: 'shared-token-value' }, cwd: directory })).toThrow(/exclude each other/);
    expect(resolveConfig({ configFile: file, env: {}, cwd: directory }).identity).toEqual({ auth, principals: undefined });
  });
});
