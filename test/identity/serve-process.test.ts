/**
 * `toolhost serve --config` in its own process with identity mode on: the config keys reach the
 * daemon through the real CLI, an audience with a path gets its own metadata path, the probes stay
 * open, and a token the real issuer made for that audience is accepted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { temporaryDirectory } from './identity-daemon.ts';
import { startIssuer, type TestIssuer } from './oidc-issuer.ts';

const AUDIENCE = 'http://127.0.0.1:1/toolhost';
let issuer: TestIssuer;
let daemon: DaemonProcess;

beforeAll(async () => {
  issuer = await startIssuer({ clients: [{ client_id: 'svc', scope: 'tools:read' }], scopes: ['tools:read'] });
  const workspace = temporaryDirectory('toolhost-identity-serve-');
  const config = join(temporaryDirectory('toolhost-identity-serve-config-'), 'toolhost.json');
  writeFileSync(config, JSON.stringify({ auth: { issuer: issuer.issuer, audience: AUDIENCE, scopes: { 'tools:read': 'read_only' } } }));
  daemon = await startDaemon(['--config', config, '--workspace', workspace], { cwd: workspace, env: { ...process.env, TOOLHOST_TOKEN: undefined, TOOLHOST_ADMIN_TOKEN: 'identity-serve-admin-token-0042' } });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await issuer?.close();
});

it('serves identity mode from the config file', async () => {
  expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  const metadata = await fetch(`${daemon.url}/.well-known/oauth-protected-resource/toolhost`);
  expect(await metadata.json()).toMatchObject({ resource: AUDIENCE, authorization_servers: [issuer.issuer] });

  const refused = await fetch(`${daemon.url}/v1/tools`);
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toBe('Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/toolhost"');

  const token = await issuer.clientToken('svc', { scope: 'tools:read', resource: AUDIENCE });
  const listed = await fetch(`${daemon.url}/v1/tools`, { headers: { authorization: `Bearer ${token}` } });
  expect(listed.status).toBe(200);
  const names = ((await listed.json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  expect(names).toContain('read_file');
  expect(names).not.toContain('write_file');
});
