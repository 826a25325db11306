/**
 * Keyless verification: a sigstore bundle (v0.1–v0.3 JSON) attached to the tool's manifest as an OCI
 * 1.1 referrer of artifact type `application/vnd.dev.sigstore.bundle.v0.3+json` (cosign v3's layout),
 * checked with `@sigstore/verify` against a trusted root: the Fulcio certificate chain, the
 * certificate-transparency SCT, and the Rekor entry (inclusion proof or signed promise). The bundle
 * must cover the manifest: a message signature over the manifest's bytes (its digest is the manifest
 * digest), or a DSSE in-toto statement whose subject carries the manifest digest (cosign v3's
 * `https://sigstore.dev/cosign/sign/v1`).
 *
 * Contract: `verifyKeylessBundle(bundleJson, manifest, root)` returns the certificate identity
 * `{subject, issuer}` of a bundle that verifies, or throws `TrustError('bad_signature' | 'digest_mismatch')`
 * naming what failed. Comparing the identity with the expected ones is the caller's (it names both).
 * `loadTrustedRoot(path?)` reads a `trusted_root.json`, or the sigstore public-good root through TUF.
 */
import { readFileSync } from 'node:fs';
import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier, type TrustMaterial } from '@sigstore/verify';
import type { FetchedManifest } from '../registry-types.ts';
import { TrustError } from './trust-error.ts';

export const SIGSTORE_BUNDLE_ARTIFACT_TYPE = 'application/vnd.dev.sigstore.bundle.v0.3+json';
/** Larger trusted roots are not trusted roots. */
const MAX_TRUSTED_ROOT_BYTES = 1024 * 1024;

export interface KeylessIdentity {
  subject: string;
  issuer: string;
}

/** Trust material from a `trusted_root.json`, or (no path) sigstore's public-good root through TUF. */
export async function loadTrustedRoot(path: string | undefined): Promise<TrustMaterial> {
  let root: TrustedRoot;
  if (path !== undefined) {
    let json: unknown;
    try {
      const bytes = readFileSync(path);
      if (bytes.length > MAX_TRUSTED_ROOT_BYTES) throw new Error(`${bytes.length} bytes is too large`);
      json = JSON.parse(bytes.toString('utf8'));
      root = TrustedRoot.fromJSON(json);
    } catch (error) {
      throw new TrustError('bad_signature', `Cannot read the sigstore trusted root ${path}: ${(error as Error).message}`);
    }
  } else {
    try {
      const { getTrustedRoot } = await import('@sigstore/tuf');
      root = await getTrustedRoot();
    } catch (error) {
      throw new TrustError('bad_signature', `Cannot fetch sigstore's public-good trusted root through TUF (set trust.trusted_root for offline use): ${(error as Error).message}`);
    }
  }
  return toTrustMaterial(root);
}

interface InTotoStatement {
  subject?: Array<{ digest?: Record<string, unknown> }>;
}

/** The identity of a bundle that verifies and covers `manifest`; throws `TrustError` otherwise. */
export function verifyKeylessBundle(bundleJson: unknown, manifest: FetchedManifest, trust: TrustMaterial): KeylessIdentity {
  let bundle;
  try {
    bundle = bundleFromJSON(bundleJson);
  } catch (error) {
    throw new TrustError('bad_signature', `The sigstore bundle attached to ${manifest.digest} is malformed: ${(error as Error).message}`);
  }
  const content = bundle.content;
  const dsse = content.$case === 'dsseEnvelope';
  let signer;
  try {
    const entity = dsse ? toSignedEntity(bundle) : toSignedEntity(bundle, Buffer.from(manifest.bytes));
    signer = new Verifier(trust).verify(entity);
  } catch (error) {
    throw new TrustError('bad_signature', `The sigstore bundle attached to ${manifest.digest} does not verify: ${(error as Error).message}`);
  }
  if (dsse) {
    const hex = manifest.digest.slice('sha256:'.length);
    let statement: InTotoStatement | undefined;
    try {
      statement = JSON.parse(Buffer.from(content.dsseEnvelope.payload).toString('utf8')) as InTotoStatement;
    } catch {
      statement = undefined;
    }
    const covered = Array.isArray(statement?.subject) && statement.subject.some((subject) => subject?.digest?.['sha256'] === hex);
    if (!covered) throw new TrustError('digest_mismatch', `The sigstore bundle attached to ${manifest.digest} signs a statement about other content, not this manifest.`);
  }
  const subject = signer.identity?.subjectAlternativeName;
  const issuer = signer.identity?.extensions?.issuer;
  if (subject === undefined || issuer === undefined) {
    throw new TrustError('bad_signature', `The sigstore bundle attached to ${manifest.digest} has no Fulcio certificate identity (a key-based bundle; use --key).`);
  }
  return { subject, issuer };
}
