/**
 * The signed round trip through the CLI with the trust layer (src/distribution/trust/): `push --sign`
 * then `add --key` or a config trust policy; a wrong key, an unsigned re-push of the tag (a policy
 * swapped in without a signature), and an unsigned tool are refused with their reasons, and the
 * installed version stays. Keys are P-256 PEM keys made by openssl (the cosign CLI's own keys are
 * covered by the trust layer's tests).
 * @full-suite-only: needs Debian's docker-registry (and oras, cosign, wasmtime where used), which .ci/run installs.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, temporaryDirectory, type CliRun } from '../cli/run-cli.ts';
import { trustAvailable } from '../../src/distribution/trust-port.ts';
import { startRegistry, type RunningRegistry } from './registry-server.ts';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');

function keyPair(directory: string, name: string): { privateKey: string; publicKey: string } {
  const raw = join(directory, `${name}.ec.pem`);
  const privateKey = join(directory, `${name}.key`);
  const publicKey = join(directory, `${name}.pub`);
  execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', raw], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs8', '-topk8', '-nocrypt', '-in', raw, '-out', privateKey], { stdio: 'ignore' });
  execFileSync('openssl', ['ec', '-in', raw, '-pubout', '-out', publicKey], { stdio: 'ignore' });
  return { privateKey, publicKey };
}

describe('signed tools: push --sign, add --key or a trust policy', { timeout: 180_000 }, () => {
  let registry: RunningRegistry;
  let work: { path: string; remove: () => void };
  let env: Record<string, string>;
  let signer: { privateKey: string; publicKey: string };
  let stranger: { privateKey: string; publicKey: string };

  beforeAll(async () => {
    // Loud, not a skip: this file tests the OCI commands together with the trust layer.
    if (!(await trustAvailable())) throw new Error('src/distribution/trust/ is missing: these tests need the trust layer (issue 28 item 3)');
    registry = await startRegistry();
    work = temporaryDirectory('toolhost-signed-');
    env = { TOOLHOST_CACHE_DIR: join(work.path, 'cache'), DOCKER_CONFIG: join(work.path, 'docker') };
    signer = keyPair(work.path, 'signer');
    stranger = keyPair(work.path, 'stranger');
  });
  afterAll(async () => {
    await registry?.stop();
    work?.remove();
  });

  const cli = (args: string[], cwd: string): Promise<CliRun> => runCli(args, { cwd, env, timeoutMs: 90_000 });

  it('installs what the expected key signed; refuses another key and an unsigned re-push of the tag (a swapped policy)', async () => {
    const source = join(work.path, 'src');
    mkdirSync(source);
    copyFileSync(join(FIXTURES, 'ext-greet.wasm'), join(source, 'greet.wasm'));
    writeFileSync(join(source, 'greet.policy.json'), JSON.stringify({ timeout_ms: 2000 }));
    const ref = `oci://${registry.host}/tools/greet:1`;
    const pushed = await cli(['push', 'greet.wasm', ref, '--sign', '--key', signer.privateKey], source);
    expect(pushed.exitCode, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain('signed sha256:');
    const digest = pushed.stdout.trim();

    const ws = join(work.path, 'ws');
    mkdirSync(ws);
    const wrongKey = await cli(['add', ref, '--key', stranger.publicKey, '--accept-policy'], ws);
    expect(wrongKey.exitCode).toBe(1);
    expect(wrongKey.stderr).toContain('refused (untrusted_signer)');
    expect(existsSync(join(ws, 'extensions'))).toBe(false);

    const added = await cli(['add', ref, '--key', signer.publicKey, '--accept-policy'], ws);
    expect(added.exitCode, added.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(ws, 'toolhost.lock'), 'utf8')) as { tools: Record<string, { signer: string | null; digest: string }> };
    expect(lock.tools['greet']!.digest).toBe(digest);
    expect(lock.tools['greet']!.signer).toMatch(/sha256:[a-f0-9]{64}/);

    // Someone with push access re-tags the tool with a wider policy and no signature: update refuses it.
    writeFileSync(join(source, 'greet.policy.json'), JSON.stringify({ timeout_ms: 2000, network: { allow: ['exfil.example.net'] } }));
    expect((await cli(['push', 'greet.wasm', ref], source)).exitCode).toBe(0);
    const update = await cli(['update', 'greet', '--key', signer.publicKey, '--accept-policy'], ws);
    expect(update.exitCode).toBe(1);
    expect(update.stderr).toContain('refused (unsigned)');
    expect((JSON.parse(readFileSync(join(ws, 'toolhost.lock'), 'utf8')) as typeof lock).tools['greet']!.digest).toBe(digest);
    expect(JSON.parse(readFileSync(join(ws, 'extensions', 'tools', 'greet.policy.json'), 'utf8'))).toEqual({ timeout_ms: 2000 });
  });

  it('a trust policy in the config names the key for matching references', async () => {
    const source = join(work.path, 'src2');
    mkdirSync(source);
    copyFileSync(join(FIXTURES, 'ext-greet2.wasm'), join(source, 'hello.wasm'));
    const ref = `oci://${registry.host}/team/hello:1`;
    expect((await cli(['push', 'hello.wasm', ref, '--sign', '--key', signer.privateKey], source)).exitCode).toBe(0);
    const ws = join(work.path, 'ws2');
    mkdirSync(ws);
    writeFileSync(join(ws, 'toolhost.json'), JSON.stringify({ trust: { policies: [{ match: `oci://${registry.host}/team/*`, keys: [signer.publicKey] }] } }));
    const added = await cli(['add', ref, '--config', 'toolhost.json'], ws);
    expect(added.exitCode, added.stderr).toBe(0);
    const other = `oci://${registry.host}/elsewhere/hello:1`;
    expect((await cli(['push', 'hello.wasm', other, '--sign', '--key', signer.privateKey], source)).exitCode).toBe(0);
    const uncovered = await cli(['add', other, '--config', 'toolhost.json'], ws);
    expect(uncovered.exitCode).toBe(1);
    expect(uncovered.stderr).toContain('refused (no_trust_policy)');
  });
});
