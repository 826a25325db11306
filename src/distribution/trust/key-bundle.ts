/**
 * Key-based sigstore bundles: what `cosign sign --key --new-bundle-format` (cosign v3's default)
 * attaches as an OCI 1.1 referrer — a DSSE envelope over an in-toto statement
 * (`https://sigstore.dev/cosign/sign/v1`) whose subject is the manifest digest, with a public-key hint
 * instead of a certificate.
 *
 * Contract: `verifyKeyBundle(bundleJson, manifest, key)` returns `true` when `key` made the bundle's
 * signature and the bundle covers `manifest`, `false` when the signature is not `key`'s, and throws
 * `TrustError` (`bad_signature` malformed, `digest_mismatch` covers other content). Transparency-log
 * entries in the bundle are not checked (as `cosign verify --key --insecure-ignore-tlog`): the key
 * is the trust anchor.
 */
import type { KeyObject } from 'node:crypto';
import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier } from '@sigstore/verify';
import type { FetchedManifest } from '../registry-types.ts';
import { statementCovers } from './keyless.ts';
import { TrustError } from './trust-error.ts';

const EMPTY_ROOT = TrustedRoot.fromJSON({ mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1', tlogs: [], certificateAuthorities: [], ctlogs: [], timestampAuthorities: [] });

/** Whether a bundle JSON names a public key (not a certificate) as its verification material. */
export function isKeyBundle(bundleJson: unknown): boolean {
  const material = (bundleJson as { verificationMaterial?: { publicKey?: unknown } } | null)?.verificationMaterial;
  return typeof material === 'object' && material !== null && material.publicKey !== undefined;
}

export function verifyKeyBundle(bundleJson: unknown, manifest: FetchedManifest, key: KeyObject): boolean {
  const label = `The sigstore bundle attached to ${manifest.digest}`;
  let bundle;
  try {
    const json = bundleJson as { verificationMaterial: Record<string, unknown> };
    bundle = bundleFromJSON({ ...json, verificationMaterial: { ...json.verificationMaterial, tlogEntries: [] } });
  } catch (error) {
    throw new TrustError('bad_signature', `${label} is malformed: ${(error as Error).message}`);
  }
  const content = bundle.content;
  const dsse = content.$case === 'dsseEnvelope';
  const trust = toTrustMaterial(EMPTY_ROOT, () => ({ publicKey: key, validFor: () => true }));
  try {
    const entity = dsse ? toSignedEntity(bundle) : toSignedEntity(bundle, Buffer.from(manifest.bytes));
    new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(entity);
  } catch {
    return false;
  }
  if (dsse && !statementCovers(Buffer.from(content.dsseEnvelope.payload), manifest.digest)) {
    throw new TrustError('digest_mismatch', `${label} is signed by the key but signs a statement about other content, not this manifest.`);
  }
  return true;
}
