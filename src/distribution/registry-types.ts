/**
 * The contract between the OCI registry client (src/distribution/oci/) and the trust layer
 * (src/distribution/trust/): what the trust layer may ask a registry, and what it answers.
 *
 * A reference is parsed once (`OciReference`); digests are `sha256:<64 hex>` strings and every byte a
 * client returns for a digest has been checked against it (a registry that lies is an `OciError`,
 * never data). Sizes are capped by the client (`maxBytes`), so a huge manifest or blob is an error,
 * not memory. Credentials never appear in errors or logs.
 */

/** `registry/repository[:tag][@sha256:…]`; `oci://` already removed. */
export interface OciReference {
  /** `host[:port]`, e.g. `127.0.0.1:5000`. */
  registry: string;
  /** e.g. `tools/greet`. */
  repository: string;
  tag?: string;
  digest?: string;
}

export interface OciDescriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  artifactType?: string;
}

export interface OciManifest {
  schemaVersion: 2;
  mediaType: string;
  artifactType?: string;
  config: OciDescriptor;
  layers: OciDescriptor[];
  subject?: OciDescriptor;
  annotations?: Record<string, string>;
}

/** A manifest as fetched: its exact bytes (what a digest and a signature cover) and its parse. */
export interface FetchedManifest {
  digest: string;
  bytes: Uint8Array;
  manifest: OciManifest;
}

export type OciErrorCode =
  | 'not_found'
  | 'unauthorized'
  | 'digest_mismatch'
  | 'too_large'
  | 'bad_manifest'
  | 'redirect_refused'
  | 'network'
  | 'registry_error';

export class OciError extends Error {
  constructor(
    readonly code: OciErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OciError';
  }
}

/** What the trust layer needs from a registry (the OCI client implements it). */
export interface RegistryClient {
  /** Resolves a tag or digest reference to its manifest; checks the digest when the reference names one. */
  getManifest(ref: OciReference, options?: { maxBytes?: number }): Promise<FetchedManifest>;
  /** A blob by digest, checked against the digest. */
  getBlob(ref: OciReference, digest: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /** Uploads a blob (no-op when present); returns its digest. */
  putBlob(ref: OciReference, bytes: Uint8Array): Promise<string>;
  /** Puts a manifest under `tag` (or by digest when tag is undefined); returns its digest. */
  putManifest(ref: OciReference, manifest: OciManifest, tag?: string): Promise<string>;
  /** The OCI 1.1 referrers of a digest (an empty list when the registry has none or no referrers API). */
  referrers(ref: OciReference, digest: string, artifactType?: string): Promise<OciDescriptor[]>;
}
