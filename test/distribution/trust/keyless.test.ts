/**
 * Keyless verification, offline: sigstore's own mock Fulcio (CA + CT log) and Rekor from
 * `@sigstore/mock`, reached by the real `sigstore` signing client through nock. The bundles it makes
 * are attached to a tool's manifest as OCI 1.1 referrers (in-memory registry with a referrers API)
 * and checked by `verifyTool` against a trusted_root.json built from the mock's keys: certificate
 * chain, SCT, Rekor entry, identity (subject + OIDC issuer), and that the bundle covers the manifest.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { attest } from 'sigstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachBundle, COSIGN_REKOR_BUNDLE_ANNOTATION, signatureTag, signTool, verifyTool } from '../../../src/distribution/trust/index.ts';
import { identityToken, mockSigstore, signKeyless, writeCosignV2Keyless, type MockSigstore } from './mock-sigstore.ts';
import type { OciReference } from '../../../src/distribution/registry-types.ts';
import { memoryRegistryClient, pushToolArtifact } from './test-registry-client.ts';

const ISSUER = 'https://issuer.example.test';
const SUBJECT = 'release@acme.example';
const REF: OciReference = { registry: '127.0.0.1:5000', repository: 'tools/greet' };

let folder: string;
let good: MockSigstore;
let rogue: MockSigstore;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-keyless-'));
  good = await mockSigstore(folder, 'good');
  rogue = await mockSigstore(folder, 'rogue');
});

afterAll(() => {
  nock.cleanAll();
  rmSync(folder, { recursive: true, force: true });
});

async function artifact(policy = '{"fs":[]}') {
  const client = memoryRegistryClient();
  const digest = await pushToolArtifact(client, REF, { wasm: new Uint8Array([0, 97, 115, 109, 13, 0, 1, 0]), policy, tool: '{"description":"greets"}' });
  const manifestBytes = (await client.getManifest({ ...REF, digest })).bytes;
  return { client, digest, manifestBytes: Buffer.from(manifestBytes) };
}

async function keylessBundle(payload: Buffer, via: MockSigstore, subject = SUBJECT, issuer = ISSUER) {
  return await signKeyless(payload, via, subject, issuer);
}

const expected = { subject: SUBJECT, issuer: ISSUER };

describe('keyless verification (sigstore bundle referrers)', () => {
  it('accepts a bundle over the manifest by the expected identity, with its Rekor entry', async () => {
    const { client, digest, manifestBytes } = await artifact();
    const bundle = await keylessBundle(manifestBytes, good);
    expect(bundle.verificationMaterial.tlogEntries.length).toBe(1);
    await attachBundle(client, REF, digest, bundle);
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result).toMatchObject({ ok: true, signer: { kind: 'keyless', subject: SUBJECT, issuer: ISSUER } });
  });

  it('takes the identity from a matching trust policy entry', async () => {
    const { client, digest, manifestBytes } = await artifact();
    await attachBundle(client, REF, digest, await keylessBundle(manifestBytes, good));
    const policy = { policies: [{ match: 'oci://127.0.0.1:*/tools/*', identities: [expected] }], trusted_root: good.trustedRootFile };
    expect(await verifyTool(client, REF, digest, { policy })).toMatchObject({ ok: true, signer: { kind: 'keyless', id: `${SUBJECT} (issuer ${ISSUER})` } });
  });

  it('refuses another subject, naming the expected and the found identity', async () => {
    const { client, digest, manifestBytes } = await artifact();
    await attachBundle(client, REF, digest, await keylessBundle(manifestBytes, good, 'mallory@evil.example'));
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (result.ok) throw new Error('accepted');
    expect(result.message).toContain(`identity ${SUBJECT} (issuer ${ISSUER})`);
    expect(result.message).toContain(`mallory@evil.example (issuer ${ISSUER})`);
  });

  it('refuses the right subject from another OIDC issuer', async () => {
    const { client, digest, manifestBytes } = await artifact();
    await attachBundle(client, REF, digest, await keylessBundle(manifestBytes, good, SUBJECT, 'https://evil-issuer.example'));
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (!result.ok) expect(result.message).toContain('https://evil-issuer.example');
  });

  it('refuses a certificate from a CA the trusted root does not hold', async () => {
    const { client, digest, manifestBytes } = await artifact();
    await attachBundle(client, REF, digest, await keylessBundle(manifestBytes, rogue));
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('refuses a tampered policy layer: the new manifest digest is unsigned, and the old bundle does not cover it', async () => {
    const original = await artifact('{"fs":[]}');
    const bundle = await keylessBundle(original.manifestBytes, good);
    // The attacker re-packs the same tool with a wider policy in the same registry.
    const tampered = await pushToolArtifact(original.client, REF, { wasm: new Uint8Array([0, 97, 115, 109, 13, 0, 1, 0]), policy: '{"fs":[{"host":"/","mode":"rw"}]}', tool: '{"description":"greets"}' }, 'v1');
    expect(tampered).not.toBe(original.digest);
    const unsigned = await verifyTool(original.client, REF, tampered, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(unsigned).toMatchObject({ ok: false, code: 'unsigned' });
    // ... and copying the genuine bundle onto the tampered manifest does not help.
    await attachBundle(original.client, REF, tampered, bundle);
    const copied = await verifyTool(original.client, REF, tampered, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(copied).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('refuses a bundle whose signature was altered', async () => {
    const { client, digest, manifestBytes } = await artifact();
    const bundle = await keylessBundle(manifestBytes, good);
    const signature = Buffer.from(bundle.messageSignature!.signature, 'base64');
    signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 1;
    await attachBundle(client, REF, digest, { ...bundle, messageSignature: { ...bundle.messageSignature!, signature: signature.toString('base64') } });
    expect(await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile })).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('accepts a DSSE in-toto statement naming the manifest digest (cosign v3 layout) and refuses one naming another', async () => {
    const { client, digest } = await artifact();
    const statement = (sha: string) =>
      Buffer.from(JSON.stringify({ _type: 'https://in-toto.io/Statement/v1', subject: [{ name: `${REF.registry}/${REF.repository}`, digest: { sha256: sha } }], predicateType: 'https://sigstore.dev/cosign/sign/v1', predicate: {} }));
    const token = identityToken(SUBJECT, ISSUER);
    // legacyCompatibility: an `intoto` Rekor entry; the mock Rekor stores a `dsse` proposal as sent
    // instead of canonicalizing it as the real one does, so a `dsse` entry cannot verify against it.
    const good1 = await attest(statement(digest.slice(7)), 'application/vnd.in-toto+json', { fulcioURL: good.fulcioURL, rekorURL: good.rekorURL, identityToken: token, legacyCompatibility: true });
    await attachBundle(client, REF, digest, good1);
    const accepted = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(accepted, JSON.stringify(accepted)).toMatchObject({ ok: true, signer: { kind: "keyless" } });

    const other = await artifact('{"fs":[{"host":"/","mode":"rw"}]}');
    const wrong = await attest(statement('0'.repeat(64)), 'application/vnd.in-toto+json', { fulcioURL: good.fulcioURL, rekorURL: good.rekorURL, identityToken: token, legacyCompatibility: true });
    await attachBundle(other.client, REF, other.digest, wrong);
    expect(await verifyTool(other.client, REF, other.digest, { identity: expected, trustedRoot: good.trustedRootFile })).toMatchObject({ ok: false, code: 'digest_mismatch' });
  });

  it('refuses a tool with no bundle, and --insecure-allow-unsigned accepts it loudly', async () => {
    const { client, digest } = await artifact();
    const refused = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(refused).toMatchObject({ ok: false, code: 'unsigned' });
    if (!refused.ok) expect(refused.message).toMatch(/expected a signature by identity release@acme\.example .*found no signature \(no sha256-[0-9a-f]{64}\.sig tag, no sigstore bundle referrer\)/);
    const allowed = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile, allowUnsigned: true });
    expect(allowed).toMatchObject({ ok: true, signer: undefined, unsigned: true });
    if (allowed.ok) expect(allowed.warning).toMatch(/^INSECURE/);
  });
});

describe('keyless verification (cosign v2 layout: certificate and Rekor entry on the .sig tag)', () => {
  it('accepts the expected identity', async () => {
    const { client, digest } = await artifact();
    await writeCosignV2Keyless(client, REF, digest, digest, good, SUBJECT, ISSUER);
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true, signer: { kind: 'keyless', subject: SUBJECT, issuer: ISSUER } });
  });

  it('refuses another identity, naming it', async () => {
    const { client, digest } = await artifact();
    await writeCosignV2Keyless(client, REF, digest, digest, good, 'mallory@evil.example', ISSUER);
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (!result.ok) expect(result.message).toContain('mallory@evil.example');
  });

  it('refuses a genuine signature copied onto another manifest as digest_mismatch', async () => {
    const { client, digest } = await artifact();
    const other = await pushToolArtifact(client, REF, { wasm: new Uint8Array([9]), policy: '{"fs":[{"host":"/","mode":"rw"}]}', tool: '{}' }, 'v2');
    await writeCosignV2Keyless(client, REF, other, digest, good, SUBJECT, ISSUER);
    expect(await verifyTool(client, REF, other, { identity: expected, trustedRoot: good.trustedRootFile })).toMatchObject({ ok: false, code: 'digest_mismatch' });
  });

  it('refuses a signature whose Rekor entry was altered', async () => {
    const { client, digest } = await artifact();
    await writeCosignV2Keyless(client, REF, digest, digest, good, SUBJECT, ISSUER);
    const signatures = await client.getManifest({ ...REF, tag: signatureTag(digest) });
    const layer = signatures.manifest.layers[0]!;
    const rekor = JSON.parse(layer.annotations![COSIGN_REKOR_BUNDLE_ANNOTATION]!) as { Payload: { integratedTime: number } };
    rekor.Payload.integratedTime += 1;
    const altered = { ...signatures.manifest, layers: [{ ...layer, annotations: { ...layer.annotations!, [COSIGN_REKOR_BUNDLE_ANNOTATION]: JSON.stringify(rekor) } }] };
    await client.putManifest(REF, altered, signatureTag(digest));
    expect(await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile })).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('refuses a key-based signature where a keyless identity is expected, saying so', async () => {
    const { client, digest } = await artifact();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const keyFile = join(folder, 'key-based.key');
    writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    await signTool(client, REF, digest, { key: keyFile });
    await signTool(client, REF, digest, { key: keyFile });
    const result = await verifyTool(client, REF, digest, { identity: expected, trustedRoot: good.trustedRootFile });
    expect(result).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (!result.ok) expect(result.message).toContain('found 1 signature(s), none trusted: a key-based signature (sha256-');
  });
});
