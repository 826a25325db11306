/**
 * Key-based trust against the real cosign CLI and a real registry (Debian's docker-registry on
 * loopback): cosign signs → toolhost verifies; toolhost signs → `cosign verify --key` accepts; and the
 * refusals an attacker would try: a tampered policy layer, a copied signature, a forged payload, the
 * wrong key, no signature, no trust policy, a wrong password. Both CLIs missing = loud failure.
 *
 * @full-suite-only: needs docker-registry and the cosign CLI built from Go (.ci/run installs both).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.ts';
import type { OciReference } from '../../../src/distribution/registry-types.ts';
import { keyFingerprint, readPrivateKey, readPublicKey, signatureTag, signTool, TrustError, verifyTool } from '../../../src/distribution/trust/index.ts';
import { mockSigstore, writeCosignV2Keyless, type MockSigstore } from './mock-sigstore.ts';
import { startRegistry, type RunningRegistry } from '../registry-server.ts';
import { httpRegistryClient, pushToolArtifact, putReferrersIndex } from './test-registry-client.ts';

const run = promisify(execFile);
const COSIGN = process.env['TOOLHOST_COSIGN'] ?? join(homedir(), '.cache', 'toolhost-ci', 'go-bin', 'cosign');
const PASSWORD = 'correct horse battery staple';
const WASM = new Uint8Array([0, 97, 115, 109, 13, 0, 1, 0, 1, 2, 3]);
const POLICY = '{"fs":[{"host":"data","mode":"ro"}]}';
const WIDER_POLICY = '{"fs":[{"host":"/","mode":"rw"}],"network":{"allow":["*"]}}';
const TOOL = '{"description":"greets"}';

let registry: RunningRegistry;
let folder: string;
const client = httpRegistryClient();

async function cosign(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return await run(COSIGN, args, {
    cwd: folder,
    // Offline: no TUF, no Rekor; a private HOME so no user config is read.
    env: { PATH: process.env['PATH'] ?? '', HOME: folder, TUF_ROOT: join(folder, 'tuf'), COSIGN_PASSWORD: PASSWORD, ...env },
    timeout: 120_000,
  });
}

/** A cosign key pair in `name.key` / `name.pub` (encrypted with PASSWORD, as cosign writes it). */
async function keyPair(name: string): Promise<{ key: string; pub: string }> {
  await cosign(['generate-key-pair', '--output-key-prefix', name]);
  return { key: join(folder, `${name}.key`), pub: join(folder, `${name}.pub`) };
}

let repoCounter = 0;
/** A fresh repository with a pushed tool artifact. */
async function pushTool(policy = POLICY): Promise<{ ref: OciReference; digest: string; name: string }> {
  repoCounter += 1;
  const ref: OciReference = { registry: registry.host, repository: `tools/greet${repoCounter}` };
  const digest = await pushToolArtifact(client, ref, { wasm: WASM, policy, tool: TOOL });
  return { ref, digest, name: `${ref.registry}/${ref.repository}` };
}

let alice: { key: string; pub: string };
let bob: { key: string; pub: string };

beforeAll(async () => {
  if (!existsSync(COSIGN)) throw new Error(`cosign is missing at ${COSIGN}: GOBIN=~/.cache/toolhost-ci/go-bin go install github.com/sigstore/cosign/v2/cmd/cosign@v2.6.5`);
  folder = mkdtempSync(join(tmpdir(), 'toolhost-cosign-'));
  registry = await startRegistry();
  alice = await keyPair('alice');
  bob = await keyPair('bob');
}, 240_000);

afterAll(async () => {
  await registry?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('cosign key files', () => {
  it('reads the encrypted private key cosign wrote (scrypt + secretbox) and it matches cosign.pub', () => {
    const privateKey = readPrivateKey(alice.key, PASSWORD);
    expect(keyFingerprint(privateKey)).toBe(keyFingerprint(readPublicKey(alice.pub)));
  });

  it('refuses a wrong password and an altered key file with bad_key', () => {
    expect(() => readPrivateKey(alice.key, 'wrong')).toThrow(expect.objectContaining({ code: 'bad_key', message: expect.stringContaining('wrong password') }));
    const pem = readFileSync(alice.key, 'utf8');
    const body = pem.split('\n').filter((line) => !line.startsWith('-----')).join('');
    const json = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as { ciphertext: string };
    const ciphertext = Buffer.from(json.ciphertext, 'base64');
    ciphertext[40] = (ciphertext[40] ?? 0) ^ 1;
    json.ciphertext = ciphertext.toString('base64');
    const altered = join(folder, 'altered.key');
    writeFileSync(altered, `-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n${Buffer.from(JSON.stringify(json)).toString('base64')}\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----\n`);
    expect(() => readPrivateKey(altered, PASSWORD)).toThrow(TrustError);
    expect(() => readPublicKey(join(folder, 'missing.pub'))).toThrow(expect.objectContaining({ code: 'bad_key' }));
  });
});

describe('cosign signs, toolhost verifies', () => {
  it('accepts a cosign signature by the expected key and names the signer', async () => {
    const tool = await pushTool();
    await cosign(['sign', '--yes', '--key', alice.key, '--tlog-upload=false', '--allow-http-registry', `${tool.name}@${tool.digest}`]);
    const result = await verifyTool(client, tool.ref, tool.digest, { key: alice.pub });
    expect(result).toMatchObject({ ok: true, signer: { kind: 'key', fingerprint: keyFingerprint(readPublicKey(alice.pub)), keyPath: alice.pub } });
  });

  it('refuses the wrong key, naming the expected key and what it found', async () => {
    const tool = await pushTool();
    await cosign(['sign', '--yes', '--key', bob.key, '--tlog-upload=false', '--allow-http-registry', `${tool.name}@${tool.digest}`]);
    const result = await verifyTool(client, tool.ref, tool.digest, { key: alice.pub });
    expect(result).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (result.ok) throw new Error('accepted');
    expect(result.message).toContain(`key ${alice.pub} (${keyFingerprint(readPublicKey(alice.pub))})`);
    expect(result.message).toContain('found 1 signature(s), none trusted');
  });

  it('follows the trust policy in the config: glob match, key rotation (old and new key both listed)', async () => {
    const tool = await pushTool();
    await cosign(['sign', '--yes', '--key', bob.key, '--tlog-upload=false', '--allow-http-registry', `${tool.name}@${tool.digest}`]);
    writeFileSync(join(folder, 'toolhost.json'), JSON.stringify({ trust: { policies: [{ match: 'oci://127.0.0.1:*/tools/*', keys: ['alice.pub', 'bob.pub'] }] } }));
    const config = parseConfig(JSON.parse(readFileSync(join(folder, 'toolhost.json'), 'utf8')), { baseDir: folder });
    const result = await verifyTool(client, tool.ref, tool.digest, { policy: config.trust! });
    expect(result).toMatchObject({ ok: true, signer: { kind: 'key', keyPath: bob.pub } });
    // After rotation drops bob's key, bob's signature is no longer trusted.
    const rotated = parseConfig({ trust: { policies: [{ match: '127.0.0.1:*/tools/*', keys: ['alice.pub'] }] } }, { baseDir: folder });
    expect(await verifyTool(client, tool.ref, tool.digest, { policy: rotated.trust! })).toMatchObject({ ok: false, code: 'untrusted_signer' });
    // A policy for other references says nothing about this one.
    const elsewhere = parseConfig({ trust: { policies: [{ match: 'registry.example.com/*', keys: ['bob.pub'] }] } }, { baseDir: folder });
    const none = await verifyTool(client, tool.ref, tool.digest, { policy: elsewhere.trust! });
    expect(none).toMatchObject({ ok: false, code: 'no_trust_policy' });
    if (!none.ok) expect(none.message).toContain(`no trust policy covers ${tool.name}`);
  });
});

describe('toolhost signs, cosign verifies', () => {
  it('cosign verify --key accepts what signTool wrote (encrypted cosign key, COSIGN_PASSWORD)', async () => {
    const tool = await pushTool();
    const previous = process.env['COSIGN_PASSWORD'];
    process.env['COSIGN_PASSWORD'] = PASSWORD;
    let signed;
    try {
      signed = await signTool(client, tool.ref, tool.digest, { key: alice.key });
    } finally {
      if (previous === undefined) delete process.env['COSIGN_PASSWORD'];
      else process.env['COSIGN_PASSWORD'] = previous;
    }
    expect(signed.signatureRef).toMatch(new RegExp(`^${tool.name}:${signatureTag(tool.digest)}@sha256:[0-9a-f]{64}$`));
    const { stdout } = await cosign(['verify', '--key', alice.pub, '--insecure-ignore-tlog=true', '--allow-http-registry', `${tool.name}@${tool.digest}`]);
    const claims = JSON.parse(stdout) as Array<{ critical: { image: { 'docker-manifest-digest': string } } }>;
    expect(claims[0]?.critical.image['docker-manifest-digest']).toBe(tool.digest);
    // ... and cosign refuses it with the wrong key.
    await expect(cosign(['verify', '--key', bob.pub, '--insecure-ignore-tlog=true', '--allow-http-registry', `${tool.name}@${tool.digest}`])).rejects.toThrow();
  });

  it('keeps other signers: a second key signs next to the first, both verify (rotation without a gap)', async () => {
    const tool = await pushTool();
    await signTool(client, tool.ref, tool.digest, { key: alice.key, password: PASSWORD });
    await signTool(client, tool.ref, tool.digest, { key: bob.key, password: PASSWORD });
    await signTool(client, tool.ref, tool.digest, { key: bob.key, password: PASSWORD }); // re-signing replaces, not piles up
    const signatures = await client.getManifest({ ...tool.ref, tag: signatureTag(tool.digest) });
    expect(signatures.manifest.layers).toHaveLength(2);
    for (const pub of [alice.pub, bob.pub]) {
      expect(await verifyTool(client, tool.ref, tool.digest, { key: pub })).toMatchObject({ ok: true });
      await cosign(['verify', '--key', pub, '--insecure-ignore-tlog=true', '--allow-http-registry', `${tool.name}@${tool.digest}`]);
    }
  });

  it('refuses to sign with a wrong password', async () => {
    const tool = await pushTool();
    await expect(signTool(client, tool.ref, tool.digest, { key: alice.key, password: 'nope' })).rejects.toMatchObject({ code: 'bad_key' });
  });
});

describe('refusals an attacker would try', () => {
  it('a tampered policy layer is a new manifest digest that nobody signed', async () => {
    const tool = await pushTool(POLICY);
    await signTool(client, tool.ref, tool.digest, { key: alice.key, password: PASSWORD });
    // Same repository, same tag, same component: only the policy layer is wider.
    const tampered = await pushToolArtifact(client, tool.ref, { wasm: WASM, policy: WIDER_POLICY, tool: TOOL });
    expect(tampered).not.toBe(tool.digest);
    const result = await verifyTool(client, tool.ref, tampered, { key: alice.pub });
    expect(result).toMatchObject({ ok: false, code: 'unsigned' });
    if (!result.ok) expect(result.message).toContain(`found no signature (no ${signatureTag(tampered)} tag, no sigstore bundle referrer)`);
    // cosign agrees.
    await expect(cosign(['verify', '--key', alice.pub, '--insecure-ignore-tlog=true', '--allow-http-registry', `${tool.name}@${tampered}`])).rejects.toThrow();
  });

  it('a genuine signature copied onto the tampered digest is refused as digest_mismatch, even with --insecure-allow-unsigned', async () => {
    const tool = await pushTool(POLICY);
    await signTool(client, tool.ref, tool.digest, { key: alice.key, password: PASSWORD });
    const tampered = await pushToolArtifact(client, tool.ref, { wasm: WASM, policy: WIDER_POLICY, tool: TOOL });
    const genuine = await client.getManifest({ ...tool.ref, tag: signatureTag(tool.digest) });
    await client.putManifest(tool.ref, genuine.manifest, signatureTag(tampered));
    const result = await verifyTool(client, tool.ref, tampered, { key: alice.pub });
    expect(result).toMatchObject({ ok: false, code: 'digest_mismatch' });
    if (!result.ok) expect(result.message).toContain(`signs another manifest, ${tool.digest}`);
    expect(await verifyTool(client, tool.ref, tampered, { key: alice.pub, allowUnsigned: true })).toMatchObject({ ok: false, code: 'digest_mismatch' });
  });

  it('a forged payload naming the tampered digest does not verify with the key', async () => {
    const tool = await pushTool(POLICY);
    await signTool(client, tool.ref, tool.digest, { key: alice.key, password: PASSWORD });
    const tampered = await pushToolArtifact(client, tool.ref, { wasm: WASM, policy: WIDER_POLICY, tool: TOOL });
    const genuine = await client.getManifest({ ...tool.ref, tag: signatureTag(tool.digest) });
    const payload = new TextDecoder().decode(await client.getBlob(tool.ref, genuine.manifest.layers[0]!.digest)).replace(tool.digest, tampered);
    const forgedBytes = new TextEncoder().encode(payload);
    const forgedDigest = await client.putBlob(tool.ref, forgedBytes);
    const forged = { ...genuine.manifest, layers: [{ ...genuine.manifest.layers[0]!, digest: forgedDigest, size: forgedBytes.length }] };
    await client.putManifest(tool.ref, forged, signatureTag(tampered));
    expect(await verifyTool(client, tool.ref, tampered, { key: alice.pub })).toMatchObject({ ok: false, code: 'untrusted_signer' });
  });

  it('no signature: refused as unsigned by default; --insecure-allow-unsigned accepts it with a loud warning', async () => {
    const tool = await pushTool();
    const refused = await verifyTool(client, tool.ref, tool.digest, { key: alice.pub });
    expect(refused).toMatchObject({ ok: false, code: 'unsigned' });
    if (!refused.ok) expect(refused.message).toMatch(/^Refused 127\.0\.0\.1:\d+\/tools\/greet\d+@sha256:[0-9a-f]{64}: expected a signature by key .*alice\.pub \(sha256:[0-9a-f]{64}\) \[--key\]; found no signature/);
    const allowed = await verifyTool(client, tool.ref, tool.digest, { key: alice.pub, allowUnsigned: true });
    expect(allowed).toMatchObject({ ok: true, signer: undefined, unsigned: true });
    if (allowed.ok) expect(allowed.warning).toMatch(/^INSECURE: installing an unverified tool \(--insecure-allow-unsigned\)/);
  });

  it('no trust policy and no flags: refused, and config allow_unsigned is the same switch as the flag', async () => {
    const tool = await pushTool();
    const refused = await verifyTool(client, tool.ref, tool.digest, {});
    expect(refused).toMatchObject({ ok: false, code: 'no_trust_policy' });
    if (!refused.ok) expect(refused.message).toContain('pass --key cosign.pub or --certificate-identity and --certificate-oidc-issuer');
    expect(await verifyTool(client, tool.ref, tool.digest, { policy: { allow_unsigned: true } })).toMatchObject({ ok: true, unsigned: true });
  });

  it('an unreadable --key is refused as bad_key, not as unsigned', async () => {
    const tool = await pushTool();
    expect(await verifyTool(client, tool.ref, tool.digest, { key: join(folder, 'nope.pub') })).toMatchObject({ ok: false, code: 'bad_key' });
    expect(await verifyTool(client, tool.ref, tool.digest, { key: alice.key })).toMatchObject({ ok: false, code: 'bad_key' });
  });
});

describe('keyless in cosign v2\'s layout, checked by cosign itself', () => {
  const SUBJECT = 'release@acme.example';
  const ISSUER = 'https://issuer.example.test';
  let mock: MockSigstore;
  const pemOf = (label: string, der: Buffer): string => `-----BEGIN ${label}-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;

  beforeAll(async () => {
    mock = await mockSigstore(folder, 'cosign-mock');
    writeFileSync(join(folder, 'fulcio-root.pem'), pemOf('CERTIFICATE', mock.rootCertificate));
    writeFileSync(join(folder, 'rekor.pub'), pemOf('PUBLIC KEY', mock.rekorPublicKey));
    writeFileSync(join(folder, 'ctlog.pub'), pemOf('PUBLIC KEY', mock.ctlogPublicKey));
  });

  it('a keyless signature toolhost accepts is one cosign verify accepts (same layout, same identity)', async () => {
    const tool = await pushTool();
    await writeCosignV2Keyless(client, tool.ref, tool.digest, tool.digest, mock, SUBJECT, ISSUER);
    const ours = await verifyTool(client, tool.ref, tool.digest, { identity: { subject: SUBJECT, issuer: ISSUER }, trustedRoot: mock.trustedRootFile });
    expect(ours, JSON.stringify(ours)).toMatchObject({ ok: true, signer: { kind: 'keyless', subject: SUBJECT, issuer: ISSUER } });
    const env = { SIGSTORE_ROOT_FILE: join(folder, 'fulcio-root.pem'), SIGSTORE_REKOR_PUBLIC_KEY: join(folder, 'rekor.pub'), SIGSTORE_CT_LOG_PUBLIC_KEY_FILE: join(folder, 'ctlog.pub') };
    const args = ['verify', '--certificate-oidc-issuer', ISSUER, '--allow-http-registry', '--offline=true', `${tool.name}@${tool.digest}`];
    const { stdout } = await cosign([...args, '--certificate-identity', SUBJECT], env);
    expect(JSON.parse(stdout)[0].critical.image['docker-manifest-digest']).toBe(tool.digest);
    await expect(cosign([...args, '--certificate-identity', 'mallory@evil.example'], env)).rejects.toThrow();
  });
});

describe('cosign --new-bundle-format (cosign v3\'s default): key-based bundles as referrers', () => {
  const signV3 = async (key: string, name: string, digest: string) =>
    await cosign(['sign', '--yes', '--new-bundle-format', '--key', key, '--tlog-upload=false', '--allow-http-registry', `${name}@${digest}`]);

  it('accepts the expected key and refuses another', async () => {
    const tool = await pushTool();
    await signV3(alice.key, tool.name, tool.digest);
    expect(await client.referrers(tool.ref, tool.digest)).toHaveLength(1);
    expect(await verifyTool(client, tool.ref, tool.digest, { key: alice.pub })).toMatchObject({ ok: true, signer: { kind: 'key', keyPath: alice.pub } });
    const wrong = await verifyTool(client, tool.ref, tool.digest, { key: bob.pub });
    expect(wrong).toMatchObject({ ok: false, code: 'untrusted_signer' });
    if (!wrong.ok) expect(wrong.message).toContain('a key-based sigstore bundle that none of the expected keys verifies');
  });

  it('refuses the genuine bundle re-attached to a tampered manifest as digest_mismatch', async () => {
    const tool = await pushTool(POLICY);
    await signV3(alice.key, tool.name, tool.digest);
    const tampered = await pushToolArtifact(client, tool.ref, { wasm: WASM, policy: WIDER_POLICY, tool: TOOL });
    const [descriptor] = await client.referrers(tool.ref, tool.digest);
    const genuine = await client.getManifest({ ...tool.ref, digest: descriptor!.digest });
    const target = await client.getManifest({ ...tool.ref, digest: tampered });
    const moved = { ...genuine.manifest, subject: { mediaType: target.manifest.mediaType, digest: tampered, size: target.bytes.length } };
    const movedDigest = await client.putManifest(tool.ref, moved);
    await putReferrersIndex(tool.ref, tampered, [{ ...descriptor!, digest: movedDigest, size: new TextEncoder().encode(JSON.stringify(moved)).length }]);
    expect(await verifyTool(client, tool.ref, tampered, { key: alice.pub })).toMatchObject({ ok: false, code: 'digest_mismatch' });
  });
});

