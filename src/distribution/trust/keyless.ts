/**
 * Keyless verification: a sigstore bundle (v0.1–v0.3 JSON) attached to the tool's manifest as an OCI
 * 1.1 referrer of artifact type `application/vnd.dev.sigstore.bundle.v0.3+json` (cosign v3's layout),
 * checked with `@sigstore/verify` against a trusted root: the Fulcio certificate chain, the
 * certificate-transparency SCT, and the Rekor entry (inclusion proof or signed promise). The bundle
 * must cover the manifest: a message signature over the manifest's bytes (its digest is the manifest
 * digest), or a DSSE in-toto statement whose subject carries the manifest digest (cosign v3's
 * `https://sigstore.dev/cosign/sign/v1`).
 *
 * cosign v2's keyless layout is read too: a `sha256-<hex>.sig` layer carrying the certificate, its
 * chain and the Rekor signed entry timestamp as annotations (`legacyKeylessBundle` turns it into a
 * v0.1 bundle over the simple-signing payload).
 *
 * Contract: `verifyKeylessBundle(bundleJson, manifest, root)` returns the certificate identity
 * `{subject, issuer}` of a bundle that verifies, or throws `TrustError('bad_signature' | 'digest_mismatch')`
 * naming what failed. Comparing the identity with the expected ones is the caller's (it names both).
 * `loadTrustedRoot(path?)` reads a `trusted_root.json`, or the sigstore public-good root through TUF.
 */
import { createHash } from 'node:crypto';
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

/** Whether an in-toto statement (DSSE payload) names `digest` (`sha256:<hex>`) among its subjects. */
export function statementCovers(payload: Buffer, digest: string): boolean {
  const hex = digest.slice('sha256:'.length);
  let statement: InTotoStatement | undefined;
  try {
    statement = JSON.parse(payload.toString('utf8')) as InTotoStatement;
  } catch {
    return false;
  }
  return Array.isArray(statement?.subject) && statement.subject.some((subject) => subject?.digest?.['sha256'] === hex);
}

interface CheckedBundle {
  identity: KeylessIdentity;
  /** The DSSE payload, when the bundle signs an envelope rather than the artifact itself. */
  dssePayload: Buffer | undefined;
}

/** Verifies a bundle against the trust material (over `artifact` for message signatures); `label` names it in errors. */
function checkBundle(bundleJson: unknown, artifact: Uint8Array, label: string, trust: TrustMaterial): CheckedBundle {
  let bundle;
  try {
    bundle = bundleFromJSON(bundleJson);
  } catch (error) {
    throw new TrustError('bad_signature', `${label} is malformed: ${(error as Error).message}`);
  }
  const content = bundle.content;
  const dsse = content.$case === 'dsseEnvelope';
  let signer;
  try {
    const entity = dsse ? toSignedEntity(bundle) : toSignedEntity(bundle, Buffer.from(artifact));
    signer = new Verifier(trust).verify(entity);
  } catch (error) {
    throw new TrustError('bad_signature', `${label} does not verify: ${(error as Error).message}`);
  }
  const subject = signer.identity?.subjectAlternativeName;
  const issuer = signer.identity?.extensions?.issuer;
  if (subject === undefined || issuer === undefined) {
    throw new TrustError('bad_signature', `${label} has no Fulcio certificate identity (a key-based bundle; use --key).`);
  }
  return { identity: { subject, issuer }, dssePayload: dsse ? Buffer.from(content.dsseEnvelope.payload) : undefined };
}

/** The identity of a bundle that verifies and covers `manifest`; throws `TrustError` otherwise. */
export function verifyKeylessBundle(bundleJson: unknown, manifest: FetchedManifest, trust: TrustMaterial): KeylessIdentity {
  const label = `The sigstore bundle attached to ${manifest.digest}`;
  const checked = checkBundle(bundleJson, manifest.bytes, label, trust);
  if (checked.dssePayload !== undefined && !statementCovers(checked.dssePayload, manifest.digest)) {
    throw new TrustError('digest_mismatch', `${label} signs a statement about other content, not this manifest.`);
  }
  return checked.identity;
}

/** cosign v2's keyless signature annotations on a simple-signing layer of the `.sig` tag. */
export const COSIGN_CERTIFICATE_ANNOTATION = 'dev.sigstore.cosign/certificate';
export const COSIGN_CHAIN_ANNOTATION = 'dev.sigstore.cosign/chain';
export const COSIGN_REKOR_BUNDLE_ANNOTATION = 'dev.sigstore.cosign/bundle';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]{1,65536}?)-----END CERTIFICATE-----/g;
const MAX_CHAIN_CERTIFICATES = 8;

interface RekorBundle {
  SignedEntryTimestamp: string;
  Payload: { body: string; integratedTime: number; logIndex: number; logID: string };
}

function isRekorBundle(value: unknown): value is RekorBundle {
  const v = value as RekorBundle | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.SignedEntryTimestamp === 'string' &&
    typeof v.Payload === 'object' &&
    v.Payload !== null &&
    typeof v.Payload.body === 'string' &&
    Number.isSafeInteger(v.Payload.integratedTime) &&
    Number.isSafeInteger(v.Payload.logIndex) &&
    typeof v.Payload.logID === 'string' &&
    /^[0-9a-f]{64}$/.test(v.Payload.logID)
  );
}

/**
 * A cosign v2 keyless signature (a `.sig` layer with the Fulcio certificate, its chain and the Rekor
 * "bundle" — the signed entry timestamp — as annotations) as a v0.1 sigstore bundle over the
 * simple-signing payload, for `@sigstore/verify`. Throws `TrustError('bad_signature')` when malformed.
 */
export function legacyKeylessBundle(annotations: Readonly<Record<string, string>>, payload: Uint8Array, signatureBase64: string): unknown {
  const pems = [annotations[COSIGN_CERTIFICATE_ANNOTATION] ?? '', annotations[COSIGN_CHAIN_ANNOTATION] ?? ''].join('\n');
  const certificates = [...pems.matchAll(PEM_CERTIFICATE)].slice(0, MAX_CHAIN_CERTIFICATES + 1).map((match) => ({ rawBytes: match[1]!.replace(/\s/g, '') }));
  if (certificates.length === 0) throw new TrustError('bad_signature', 'a keyless cosign signature carries no certificate');
  let rekor: unknown;
  try {
    rekor = JSON.parse(annotations[COSIGN_REKOR_BUNDLE_ANNOTATION] ?? '');
  } catch {
    rekor = undefined;
  }
  if (!isRekorBundle(rekor)) throw new TrustError('bad_signature', 'a keyless cosign signature carries no valid Rekor entry (dev.sigstore.cosign/bundle)');
  let body: { kind?: unknown; apiVersion?: unknown };
  try {
    body = JSON.parse(Buffer.from(rekor.Payload.body, 'base64').toString('utf8')) as typeof body;
  } catch {
    throw new TrustError('bad_signature', 'the Rekor entry of a keyless cosign signature is not JSON');
  }
  return {
    mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.1',
    verificationMaterial: {
      x509CertificateChain: { certificates },
      tlogEntries: [
        {
          logIndex: String(rekor.Payload.logIndex),
          logId: { keyId: Buffer.from(rekor.Payload.logID, 'hex').toString('base64') },
          kindVersion: { kind: String(body.kind), version: String(body.apiVersion) },
          integratedTime: String(rekor.Payload.integratedTime),
          inclusionPromise: { signedEntryTimestamp: rekor.SignedEntryTimestamp },
          canonicalizedBody: rekor.Payload.body,
        },
      ],
      timestampVerificationData: { rfc3161Timestamps: [] },
    },
    messageSignature: { messageDigest: { algorithm: 'SHA2_256', digest: createHash('sha256').update(payload).digest('base64') }, signature: signatureBase64 },
  };
}

/** The identity of a cosign v2 keyless signature over `payload` (the caller checks the payload's digest claim). */
export function verifyLegacyKeyless(annotations: Readonly<Record<string, string>>, payload: Uint8Array, signatureBase64: string, label: string, trust: TrustMaterial): KeylessIdentity {
  return checkBundle(legacyKeylessBundle(annotations, payload, signatureBase64), payload, label, trust).identity;
}
