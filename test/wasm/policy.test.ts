import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { DEFAULT_POLICY, parsePolicy, readPolicyFile, resolvePolicy } from '../../src/policy.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolhost-policy-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function policyError(value: unknown): Promise<ToolHostError> {
  const file = join(work, 'policy.json');
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
  const error = await readPolicyFile(file).catch((caught: unknown) => caught);
  expect(ToolHostError.is(error, 'POLICY_INVALID')).toBe(true);
  expect((error as Error).message).toContain(file);
  return error as ToolHostError;
}

describe('policy', () => {
  it('reads a full policy file', async () => {
    const file = join(work, 'full.json');
    const policy = {
      fs: [{ host: 'data', guest: '/data', mode: 'ro' }],
      env: { NAME: 'value' },
      network: { allow: ['host.example'] },
      timeout_ms: 5000,
      memory_mb: 64,
      output_bytes: 4096,
    };
    await writeFile(file, JSON.stringify(policy));
    expect(await readPolicyFile(file)).toEqual(policy);
  });

  it('names the bad field path', async () => {
    expect((await policyError({ fs: [{ host: 'a', guest: '/a', mode: 'rwx' }] })).message).toMatch(/fs\.0\.mode/);
    expect((await policyError({ timeout_ms: -5 })).message).toMatch(/timeout_ms/);
    expect((await policyError({ fs: [{ host: 'a', guest: 'relative', mode: 'ro' }] })).message).toMatch(/fs\.0\.guest/);
    expect((await policyError({ env: { 'BAD-NAME': 'x' } })).message).toMatch(/env\.BAD-NAME/);
    expect((await policyError({ network: { allow: ['a'], deny: [] } })).message).toMatch(/network.*deny/);
    expect((await policyError({ memroy_mb: 64 })).message).toMatch(/memroy_mb/);
    expect((await policyError('{ not json')).message).toMatch(/not valid JSON/);
    expect(() => parsePolicy({ fs: [{ host: 'a', guest: '/x', mode: 'ro' }, { host: 'b', guest: '/x/', mode: 'rw' }] })).toThrow(/fs\.1\.guest/);
  });

  it('resolves host paths against the workspace and fills deny-by-default defaults', () => {
    expect(resolvePolicy(undefined, '/workspace')).toEqual(DEFAULT_POLICY);
    expect(DEFAULT_POLICY).toEqual({ fs: [], env: {}, network: { allow: [] }, timeout_ms: 10_000, memory_mb: 256, output_bytes: 1024 * 1024 });
    const resolved = resolvePolicy({ fs: [{ host: 'sub/dir', guest: '/data/', mode: 'rw' }, { host: '/abs', guest: '/abs', mode: 'ro' }], timeout_ms: 50 }, '/workspace');
    expect(resolved.fs).toEqual([
      { host: '/workspace/sub/dir', guest: '/data', mode: 'rw' },
      { host: '/abs', guest: '/abs', mode: 'ro' },
    ]);
    expect(resolved.timeout_ms).toBe(50);
    expect(resolved.memory_mb).toBe(256);
  });
});
