/**
 * A toolhost daemon in identity mode for the tests: a config file with `auth` (the test issuer,
 * audience = the daemon's own origin) and `principals`, resolved and composed the way `toolhost
 * serve` does (resolveConfig → composeServer), with the real built-in tools, on a loopback port
 * reserved first so the audience can name it.
 */
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeServer } from '../../src/compose.ts';
import { resolveConfig } from '../../src/config.ts';
import type { Host } from '../../src/host-types.ts';
import { silentLogger } from '../../src/logger.ts';
import type { RunningServer } from '../../src/server/serve.ts';

export const IDENTITY_ADMIN_TOKEN = 'identity-admin-token-7c1d0b5e93a2';

export interface IdentityDaemon {
  url: string;
  audience: string;
  workspace: string;
  host: Host;
  server: RunningServer;
  close(): Promise<void>;
}

export function temporaryDirectory(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `config` is merged over `{port, workspace, auth: {issuer, audience}}` (its `auth` fields over those). */
export async function startIdentityDaemon(issuer: string, config: Record<string, unknown> & { auth?: Record<string, unknown> }): Promise<IdentityDaemon> {
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}`;
  const workspace = temporaryDirectory('toolhost-identity-workspace-');
  const configFile = join(temporaryDirectory('toolhost-identity-config-'), 'toolhost.json');
  writeFileSync(configFile, JSON.stringify({ port, workspace, ...config, auth: { issuer, audience, ...config.auth } }, null, 2));
  const resolved = resolveConfig({ configFile, env: { TOOLHOST_ADMIN_TOKEN: IDENTITY_ADMIN_TOKEN }, cwd: workspace });
  const { host, server } = await composeServer({ config: resolved, logger: silentLogger(), watch: false, loadInBackground: false });
  return { url: server.url, audience, workspace, host, server, close: () => server.close(2_000) };
}
