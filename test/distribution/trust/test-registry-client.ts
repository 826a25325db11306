/**
 * Two `RegistryClient`s for trust tests (the real one is the OCI helper's, src/distribution/oci/):
 * - `httpRegistryClient()`: a minimal fetch-based client for a plain-HTTP registry on loopback (the
 *   distribution API: manifests, blobs, monolithic uploads); it checks every digest it is given, and
 *   reads referrers from the API or, as on docker-registry 2.8 which has none, the `sha256-<hex>` tag index.
 * - `memoryRegistryClient()`: an in-memory registry with OCI 1.1 referrers (by `subject`), for the
 *   keyless tests and tests that play a lying registry.
 */
import { createHash } from 'node:crypto';
import { OciError, type FetchedManifest, type OciDescriptor, type OciManifest, type OciReference, type RegistryClient } from '../../../src/distribution/registry-types.ts';

const MANIFEST_ACCEPT = 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json';

export const digestOf = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const encode = (manifest: OciManifest): Uint8Array => new TextEncoder().encode(JSON.stringify(manifest));

function checkSize(bytes: Uint8Array, maxBytes: number | undefined): void {
  if (maxBytes !== undefined && bytes.length > maxBytes) throw new OciError('too_large', `${bytes.length} bytes exceed ${maxBytes}`);
}

export function httpRegistryClient(): RegistryClient {
  const base = (ref: OciReference): string => `http://${ref.registry}/v2/${ref.repository}`;
  async function request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, { ...init, redirect: 'manual' });
    if (response.status === 404) throw new OciError('not_found', `${url}: 404`);
    if (response.status >= 300) throw new OciError('registry_error', `${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
    return response;
  }
  return {
    async getManifest(ref, options) {
      const reference = ref.digest ?? ref.tag ?? 'latest';
      const response = await request(`${base(ref)}/manifests/${reference}`, { headers: { accept: MANIFEST_ACCEPT } });
      const bytes = new Uint8Array(await response.arrayBuffer());
      checkSize(bytes, options?.maxBytes);
      const digest = digestOf(bytes);
      if (ref.digest !== undefined && digest !== ref.digest) throw new OciError('digest_mismatch', `asked for ${ref.digest}, got ${digest}`);
      return { digest, bytes, manifest: JSON.parse(new TextDecoder().decode(bytes)) as OciManifest };
    },
    async getBlob(ref, digest, options) {
      const response = await request(`${base(ref)}/blobs/${digest}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      checkSize(bytes, options?.maxBytes);
      if (digestOf(bytes) !== digest) throw new OciError('digest_mismatch', `blob ${digest} has digest ${digestOf(bytes)}`);
      return bytes;
    },
    async putBlob(ref, bytes) {
      const digest = digestOf(bytes);
      const head = await fetch(`${base(ref)}/blobs/${digest}`, { method: 'HEAD' });
      if (head.ok) return digest;
      const start = await request(`${base(ref)}/blobs/uploads/`, { method: 'POST' });
      const location = new URL(start.headers.get('location') ?? '', `http://${ref.registry}`);
      location.searchParams.set('digest', digest);
      await request(location.toString(), { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
      return digest;
    },
    async putManifest(ref, manifest, tag) {
      const bytes = encode(manifest);
      const digest = digestOf(bytes);
      await request(`${base(ref)}/manifests/${tag ?? digest}`, { method: 'PUT', headers: { 'content-type': manifest.mediaType }, body: bytes });
      return digest;
    },
    /** The referrers API, else the OCI 1.1 fallback: the `sha256-<hex>` tag holding an index (what cosign writes on docker-registry 2.8). */
    async referrers(ref, digest) {
      const api = await fetch(`${base(ref)}/referrers/${digest}`, { headers: { accept: 'application/vnd.oci.image.index.v1+json' } });
      const response = api.ok ? api : await fetch(`${base(ref)}/manifests/${digest.replace(':', '-')}`, { headers: { accept: 'application/vnd.oci.image.index.v1+json' } });
      if (response.status === 404) return [];
      if (!response.ok) throw new OciError('registry_error', `referrers of ${digest}: ${response.status}`);
      const index = (await response.json()) as { manifests?: OciDescriptor[] };
      return index.manifests ?? [];
    },
  };
}

/** Writes the OCI 1.1 referrers fallback index for `subject` (the tag `sha256-<hex>`) listing `referrers`. */
export async function putReferrersIndex(ref: OciReference, subject: string, referrers: OciDescriptor[]): Promise<void> {
  const body = JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: referrers });
  const response = await fetch(`http://${ref.registry}/v2/${ref.repository}/manifests/${subject.replace(':', '-')}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.oci.image.index.v1+json' },
    body,
  });
  if (!response.ok) throw new Error(`PUT referrers index: ${response.status} ${await response.text()}`);
}

export interface MemoryRegistry extends RegistryClient {
  manifests: Map<string, Uint8Array>;
  tags: Map<string, string>;
  blobs: Map<string, Uint8Array>;
}

export function memoryRegistryClient(): MemoryRegistry {
  const manifests = new Map<string, Uint8Array>();
  const tags = new Map<string, string>();
  const blobs = new Map<string, Uint8Array>();
  const key = (ref: OciReference, reference: string): string => `${ref.registry}/${ref.repository}@${reference}`;
  return {
    manifests,
    tags,
    blobs,
    async getManifest(ref, options): Promise<FetchedManifest> {
      const digest = ref.digest ?? tags.get(key(ref, ref.tag ?? 'latest'));
      const bytes = digest === undefined ? undefined : manifests.get(key(ref, digest));
      if (bytes === undefined || digest === undefined) throw new OciError('not_found', `${ref.repository}: no manifest ${ref.digest ?? ref.tag}`);
      checkSize(bytes, options?.maxBytes);
      return { digest, bytes, manifest: JSON.parse(new TextDecoder().decode(bytes)) as OciManifest };
    },
    async getBlob(ref, digest, options) {
      const bytes = blobs.get(key(ref, digest));
      if (bytes === undefined) throw new OciError('not_found', `no blob ${digest}`);
      checkSize(bytes, options?.maxBytes);
      return bytes;
    },
    async putBlob(ref, bytes) {
      const digest = digestOf(bytes);
      blobs.set(key(ref, digest), bytes);
      return digest;
    },
    async putManifest(ref, manifest, tag) {
      const bytes = encode(manifest);
      const digest = digestOf(bytes);
      manifests.set(key(ref, digest), bytes);
      if (tag !== undefined) tags.set(key(ref, tag), digest);
      return digest;
    },
    async referrers(ref, digest, artifactType) {
      const found: OciDescriptor[] = [];
      const prefix = key(ref, '');
      for (const [name, bytes] of manifests) {
        if (!name.startsWith(prefix)) continue;
        const manifest = JSON.parse(new TextDecoder().decode(bytes)) as OciManifest;
        if (manifest.subject?.digest !== digest) continue;
        if (artifactType !== undefined && manifest.artifactType !== artifactType) continue;
        found.push({ mediaType: manifest.mediaType, digest: digestOf(bytes), size: bytes.length, ...(manifest.artifactType ? { artifactType: manifest.artifactType } : {}) });
      }
      return found;
    },
  };
}

/** Pushes a wasm tool artifact (component + `.policy.json` + `.tool.json` layers) and returns its manifest digest. */
export async function pushToolArtifact(client: RegistryClient, ref: OciReference, parts: { wasm: Uint8Array; policy: string; tool: string }, tag = 'v1'): Promise<string> {
  const config = new TextEncoder().encode(JSON.stringify({ architecture: 'wasm', os: 'wasip2' }));
  const layer = async (mediaType: string, bytes: Uint8Array, title: string): Promise<OciDescriptor> => ({
    mediaType,
    digest: await client.putBlob(ref, bytes),
    size: bytes.length,
    annotations: { 'org.opencontainers.image.title': title },
  });
  const manifest: OciManifest = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    artifactType: 'application/wasm',
    config: { mediaType: 'application/vnd.wasm.config.v0+json', digest: await client.putBlob(ref, config), size: config.length },
    layers: [
      await layer('application/wasm', parts.wasm, 'greet.wasm'),
      await layer('application/vnd.toolhost.policy.v1+json', new TextEncoder().encode(parts.policy), 'greet.policy.json'),
      await layer('application/vnd.toolhost.tool.v1+json', new TextEncoder().encode(parts.tool), 'greet.tool.json'),
    ],
  };
  return await client.putManifest(ref, manifest, tag);
}
