/** References, the policy diff, the lockfile and the atomic install, on their own. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installTool } from '../../src/distribution/install.ts';
import { LockfileError, readLockfile, writeLockfile } from '../../src/distribution/lockfile.ts';
import { isLoopbackRegistry, parseOciReference, parseToolReference, ReferenceError } from '../../src/distribution/oci/reference.ts';
import { diffPolicies, isWider, localOverride, renderPolicyDiff } from '../../src/distribution/policy-diff.ts';
import { temporaryDirectory } from '../cli/run-cli.ts';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

describe('references', () => {
  it('parses registry, repository, tag and digest; defaults the tag to latest', () => {
    expect(parseOciReference('oci://127.0.0.1:5000/tools/greet:1.0')).toEqual({ registry: '127.0.0.1:5000', repository: 'tools/greet', tag: '1.0' });
    expect(parseOciReference('ghcr.io/acme/tools/fetch')).toEqual({ registry: 'ghcr.io', repository: 'acme/tools/fetch', tag: 'latest' });
    expect(parseOciReference(`localhost:5000/greet@${DIGEST}`)).toEqual({ registry: 'localhost:5000', repository: 'greet', digest: DIGEST });
    expect(parseOciReference(`r.example/greet:2@${DIGEST}`)).toEqual({ registry: 'r.example', repository: 'greet', tag: '2', digest: DIGEST });
  });

  it.each([
    ['no repository', 'oci://127.0.0.1:5000'],
    ['upper-case repository', 'oci://r.example/Tools/greet'],
    ['path traversal', 'oci://r.example/../etc:1'],
    ['short digest', 'oci://r.example/greet@sha256:abc'],
    ['bad tag', 'oci://r.example/greet:-x'],
    ['another scheme', 'ftp://r.example/greet'],
    ['a huge reference', `oci://r.example/${'a'.repeat(5000)}`],
  ])('refuses %s', (_label, text) => {
    expect(() => parseToolReference(text)).toThrow(ReferenceError);
  });

  it('plain http without a flag only for loopback registries', () => {
    expect(['localhost:5000', '127.0.0.1:5000', '127.1.2.3', '[::1]:5000'].map(isLoopbackRegistry)).toEqual([true, true, true, true]);
    expect(['r.example', '10.0.0.1:5000', 'localhost.evil.example', '127.0.0.1.nip.io'].map(isLoopbackRegistry)).toEqual([false, false, false, false]);
  });
});

describe('policy diff', () => {
  it('new fs grants, ro→rw, network hosts, env, headers and raised budgets are wider; removals are narrower', () => {
    const before = { fs: [{ host: './data', guest: '/data', mode: 'ro' as const }], network: { allow: ['a.example'] }, env: { A: '1' }, timeout_ms: 1000 };
    const after = {
      fs: [
        { host: './data', guest: '/data', mode: 'rw' as const },
        { host: '/', guest: '/root', mode: 'ro' as const },
      ],
      network: { allow: ['b.example'], headers: { 'b.example': { authorization: '<secret_ref:T>' } } },
      env: { A: '2', B: 'x' },
      timeout_ms: 5000,
    };
    const diff = diffPolicies(before, after);
    expect(renderPolicyDiff(diff)).toEqual([
      '+ fs: /data → ./data ro → rw',
      '+ fs: /root → / (ro)',
      '+ env: A (value changed)',
      '+ env: B',
      '+ network: b.example',
      '+ headers: b.example',
      '+ timeout_ms: 1000 → 5000',
      '- network: a.example',
    ]);
    expect(isWider(diffPolicies(after, before))).toBe(true);
    expect(isWider(diffPolicies(before, { ...before, timeout_ms: 500 }))).toBe(false);
    expect(isWider(diffPolicies(before, before))).toBe(false);
  });

  it('a local override may narrow the signed policy but any added grant is a widening', () => {
    const signed = { network: { allow: ['api.example'] }, timeout_ms: 5000 };
    expect(isWider(localOverride(signed, { timeout_ms: 1000 }).widened)).toBe(false);
    expect(isWider(localOverride(signed, { network: { allow: [] } }).widened)).toBe(false);
    expect(renderPolicyDiff(localOverride(signed, { network: { allow: ['api.example', 'evil.example'] } }).widened)).toEqual(['+ network: evil.example']);
  });
});

describe('lockfile and install', () => {
  let work: { path: string; remove: () => void };
  beforeEach(() => {
    work = temporaryDirectory('toolhost-lock-');
  });
  afterEach(() => work.remove());

  it('round-trips with sorted keys; a malformed lock is an error naming the field', () => {
    const path = join(work.path, 'toolhost.lock');
    expect(readLockfile(path)).toEqual({ lockfileVersion: 1, tools: {} });
    const entry = { reference: 'oci://r.example/z:1', digest: DIGEST, signer: null, policy_digest: null, verified_at: 'now', files: { 'z.wasm': DIGEST } };
    writeLockfile(path, { lockfileVersion: 1, tools: { z: entry, a: { ...entry, reference: 'oci://r.example/a:1' } } });
    const text = readFileSync(path, 'utf8');
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
    expect(readLockfile(path).tools['z']).toEqual(entry);
    writeFileSync(path, JSON.stringify({ lockfileVersion: 1, tools: { z: { ...entry, digest: 'sha256:nothex' } } }));
    expect(() => readLockfile(path)).toThrow(LockfileError);
    expect(() => readLockfile(path)).toThrow(/tools\.z\.digest/);
    writeFileSync(path, JSON.stringify({ lockfileVersion: 1, tools: { '../evil': entry } }));
    expect(() => readLockfile(path)).toThrow(LockfileError);
  });

  it('installs into place, removes sidecars the new version does not ship, and leaves no staging folder', () => {
    const dir = join(work.path, 'ext');
    mkdirSync(dir);
    writeFileSync(join(dir, 'greet.usage.kdl'), 'old spec');
    writeFileSync(join(dir, 'other.wasm'), 'untouched');
    const result = installTool(dir, 'greet', { wasm: new Uint8Array([0, 97, 115, 109]), sidecars: { policy: new TextEncoder().encode('{}') } });
    expect(result.removed).toEqual(['greet.usage.kdl']);
    expect(readdirSync(dir).sort()).toEqual(['greet.policy.json', 'greet.wasm', 'other.wasm']);
    expect(() => installTool(dir, '../escape', { wasm: new Uint8Array(), sidecars: {} })).toThrow(/not a tool file name/);
    expect(existsSync(join(work.path, 'escape.wasm'))).toBe(false);
  });
});

describe('defaults shared with the host commands', () => {
  it('install into the folder the host commands serve by default', async () => {
    const { DEFAULT_EXTENSIONS_DIR: host } = await import('../../src/cli/host-setup.ts');
    const { DEFAULT_EXTENSIONS_DIR: distribution } = await import('../../src/cli/distribution-setup.ts');
    expect(distribution).toBe(host);
  });
});

describe('provenance', () => {
  it('locked, modified since install, or not from the lock', async () => {
    const { provenanceOf, describeProvenance } = await import('../../src/distribution/provenance.ts');
    const work = temporaryDirectory('toolhost-prov-');
    try {
      const file = join(work.path, 'greet.wasm');
      writeFileSync(file, 'v1');
      const lockPath = join(work.path, 'toolhost.lock');
      expect(provenanceOf(file, lockPath)).toMatchObject({ status: 'unlocked' });
      const { createHash } = await import('node:crypto');
      const digest = `sha256:${createHash('sha256').update('v1').digest('hex')}`;
      writeLockfile(lockPath, { lockfileVersion: 1, tools: { greet: { reference: 'oci://r.example/greet:1', digest: DIGEST, signer: 'key cosign.pub', policy_digest: null, verified_at: 'then', files: { 'greet.wasm': digest } } } });
      const locked = provenanceOf(file, lockPath);
      expect(locked).toMatchObject({ status: 'locked', reference: 'oci://r.example/greet:1', signer: 'key cosign.pub' });
      expect(describeProvenance(locked)).toContain('signed by key cosign.pub');
      writeFileSync(file, 'v1 changed by hand');
      const modified = provenanceOf(file, lockPath);
      expect(modified).toMatchObject({ status: 'modified', expected: digest });
      expect(describeProvenance(modified)).toMatch(/^MODIFIED since install/);
    } finally {
      work.remove();
    }
  });
});
