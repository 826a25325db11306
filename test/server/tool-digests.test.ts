/**
 * Tool digests per replica: three daemons on loopback, two whose extensions folder holds the same
 * real component and one whose `greet.wasm` is another build. `/healthz` `tools_digest` agrees on the
 * first two and differs on the third; `/v1/tools` names the one tool that differs (per-tool `digest`,
 * the component's `sha256`), the built-ins agree; a changed policy sidecar alone changes the digest.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { canonicalJson } from '../../src/server/tool-digests.ts';
import { createExtHost, ENVELOPE_SIDECAR, fixture, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';
import { TEST_ADMIN_TOKEN } from './helpers.ts';

interface ListedTool {
  name: string;
  digest: string;
  sha256?: string;
}

describe('tool digests per replica', { timeout: 180_000 }, () => {
  let root: TempRoot;
  const replicas: { ext: ExtHost; server: RunningServer }[] = [];

  async function replica(component: string, policy?: Record<string, unknown>): Promise<RunningServer> {
    const folder = root.folder(`extensions-${replicas.length}`);
    writeFileSync(join(folder, 'greet.tool.json'), JSON.stringify(ENVELOPE_SIDECAR));
    if (policy !== undefined) writeFileSync(join(folder, 'greet.policy.json'), JSON.stringify(policy));
    copyFileSync(fixture(component), join(folder, 'greet.wasm'));
    const ext = await createExtHost({ workspaceRoot: root.path, extensionsDir: folder, cacheDir: root.folder('cache') });
    expect(ext.host.loadFailures()).toEqual([]);
    const server = await startServer(ext.host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN });
    replicas.push({ ext, server });
    return server;
  }

  const health = async (server: RunningServer): Promise<{ tools_digest: string; draining: boolean }> =>
    (await (await fetch(`${server.url}/healthz`)).json()) as { tools_digest: string; draining: boolean };
  const listed = async (server: RunningServer): Promise<{ tools_digest: string; tools: ListedTool[] }> =>
    (await (await fetch(`${server.url}/v1/tools`)).json()) as { tools_digest: string; tools: ListedTool[] };

  let same: RunningServer[];
  let other: RunningServer;
  beforeAll(async () => {
    root = tempRoot('toolhost-digests-');
    same = [await replica('ext-greet'), await replica('ext-greet')];
    other = await replica('ext-greet2');
  }, 150_000);
  afterAll(async () => {
    await Promise.all(replicas.map((entry) => entry.server.close(2_000)));
    root.remove();
  });

  it('replicas serving the same tools report the same tools_digest; one with another build does not', async () => {
    const [first, second] = await Promise.all([health(same[0] as RunningServer), health(same[1] as RunningServer)]);
    expect(first.tools_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(first.draining).toBe(false);
    expect(second.tools_digest).toBe(first.tools_digest);
    expect((await health(other)).tools_digest).not.toBe(first.tools_digest);
  });

  it('/v1/tools carries the same tools_digest and a digest per tool, so the tool that differs is named', async () => {
    const left = await listed(same[0] as RunningServer);
    const right = await listed(other);
    expect(left.tools_digest).toBe((await health(same[0] as RunningServer)).tools_digest);
    const differing = left.tools.filter((tool) => right.tools.find((candidate) => candidate.name === tool.name)?.digest !== tool.digest).map((tool) => tool.name);
    expect(differing).toEqual(['greet']);
    const greet = left.tools.find((tool) => tool.name === 'greet');
    expect(greet?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(greet?.sha256).not.toBe(right.tools.find((tool) => tool.name === 'greet')?.sha256);
    // Built-ins carry a digest but no component hash.
    expect(left.tools.find((tool) => tool.name === 'read_file')).toMatchObject({ digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(left.tools.find((tool) => tool.name === 'read_file')?.sha256).toBeUndefined();
  });

  it('the same component under a different policy is a different tool', async () => {
    const granted = await replica('ext-greet', { env: { GREETING: 'hi' } });
    const plain = (await listed(same[0] as RunningServer)).tools.find((tool) => tool.name === 'greet');
    const withPolicy = (await listed(granted)).tools.find((tool) => tool.name === 'greet');
    expect(withPolicy?.sha256).toBe(plain?.sha256);
    expect(withPolicy?.digest).not.toBe(plain?.digest);
  });

  it('canonical JSON ignores key order and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
