/**
 * The trust layer against a registry that misbehaves (in-memory registry playing the attacker): signature
 * manifests stuffed with layers, oversized payloads, signature layers that point at nothing, and a
 * registry whose errors must surface as `registry_error`, never as an accepted tool.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OciError, type OciReference, type RegistryClient } from '../../../src/distribution/registry-types.ts';
import { SIGNATURE_ANNOTATION, signatureTag, signTool, SIMPLE_SIGNING_MEDIA_TYPE, verifyTool } from '../../../src/distribution/trust/index.ts';
import { memoryRegistryClient, pushToolArtifact } from './test-registry-client.ts';

const folder = mkdtempSync(join(tmpdir(), 'toolhost-trust-hostile-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const REF: OciReference = { registry: 'registry.example.com', repository: 'tools/greet' };

function pemKeys(name: string): { key: string; pub: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const key = join(folder, `${name}.key`);
  const pub = join(folder, `${name}.pub`);
  writeFileSync(key, privateKey.export({ format: 'pem', type: 'pkcs8' }));
  writeFileSync(pub, publicKey.export({ format: 'pem', type: 'spki' }));
  return { key, pub };
}

const alice = pemKeys('alice');

async function signedTool() {
  const client = memoryRegistryClient();
  const digest = await pushToolArtifact(client, REF, { wasm: new Uint8Array([1, 2, 3]), policy: '{}', tool: '{}' });
  await signTool(client, REF, digest, { key: alice.key });
  return { client, digest };
}

describe('a hostile registry', () => {
  it('a plain PEM key signs and verifies without cosign', async () => {
    const { client, digest } = await signedTool();
    expect(await verifyTool(client, REF, digest, { key: alice.pub })).toMatchObject({ ok: true, signer: { kind: 'key' } });
  });

  it('hides the genuine signature behind thousands of junk layers: the scan stops at its cap and refuses', async () => {
    const { client, digest } = await signedTool();
    const genuine = await client.getManifest({ ...REF, tag: signatureTag(digest) });
    const junkPayload = await client.putBlob(REF, new TextEncoder().encode('{}'));
    const junk = (count: number) => Array.from({ length: count }, () => ({ mediaType: SIMPLE_SIGNING_MEDIA_TYPE, digest: junkPayload, size: 2, annotations: { [SIGNATURE_ANNOTATION]: 'AAAA' } }));
    await client.putManifest(REF, { ...genuine.manifest, layers: [...junk(1000), ...genuine.manifest.layers] }, signatureTag(digest));
    const result = await verifyTool(client, REF, digest, { key: alice.pub });
    expect(result).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (!result.ok) expect(result.message).toContain('found 64 signature(s)');
    // A signature manifest past its size cap is not read at all.
    await client.putManifest(REF, { ...genuine.manifest, layers: [...junk(5000), ...genuine.manifest.layers] }, signatureTag(digest));
    const tooLarge = await verifyTool(client, REF, digest, { key: alice.pub });
    expect(tooLarge).toMatchObject({ ok: false, code: 'registry_error' });
  });

  it('an oversized payload or a signature layer pointing at no blob is a registry_error, not a pass', async () => {
    const { client, digest } = await signedTool();
    const genuine = await client.getManifest({ ...REF, tag: signatureTag(digest) });
    const huge = await client.putBlob(REF, new Uint8Array(1024 * 1024));
    const layer = genuine.manifest.layers[0]!;
    await client.putManifest(REF, { ...genuine.manifest, layers: [{ ...layer, digest: huge }] }, signatureTag(digest));
    expect(await verifyTool(client, REF, digest, { key: alice.pub })).toMatchObject({ ok: false, code: 'registry_error' });
    await client.putManifest(REF, { ...genuine.manifest, layers: [{ ...layer, digest: `sha256:${'0'.repeat(64)}` }] }, signatureTag(digest));
    expect(await verifyTool(client, REF, digest, { key: alice.pub })).toMatchObject({ ok: false, code: 'registry_error' });
  });

  it('registry failures while reading signatures refuse, even with --insecure-allow-unsigned', async () => {
    const { client, digest } = await signedTool();
    const failing: RegistryClient = {
      ...client,
      getManifest: async () => {
        throw new OciError('network', 'connection reset');
      },
    };
    const result = await verifyTool(failing, REF, digest, { key: alice.pub, allowUnsigned: true });
    expect(result).toMatchObject({ ok: false, code: 'registry_error' });
    if (!result.ok) expect(result.message).toContain('connection reset');
  });

  it('a digest that is not sha256:<64 hex> is refused before any registry access', async () => {
    const { client } = await signedTool();
    expect(await verifyTool(client, REF, 'sha256:../../etc', { key: alice.pub })).toMatchObject({ ok: false, code: 'digest_mismatch' });
    await expect(signTool(client, REF, 'latest', { key: alice.key })).rejects.toMatchObject({ code: 'digest_mismatch' });
  });
});
