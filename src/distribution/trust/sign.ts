/**
 * Signing (`toolhost push --sign --key`): `signTool` writes what `cosign sign --key` (v2) writes — the
 * simple-signing payload naming the manifest digest, as a layer of the `sha256-<hex>.sig` tag, keeping
 * other keys' signatures and replacing this key's earlier one — and `attachBundle` attaches a sigstore
 * bundle as an OCI 1.1 referrer. Both throw `TrustError`.
 */
import type { OciDescriptor, OciManifest, OciReference, RegistryClient } from '../registry-types.ts';
import { keyFingerprint, readPrivateKey, signPayload, verifyPayload } from './cosign-keys.ts';
import { SIGSTORE_BUNDLE_ARTIFACT_TYPE } from './keyless.ts';
import { existingSignatureManifest, refName, registryProblem, signatureOf, type TrustedSigner } from './registry-reads.ts';
import { isDigest, sha256Digest, SIGNATURE_ANNOTATION, signatureManifest, signatureTag, SIMPLE_SIGNING_MEDIA_TYPE, simpleSigningPayload } from './simple-signing.ts';
import { TrustError } from './trust-error.ts';

export interface SignToolOptions {
  /** Path of a cosign private key (`cosign generate-key-pair`), or a plain PEM private key. */
  key: string;
  /** The key's password; default `process.env.COSIGN_PASSWORD` (then empty). */
  password?: string;
}

export interface SignToolResult {
  /** `registry/repo:sha256-<hex>.sig@sha256:<signature manifest digest>`. */
  signatureRef: string;
  signer: TrustedSigner;
}

/** Signs `manifestDigest` of `ref` with a cosign key, as `cosign sign --key` does. @throws TrustError */
export async function signTool(client: RegistryClient, ref: OciReference, manifestDigest: string, options: SignToolOptions): Promise<SignToolResult> {
  if (!isDigest(manifestDigest)) throw new TrustError('digest_mismatch', `${manifestDigest} is not a sha256 manifest digest.`);
  const privateKey = readPrivateKey(options.key, options.password ?? process.env['COSIGN_PASSWORD']);
  const fingerprint = keyFingerprint(privateKey);
  const base: OciReference = { registry: ref.registry, repository: ref.repository };
  try {
    await client.getManifest({ ...base, digest: manifestDigest });
  } catch (error) {
    throw registryProblem(error, `Cannot sign ${refName(ref)}@${manifestDigest}: the manifest cannot be read`);
  }
  const payload = simpleSigningPayload(ref, manifestDigest);
  const signature = signPayload(privateKey, payload).toString('base64');
  const existing = await existingSignatureManifest(client, ref, manifestDigest);
  // Keep other signers' signatures; replace this key's earlier signature of the same payload.
  const payloadDigest = sha256Digest(payload);
  const kept = (existing?.manifest.layers ?? []).filter((layer) => {
    const earlier = signatureOf(layer);
    return !(layer.digest === payloadDigest && earlier !== undefined && verifyPayload(privateKey, payload, Buffer.from(earlier, 'base64')));
  });
  const layer: OciDescriptor = { mediaType: SIMPLE_SIGNING_MEDIA_TYPE, size: payload.length, digest: payloadDigest, annotations: { [SIGNATURE_ANNOTATION]: signature } };
  const { manifest, config } = signatureManifest([...kept, layer]);
  const tag = signatureTag(manifestDigest);
  try {
    await client.putBlob(base, payload);
    await client.putBlob(base, config);
    const digest = await client.putManifest(base, manifest, tag);
    return { signatureRef: `${refName(ref)}:${tag}@${digest}`, signer: { kind: 'key', id: `key ${fingerprint}`, fingerprint, keyPath: options.key } };
  } catch (error) {
    throw registryProblem(error, `Cannot write the signature of ${refName(ref)}@${manifestDigest}`);
  }
}

/** Attaches a sigstore bundle (JSON) to `manifestDigest` as an OCI 1.1 referrer. @throws TrustError('registry_error') */
export async function attachBundle(client: RegistryClient, ref: OciReference, manifestDigest: string, bundleJson: unknown): Promise<string> {
  const base: OciReference = { registry: ref.registry, repository: ref.repository };
  try {
    const target = await client.getManifest({ ...base, digest: manifestDigest });
    const bundleBytes = new TextEncoder().encode(JSON.stringify(bundleJson));
    const empty = new TextEncoder().encode('{}');
    await client.putBlob(base, bundleBytes);
    await client.putBlob(base, empty);
    const manifest: OciManifest = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      artifactType: SIGSTORE_BUNDLE_ARTIFACT_TYPE,
      config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: sha256Digest(empty), size: empty.length },
      layers: [{ mediaType: SIGSTORE_BUNDLE_ARTIFACT_TYPE, digest: sha256Digest(bundleBytes), size: bundleBytes.length }],
      subject: { mediaType: target.manifest.mediaType, digest: target.digest, size: target.bytes.length },
    };
    return await client.putManifest(base, manifest);
  } catch (error) {
    throw registryProblem(error, `Cannot attach a sigstore bundle to ${refName(ref)}@${manifestDigest}`);
  }
}
