/**
 * Verification (`toolhost add|sync|update`): `verifyTool` finds the expectation (flags, else the first
 * matching `trust.policies` entry), reads every signature cosign may have left for the manifest digest
 * (the `.sig` tag: key-based, or keyless with certificate and Rekor entry; bundle referrers: key-based
 * or keyless), and answers `{ok: true, signer}` or a refusal as data naming what was expected and what
 * was found. See index.ts for the whole contract.
 */
import type { KeyObject } from 'node:crypto';
import type { TrustMaterial } from '@sigstore/verify';
import type { FetchedManifest, OciDescriptor, OciReference, RegistryClient } from '../registry-types.ts';
import { keyFingerprint, readPublicKey, verifyPayload } from './cosign-keys.ts';
import { isKeyBundle, verifyKeyBundle } from './key-bundle.ts';
import { COSIGN_CERTIFICATE_ANNOTATION, loadTrustedRoot, SIGSTORE_BUNDLE_ARTIFACT_TYPE, verifyKeylessBundle, verifyLegacyKeyless, type KeylessIdentity } from './keyless.ts';
import {
  EMPTY_MEDIA_TYPE,
  existingSignatureManifest,
  MAX_BUNDLE_BYTES,
  MAX_BUNDLE_REFERRERS,
  MAX_PAYLOAD_BYTES,
  MAX_SIGNATURE_LAYERS,
  MAX_SIGNATURE_MANIFEST_BYTES,
  refName,
  registryProblem,
  signatureOf,
  type TrustedSigner,
} from './registry-reads.ts';
import { isDigest, parseSimpleSigningPayload, signatureTag, SIMPLE_SIGNING_MEDIA_TYPE } from './simple-signing.ts';
import { expectationFor, type TrustConfig, type TrustExpectation } from './trust-policy.ts';
import { TrustError, type TrustErrorCode } from './trust-error.ts';

export interface VerifyToolOptions {
  /** `--key cosign.pub`: a signature by this key is required (replaces the policy for this command). */
  key?: string;
  /** `--certificate-identity` + `--certificate-oidc-issuer`: a keyless signature by this identity is required. */
  identity?: KeylessIdentity;
  /** The config's `trust` section, paths absolute (`resolveTrustPaths`). */
  policy?: TrustConfig;
  /** `--insecure-allow-unsigned`. */
  allowUnsigned?: boolean;
  /** A sigstore `trusted_root.json` for keyless (overrides `policy.trusted_root`). */
  trustedRoot?: string;
  /** Clock for `verifiedAt` (tests). */
  now?: () => Date;
}

export type VerifyToolResult =
  | { ok: true; signer: TrustedSigner; verifiedAt: string; unsigned?: undefined; warning?: undefined }
  | { ok: true; signer: undefined; verifiedAt: string; unsigned: true; warning: string }
  | { ok: false; code: TrustErrorCode; message: string };

function describeExpectation(expectation: TrustExpectation, keys: ReadonlyArray<{ path: string; fingerprint: string }>): string {
  const parts = [
    ...keys.map((key) => `key ${key.path} (${key.fingerprint})`),
    ...expectation.identities.map((identity) => `identity ${identity.subject} (issuer ${identity.issuer})`),
  ];
  return `a signature by ${parts.join(' or ')} [${expectation.source}]`;
}

interface Findings {
  /** Signatures or bundles seen (for "found …"). */
  seen: string[];
  /** Evidence of tampering, refused even with allowUnsigned. */
  tampered: TrustError | undefined;
}

/** The sigstore bundles attached to a manifest as referrers, with the manifest they must cover. */
interface AttachedBundles {
  target: FetchedManifest | undefined;
  bundles: unknown[];
}

/**
 * Reads the bundle referrers of `manifestDigest` (at most MAX_BUNDLE_REFERRERS). The descriptors'
 * artifactType is not trusted to filter: the referrers tag index go-containerregistry writes for
 * registries without the referrers API labels them with the config's media type; each referrer
 * manifest is read and kept when it holds a bundle layer.
 */
async function readAttachedBundles(client: RegistryClient, ref: OciReference, manifestDigest: string, findings: Findings): Promise<AttachedBundles> {
  const base: OciReference = { registry: ref.registry, repository: ref.repository };
  let referrers: OciDescriptor[];
  try {
    referrers = await client.referrers(base, manifestDigest);
  } catch (error) {
    throw registryProblem(error, `Cannot list the referrers of ${refName(ref)}@${manifestDigest}`);
  }
  const candidates = referrers.filter((descriptor) => descriptor.artifactType === undefined || descriptor.artifactType === SIGSTORE_BUNDLE_ARTIFACT_TYPE || descriptor.artifactType === EMPTY_MEDIA_TYPE);
  if (candidates.length === 0) return { target: undefined, bundles: [] };
  let target: FetchedManifest;
  try {
    target = await client.getManifest({ ...base, digest: manifestDigest });
  } catch (error) {
    throw registryProblem(error, `Cannot read ${refName(ref)}@${manifestDigest}`);
  }
  const bundles: unknown[] = [];
  for (const referrer of candidates.slice(0, MAX_BUNDLE_REFERRERS)) {
    try {
      const holder = await client.getManifest({ ...base, digest: referrer.digest }, { maxBytes: MAX_SIGNATURE_MANIFEST_BYTES });
      if (holder.manifest.subject?.digest !== manifestDigest) continue;
      const layer = holder.manifest.layers.find((candidate) => candidate.mediaType === SIGSTORE_BUNDLE_ARTIFACT_TYPE);
      if (layer === undefined) continue;
      const bytes = await client.getBlob(base, layer.digest, { maxBytes: MAX_BUNDLE_BYTES });
      bundles.push(JSON.parse(new TextDecoder().decode(bytes)));
    } catch (error) {
      if (error instanceof SyntaxError) {
        findings.tampered ??= new TrustError('bad_signature', `A sigstore bundle attached to ${refName(ref)}@${manifestDigest} is not JSON.`);
        continue;
      }
      throw registryProblem(error, `Cannot read a sigstore bundle of ${refName(ref)}@${manifestDigest}`);
    }
  }
  return { target, bundles };
}

async function verifyWithKeys(
  client: RegistryClient,
  ref: OciReference,
  manifestDigest: string,
  keys: ReadonlyArray<{ path: string; fingerprint: string; key: KeyObject }>,
  findings: Findings,
  attached: () => Promise<AttachedBundles>,
): Promise<TrustedSigner | undefined> {
  const signatures = await existingSignatureManifest(client, ref, manifestDigest);
  const layers = (signatures?.manifest.layers ?? []).filter((layer) => layer.mediaType === SIMPLE_SIGNING_MEDIA_TYPE).slice(0, MAX_SIGNATURE_LAYERS);
  for (const layer of layers) {
    const signature = signatureOf(layer);
    if (signature === undefined) {
      findings.seen.push('a signature layer without a signature');
      continue;
    }
    let payload: Uint8Array;
    try {
      payload = await client.getBlob({ registry: ref.registry, repository: ref.repository }, layer.digest, { maxBytes: MAX_PAYLOAD_BYTES });
    } catch (error) {
      throw registryProblem(error, `Cannot read a signature payload of ${refName(ref)}@${manifestDigest}`);
    }
    const signer = keys.find((candidate) => verifyPayload(candidate.key, payload, Buffer.from(signature, 'base64')));
    if (signer === undefined) {
      findings.seen.push(`a signature (${signatureTag(manifestDigest)}) that none of the expected keys verifies`);
      continue;
    }
    const claims = parseSimpleSigningPayload(payload);
    if ('problem' in claims) {
      findings.tampered ??= new TrustError('bad_signature', `A signature by ${signer.fingerprint} on ${refName(ref)}@${manifestDigest} is unusable: ${claims.problem}.`);
      continue;
    }
    if (claims.manifestDigest !== manifestDigest) {
      findings.tampered ??= new TrustError(
        'digest_mismatch',
        `The signature by ${signer.fingerprint} found for ${refName(ref)}@${manifestDigest} signs another manifest, ${claims.manifestDigest}${claims.dockerReference !== undefined ? ` of ${claims.dockerReference}` : ''}: a copied signature.`,
      );
      continue;
    }
    return { kind: 'key', id: `key ${signer.fingerprint}`, fingerprint: signer.fingerprint, keyPath: signer.path };
  }
  // cosign --new-bundle-format (v3's default): key-based bundles as referrers.
  const { target, bundles } = await attached();
  for (const bundle of bundles.filter(isKeyBundle)) {
    if (target === undefined) break;
    let signer: (typeof keys)[number] | undefined;
    try {
      signer = keys.find((candidate) => verifyKeyBundle(bundle, target, candidate.key));
    } catch (error) {
      if (!(error instanceof TrustError)) throw error;
      findings.tampered ??= error;
      continue;
    }
    if (signer !== undefined) return { kind: 'key', id: `key ${signer.fingerprint}`, fingerprint: signer.fingerprint, keyPath: signer.path };
    findings.seen.push('a key-based sigstore bundle that none of the expected keys verifies');
  }
  return undefined;
}

/** Keyless signatures in cosign v2's layout: `.sig` layers with a certificate annotation. */
async function verifyLegacyKeylessSignatures(
  client: RegistryClient,
  ref: OciReference,
  manifestDigest: string,
  identities: readonly KeylessIdentity[],
  trust: () => Promise<TrustMaterial>,
  findings: Findings,
): Promise<TrustedSigner | undefined> {
  const signatures = await existingSignatureManifest(client, ref, manifestDigest);
  const simple = (signatures?.manifest.layers ?? []).filter((layer) => layer.mediaType === SIMPLE_SIGNING_MEDIA_TYPE);
  const layers = simple.filter((layer) => layer.annotations?.[COSIGN_CERTIFICATE_ANNOTATION] !== undefined).slice(0, MAX_SIGNATURE_LAYERS);
  const keyBased = Math.min(MAX_SIGNATURE_LAYERS, simple.length - layers.length);
  for (let index = 0; index < keyBased; index += 1) findings.seen.push(`a key-based signature (${signatureTag(manifestDigest)}) where a keyless identity is expected`);
  for (const layer of layers) {
    const signature = signatureOf(layer);
    if (signature === undefined) continue;
    let payload: Uint8Array;
    try {
      payload = await client.getBlob({ registry: ref.registry, repository: ref.repository }, layer.digest, { maxBytes: MAX_PAYLOAD_BYTES });
    } catch (error) {
      throw registryProblem(error, `Cannot read a signature payload of ${refName(ref)}@${manifestDigest}`);
    }
    let identity: KeylessIdentity;
    try {
      identity = verifyLegacyKeyless(layer.annotations ?? {}, payload, signature, `A keyless cosign signature (${signatureTag(manifestDigest)})`, await trust());
    } catch (error) {
      if (!(error instanceof TrustError)) throw error;
      findings.tampered ??= error;
      continue;
    }
    const claims = parseSimpleSigningPayload(payload);
    if ('problem' in claims) {
      findings.tampered ??= new TrustError('bad_signature', `A keyless signature by ${identity.subject} is unusable: ${claims.problem}.`);
      continue;
    }
    if (claims.manifestDigest !== manifestDigest) {
      findings.tampered ??= new TrustError('digest_mismatch', `The keyless signature by ${identity.subject} found for ${refName(ref)}@${manifestDigest} signs another manifest, ${claims.manifestDigest}: a copied signature.`);
      continue;
    }
    if (identities.some((expected) => expected.subject === identity.subject && expected.issuer === identity.issuer)) {
      return { kind: 'keyless', id: `${identity.subject} (issuer ${identity.issuer})`, subject: identity.subject, issuer: identity.issuer };
    }
    findings.seen.push(`a keyless signature by ${identity.subject} (issuer ${identity.issuer})`);
  }
  return undefined;
}

async function verifyKeyless(
  client: RegistryClient,
  ref: OciReference,
  manifestDigest: string,
  identities: readonly KeylessIdentity[],
  trustedRoot: string | undefined,
  findings: Findings,
  attached: () => Promise<AttachedBundles>,
): Promise<TrustedSigner | undefined> {
  let material: TrustMaterial | undefined;
  const trust = async (): Promise<TrustMaterial> => (material ??= await loadTrustedRoot(trustedRoot));
  const legacy = await verifyLegacyKeylessSignatures(client, ref, manifestDigest, identities, trust, findings);
  if (legacy !== undefined) return legacy;
  const { target, bundles } = await attached();
  for (const bundleJson of bundles) {
    if (target === undefined) break;
    if (isKeyBundle(bundleJson)) {
      findings.seen.push('a key-based sigstore bundle where a keyless identity is expected');
      continue;
    }
    let identity: KeylessIdentity;
    try {
      identity = verifyKeylessBundle(bundleJson, target, await trust());
    } catch (error) {
      if (!(error instanceof TrustError)) throw error;
      findings.tampered ??= error;
      continue;
    }
    if (identities.some((expected) => expected.subject === identity.subject && expected.issuer === identity.issuer)) {
      return { kind: 'keyless', id: `${identity.subject} (issuer ${identity.issuer})`, subject: identity.subject, issuer: identity.issuer };
    }
    findings.seen.push(`a keyless signature by ${identity.subject} (issuer ${identity.issuer})`);
  }
  return undefined;
}

function summarize(findings: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding, (counts.get(finding) ?? 0) + 1);
  return [...counts].map(([finding, count]) => (count > 1 ? `${count}× ${finding}` : finding)).join('; ');
}

function unsignedOk(now: Date, reason: string): VerifyToolResult {
  return { ok: true, signer: undefined, verifiedAt: now.toISOString(), unsigned: true, warning: `INSECURE: installing an unverified tool (--insecure-allow-unsigned): ${reason}` };
}

/** Verifies that an expected signer signed `manifestDigest` of `ref`. Never throws: refusals are data. */
export async function verifyTool(client: RegistryClient, ref: OciReference, manifestDigest: string, options: VerifyToolOptions = {}): Promise<VerifyToolResult> {
  const now = (options.now ?? (() => new Date()))();
  const allowUnsigned = options.allowUnsigned === true || options.policy?.allow_unsigned === true;
  const name = `${refName(ref)}@${manifestDigest}`;
  try {
    if (!isDigest(manifestDigest)) throw new TrustError('digest_mismatch', `${manifestDigest} is not a sha256 manifest digest.`);
    const fromFlags = options.key !== undefined || options.identity !== undefined;
    const expectation: TrustExpectation | undefined = fromFlags
      ? {
          keys: options.key !== undefined ? [options.key] : [],
          identities: options.identity !== undefined ? [options.identity] : [],
          source: [options.key !== undefined ? '--key' : undefined, options.identity !== undefined ? '--certificate-identity' : undefined].filter(Boolean).join(' and '),
        }
      : expectationFor(options.policy, ref);
    if (expectation === undefined) {
      const count = options.policy?.policies?.length ?? 0;
      const reason = `no trust policy covers ${refName(ref)} (none of ${count} trust.policies entr${count === 1 ? 'y' : 'ies'} matches; no --key or --certificate-identity given)`;
      if (allowUnsigned) return unsignedOk(now, reason);
      return {
        ok: false,
        code: 'no_trust_policy',
        message: `Refused ${name}: ${reason}. Expected a signer for it: pass --key cosign.pub or --certificate-identity and --certificate-oidc-issuer, or add a "trust.policies" entry whose "match" covers it.`,
      };
    }
    const keys = expectation.keys.map((path) => {
      const key = readPublicKey(path);
      return { path, key, fingerprint: keyFingerprint(key) };
    });
    const findings: Findings = { seen: [], tampered: undefined };
    let bundles: Promise<AttachedBundles> | undefined;
    const attached = (): Promise<AttachedBundles> => (bundles ??= readAttachedBundles(client, ref, manifestDigest, findings));
    const signer =
      (keys.length > 0 ? await verifyWithKeys(client, ref, manifestDigest, keys, findings, attached) : undefined) ??
      (expectation.identities.length > 0
        ? await verifyKeyless(client, ref, manifestDigest, expectation.identities, options.trustedRoot ?? options.policy?.trusted_root, findings, attached)
        : undefined);
    if (signer !== undefined) return { ok: true, signer, verifiedAt: now.toISOString() };
    const expected = describeExpectation(expectation, keys);
    if (findings.tampered !== undefined) return { ok: false, code: findings.tampered.code, message: `Refused ${name}: expected ${expected}; ${findings.tampered.message}` };
    if (findings.seen.length > 0) {
      const found = `found ${findings.seen.length} signature(s), none trusted: ${summarize(findings.seen)}`;
      if (allowUnsigned) return unsignedOk(now, found);
      return { ok: false, code: 'untrusted_signer', message: `Refused ${name}: expected ${expected}; ${found}.` };
    }
    const where = `no ${signatureTag(manifestDigest)} tag, no sigstore bundle referrer`;
    if (allowUnsigned) return unsignedOk(now, `${name} is not signed (${where})`);
    return { ok: false, code: 'unsigned', message: `Refused ${name}: expected ${expected}; found no signature (${where}).` };
  } catch (error) {
    if (error instanceof TrustError) return { ok: false, code: error.code, message: `Refused ${name}: ${error.message}` };
    return { ok: false, code: 'registry_error', message: `Refused ${name}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
