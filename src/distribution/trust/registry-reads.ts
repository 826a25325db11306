/**
 * What the trust layer reads from a registry, and the caps on it: the `sha256-<hex>.sig` signature
 * manifest of a digest (absent = `undefined`), registry failures as `TrustError('registry_error')`
 * (the client's message, never credentials), and the `TrustedSigner` both sides report.
 */
import type { FetchedManifest, OciDescriptor, OciReference, RegistryClient } from '../registry-types.ts';
import { OciError } from '../registry-types.ts';
import { SIGNATURE_ANNOTATION, signatureTag } from './simple-signing.ts';
import { TrustError } from './trust-error.ts';

/** Caps on what a registry may make the trust layer read. */
export const MAX_SIGNATURE_MANIFEST_BYTES = 256 * 1024;
export const MAX_PAYLOAD_BYTES = 64 * 1024;
export const MAX_BUNDLE_BYTES = 1024 * 1024;
export const MAX_SIGNATURE_LAYERS = 64;
export const MAX_BUNDLE_REFERRERS = 16;
export const EMPTY_MEDIA_TYPE = 'application/vnd.oci.empty.v1+json';

/** Who signed: a cosign key (by fingerprint) or a keyless identity. `id` is what the lockfile records. */
export type TrustedSigner =
  | { kind: 'key'; id: string; fingerprint: string; keyPath: string }
  | { kind: 'keyless'; id: string; subject: string; issuer: string };

export const refName = (ref: OciReference): string => `${ref.registry}/${ref.repository}`;

export function registryProblem(error: unknown, what: string): TrustError {
  if (error instanceof TrustError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TrustError('registry_error', `${what}: ${message}`);
}

export const isNotFound = (error: unknown): boolean => error instanceof OciError && error.code === 'not_found';

export async function existingSignatureManifest(client: RegistryClient, ref: OciReference, manifestDigest: string): Promise<FetchedManifest | undefined> {
  try {
    return await client.getManifest({ registry: ref.registry, repository: ref.repository, tag: signatureTag(manifestDigest) }, { maxBytes: MAX_SIGNATURE_MANIFEST_BYTES });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw registryProblem(error, `Cannot read the signatures of ${refName(ref)}@${manifestDigest}`);
  }
}

export const signatureOf = (layer: OciDescriptor): string | undefined => layer.annotations?.[SIGNATURE_ANNOTATION];
