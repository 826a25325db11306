/**
 * The `trust` config key through the real config loader: validation errors name the field, key paths
 * resolve against the config file's folder, and the first matching `trust.policies` entry decides.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigFile, parseConfig, resolveConfig } from '../../../src/config.ts';
import { expectationFor } from '../../../src/distribution/trust/index.ts';

const folder = mkdtempSync(join(tmpdir(), 'toolhost-trust-policy-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ref = (name: string) => {
  const slash = name.indexOf('/');
  return { registry: name.slice(0, slash), repository: name.slice(slash + 1) };
};

describe('trust config', () => {
  it('loads from a config file with key and root paths relative to it, and reaches resolveConfig', () => {
    const file = join(folder, 'toolhost.json');
    writeFileSync(file, JSON.stringify({ trust: { policies: [{ match: 'oci://127.0.0.1:*/tools/*', keys: ['keys/cosign.pub'] }], trusted_root: 'root.json' } }));
    const config = loadConfigFile(file);
    expect(config.trust?.policies?.[0]?.keys).toEqual([join(folder, 'keys', 'cosign.pub')]);
    expect(config.trust?.trusted_root).toBe(join(folder, 'root.json'));
    expect(resolveConfig({ configFile: file, env: {}, cwd: folder }).trust?.policies).toHaveLength(1);
  });

  it('rejects unknown fields, an entry with no keys or identities, a half identity and a bad glob', () => {
    expect(() => parseConfig({ trust: { policy: [] } })).toThrow(/trust\.policy: unknown field/);
    expect(() => parseConfig({ trust: { policies: [{ match: '*' }] } })).toThrow(/at least one of keys, identities/);
    expect(() => parseConfig({ trust: { policies: [{ match: '*', identities: [{ subject: 'a@b.example' }] }] } })).toThrow(/trust\.policies\.0\.identities\.0\.issuer/);
    expect(() => parseConfig({ trust: { policies: [{ match: '[z-a]', keys: ['k.pub'] }] } })).toThrow(/not a glob/);
    expect(() => parseConfig({ trust: { allow_unsigned: 'yes' } })).toThrow(/trust\.allow_unsigned/);
  });
});

describe('expectationFor', () => {
  const policy = parseConfig({
    trust: {
      policies: [
        { match: 'oci://127.0.0.1:*/tools/special', keys: ['/k/special.pub'] },
        { match: '127.0.0.1:*/tools/*', keys: ['/k/tools.pub'] },
        { match: 'registry.example.com/acme/*', identities: [{ issuer: 'https://issuer.example', subject: 'ci@acme.example' }] },
      ],
    },
  }).trust;

  it('takes the first entry that matches registry/repository', () => {
    expect(expectationFor(policy, ref('127.0.0.1:5000/tools/special'))).toMatchObject({ keys: ['/k/special.pub'], source: 'trust.policies[0] (match "oci://127.0.0.1:*/tools/special")' });
    expect(expectationFor(policy, ref('127.0.0.1:5000/tools/greet'))).toMatchObject({ keys: ['/k/tools.pub'] });
    expect(expectationFor(policy, ref('registry.example.com/acme/x'))).toMatchObject({ identities: [{ subject: 'ci@acme.example' }] });
  });

  it('matches nothing it does not name: other registries, look-alike hosts, prefixes', () => {
    expect(expectationFor(policy, ref('127.0.0.2:5000/tools/greet'))).toBeUndefined();
    expect(expectationFor(policy, ref('registry.example.com.evil.example/acme/x'))).toBeUndefined();
    expect(expectationFor(policy, ref('evil.example/registry.example.com/acme/x'))).toBeUndefined();
    expect(expectationFor(undefined, ref('127.0.0.1:5000/tools/greet'))).toBeUndefined();
  });

  it('matches in linear time on a hostile reference', () => {
    const hostile = parseConfig({ trust: { policies: [{ match: '*a*a*a*a*a*a*a*a*b', keys: ['/k.pub'] }] } }).trust;
    expect(expectationFor(hostile, ref(`h/${'a'.repeat(100_000)}`))).toBeUndefined();
  });
});
