/**
 * cosign's signature layout in a registry (what `cosign sign --key` v2 writes and `cosign verify`
 * reads by default): the signatures of manifest `sha256:<hex>` live in the same repository under
 * the tag `sha256-<hex>.sig`, as an OCI image manifest whose layers are simple-signing payloads
 * (`application/vnd.dev.cosign.simplesigning.v1+json`) with the base64 signature in the layer
 * annotation `dev.cosignproject.cosign/signature`. Each payload names the signed manifest digest:
 * `{"critical":{"identity":{"docker-reference":"<registry>/<repo>"},"image":{"docker-manifest-digest":"sha256:…"},"type":"cosign container image signature"},"optional":null}`.
 *
 * Contract: pure functions over bytes (no registry access): the tag name, payload build/parse, the
 * signature manifest's layers and the config blob cosign writes next to them.
 */
import { createHash } from 'node:crypto';
import type { OciDescriptor, OciManifest, OciReference } from '../registry-types.ts';

export const SIMPLE_SIGNING_MEDIA_TYPE = 'application/vnd.dev.cosign.simplesigning.v1+json';
export const SIGNATURE_ANNOTATION = 'dev.cosignproject.cosign/signature';
export const OCI_MANIFEST_MEDIA_TYPE = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_CONFIG_MEDIA_TYPE = 'application/vnd.oci.image.config.v1+json';
const SIGNATURE_TYPE = 'cosign container image signature';

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

export const isDigest = (value: string): boolean => DIGEST_PATTERN.test(value);

/** `sha256:<hex>` → `sha256-<hex>.sig`. */
export function signatureTag(manifestDigest: string): string {
  return `${manifestDigest.replace(':', '-')}.sig`;
}

export const sha256Digest = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The payload cosign signs for `ref`'s manifest `manifestDigest` (byte-for-byte what cosign writes). */
export function simpleSigningPayload(ref: OciReference, manifestDigest: string): Uint8Array {
  const payload = {
    critical: { identity: { 'docker-reference': `${ref.registry}/${ref.repository}` }, image: { 'docker-manifest-digest': manifestDigest }, type: SIGNATURE_TYPE },
    optional: null,
  };
  return new TextEncoder().encode(JSON.stringify(payload));
}

export interface SimpleSigningClaims {
  dockerReference: string | undefined;
  manifestDigest: string;
}

/** The claims of a payload, or a reason it is not a cosign simple-signing payload. */
export function parseSimpleSigningPayload(bytes: Uint8Array): SimpleSigningClaims | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { problem: 'the signed payload is not JSON' };
  }
  const critical = (value as { critical?: unknown } | null)?.critical as
    | { type?: unknown; image?: { 'docker-manifest-digest'?: unknown }; identity?: { 'docker-reference'?: unknown } }
    | undefined;
  if (typeof critical !== 'object' || critical === null || critical.type !== SIGNATURE_TYPE) return { problem: `the signed payload is not a "${SIGNATURE_TYPE}"` };
  const digest = critical.image?.['docker-manifest-digest'];
  if (typeof digest !== 'string' || !isDigest(digest)) return { problem: 'the signed payload names no sha256 manifest digest' };
  const reference = critical.identity?.['docker-reference'];
  return { dockerReference: typeof reference === 'string' ? reference : undefined, manifestDigest: digest };
}

/** The config blob of a signature manifest: an empty image whose diff_ids are the layers' digests (as cosign writes). */
export function signatureConfigBlob(layers: readonly OciDescriptor[]): Uint8Array {
  const config = {
    architecture: '',
    created: '0001-01-01T00:00:00Z',
    history: [{ created: '0001-01-01T00:00:00Z' }],
    os: '',
    rootfs: { type: 'layers', diff_ids: layers.map((layer) => layer.digest) },
    config: {},
  };
  return new TextEncoder().encode(JSON.stringify(config));
}

/** The signature manifest holding `layers`, with its config blob (to be uploaded first). */
export function signatureManifest(layers: readonly OciDescriptor[]): { manifest: OciManifest; config: Uint8Array } {
  const config = signatureConfigBlob(layers);
  return {
    config,
    manifest: {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST_MEDIA_TYPE,
      config: { mediaType: OCI_CONFIG_MEDIA_TYPE, size: config.length, digest: sha256Digest(config) },
      layers: [...layers],
    },
  };
}
