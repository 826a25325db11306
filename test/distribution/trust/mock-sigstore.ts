/**
 * sigstore's mock services for keyless tests, offline: a mock Fulcio (CA + CT log) and Rekor from
 * `@sigstore/mock`, reached by the real `sigstore` signing client through nock interceptors, and a
 * `trusted_root.json` that trusts exactly them. `writeCosignV2Keyless` stores a keyless signature the
 * way cosign v2 does (certificate, chain and Rekor entry as annotations of a `.sig` layer).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fulcioHandler, initializeCA, initializeCTLog, initializeTLog, rekorHandler } from '@sigstore/mock';
import nock from 'nock';
import { sign } from 'sigstore';
import type { OciReference, RegistryClient } from '../../../src/distribution/registry-types.ts';
import {
  COSIGN_CERTIFICATE_ANNOTATION,
  COSIGN_CHAIN_ANNOTATION,
  COSIGN_REKOR_BUNDLE_ANNOTATION,
  SIGNATURE_ANNOTATION,
  signatureTag,
  SIMPLE_SIGNING_MEDIA_TYPE,
  simpleSigningPayload,
} from '../../../src/distribution/trust/index.ts';
import { signatureManifest } from '../../../src/distribution/trust/simple-signing.ts';

export interface MockSigstore {
  /** The mock Fulcio's root certificate, DER. */
  rootCertificate: Buffer;
  /** The mock Rekor's and CT log's public keys, SPKI DER (for cosign's SIGSTORE_* variables). */
  rekorPublicKey: Buffer;
  ctlogPublicKey: Buffer;
  fulcioURL: string;
  rekorURL: string;
  trustedRootFile: string;
}

const b64 = (bytes: ArrayBufferView): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** A mock Fulcio + Rekor under `name`, intercepted by nock, and the trusted root that trusts them. */
export async function mockSigstore(folder: string, name: string): Promise<MockSigstore> {
  const keyPair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const fulcioURL = `https://fulcio.${name}.test`;
  const rekorURL = `https://rekor.${name}.test`;
  const ctlog = await initializeCTLog(keyPair);
  const ca = await initializeCA(keyPair, ctlog);
  const tlog = await initializeTLog(rekorURL, keyPair);
  const fulcio = fulcioHandler(ca);
  const rekor = rekorHandler(tlog);
  const adapt = (fn: (body: string) => Promise<{ statusCode: number; response: unknown; contentType?: string }>) => async (_uri: string, body: unknown) => {
    const result = await fn(typeof body === 'string' ? body : JSON.stringify(body));
    return [result.statusCode, result.response, { 'Content-Type': result.contentType ?? 'text/plain' }] as [number, string, Record<string, string>];
  };
  nock(fulcioURL).persist().post(fulcio.path).reply(adapt(fulcio.fn as never));
  nock(rekorURL).persist().post(rekor.path).reply(adapt(rekor.fn as never));
  const start = '2000-01-01T00:00:00Z';
  const root = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [
      {
        baseUrl: rekorURL,
        hashAlgorithm: 'SHA2_256',
        publicKey: { rawBytes: b64(tlog.publicKey), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
        logId: { keyId: b64(createHash('sha256').update(tlog.publicKey).digest()) },
      },
    ],
    certificateAuthorities: [{ subject: { organization: 'sigstore.mock', commonName: 'sigstore' }, uri: fulcioURL, certChain: { certificates: [{ rawBytes: b64(ca.rootCertificate) }] }, validFor: { start } }],
    ctlogs: [
      {
        baseUrl: `https://ctfe.${name}.test`,
        hashAlgorithm: 'SHA2_256',
        publicKey: { rawBytes: b64(ctlog.publicKey), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
        logId: { keyId: b64(ctlog.logID) },
      },
    ],
    timestampAuthorities: [],
  };
  const trustedRootFile = join(folder, `${name}-trusted_root.json`);
  writeFileSync(trustedRootFile, JSON.stringify(root));
  return { rekorPublicKey: tlog.publicKey, ctlogPublicKey: ctlog.publicKey, rootCertificate: Buffer.from(ca.rootCertificate.buffer, ca.rootCertificate.byteOffset, ca.rootCertificate.byteLength), fulcioURL, rekorURL, trustedRootFile };
}

/** An OIDC token as an identity provider would issue (the mock Fulcio reads its claims; signature unchecked). */
export function identityToken(subject: string, issuer: string): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: issuer, sub: subject, email: subject, email_verified: true, aud: 'sigstore' })}.c2lnbmF0dXJl`;
}


/** A keyless bundle (message signature over `payload`) from the mock services for `subject` at `issuer`. */
export async function signKeyless(payload: Buffer, via: MockSigstore, subject: string, issuer: string) {
  return await sign(payload, { fulcioURL: via.fulcioURL, rekorURL: via.rekorURL, identityToken: identityToken(subject, issuer) });
}

const pem = (der: Buffer): string => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;

/**
 * Writes a keyless signature the way cosign v2 stores one: a simple-signing layer of the `.sig` tag
 * with the Fulcio certificate, its chain and the Rekor entry (signed entry timestamp) as annotations,
 * taken from a bundle the mock Fulcio and Rekor made over the payload. `payloadDigest` is the digest the
 * payload names (the manifest's, or another for a copied signature).
 */
export async function writeCosignV2Keyless(client: RegistryClient, ref: OciReference, digest: string, payloadDigest: string, via: MockSigstore, subject: string, issuer: string): Promise<void> {
  const payload = simpleSigningPayload(ref, payloadDigest);
  const bundle = await signKeyless(Buffer.from(payload), via, subject, issuer);
  const entry = bundle.verificationMaterial.tlogEntries[0]!;
  const leaf = bundle.verificationMaterial.certificate?.rawBytes ?? bundle.verificationMaterial.x509CertificateChain?.certificates[0]?.rawBytes;
  if (leaf === undefined || entry.inclusionPromise === undefined) throw new Error('the mock bundle has no certificate or no signed entry timestamp');
  const rekorBundle = {
    SignedEntryTimestamp: entry.inclusionPromise.signedEntryTimestamp,
    Payload: { body: entry.canonicalizedBody, integratedTime: Number(entry.integratedTime), logIndex: Number(entry.logIndex), logID: Buffer.from(entry.logId.keyId, 'base64').toString('hex') },
  };
  const payloadLayer = await client.putBlob(ref, payload);
  const { manifest, config } = signatureManifest([
    {
      mediaType: SIMPLE_SIGNING_MEDIA_TYPE,
      digest: payloadLayer,
      size: payload.length,
      annotations: {
        [SIGNATURE_ANNOTATION]: bundle.messageSignature!.signature,
        [COSIGN_CERTIFICATE_ANNOTATION]: pem(Buffer.from(leaf, 'base64')),
        [COSIGN_CHAIN_ANNOTATION]: pem(via.rootCertificate),
        [COSIGN_REKOR_BUNDLE_ANNOTATION]: JSON.stringify(rekorBundle),
      },
    },
  ]);
  await client.putBlob(ref, config);
  await client.putManifest(ref, manifest, signatureTag(digest));
}

