/**
 * The OCI distribution client (`RegistryClient`, src/distribution/registry-types.ts) over fetch.
 *
 * What it guarantees:
 * - every manifest and blob it returns matches its digest (the one asked for, and the one the
 *   registry announced in `Docker-Content-Digest`): a registry that lies is `digest_mismatch`;
 * - bodies are read against a cap (`maxManifestBytes`, `maxBlobBytes`, or the call's `maxBytes`)
 *   and refused at the first byte past it (`too_large`), before when Content-Length says so;
 * - plain HTTP only for loopback registries (`localhost`, 127/8, ::1) or with `plainHttp`;
 * - redirects: followed within the registry's own origin; a blob (content-addressed, verified)
 *   may also move to another host over https, without credentials; anything else is
 *   `redirect_refused`;
 * - auth: on a 401 it answers the registry's challenge (Basic, or a Bearer token from the realm)
 *   with the credential source's entry; credentials never appear in errors.
 */
import { createHash } from 'node:crypto';
import { OciError, type FetchedManifest, type OciDescriptor, type OciManifest, type OciReference, type RegistryClient } from '../registry-types.ts';
import type { CredentialSource, RegistryCredential } from './credentials.ts';
import { isDigest, isLoopbackRegistry } from './reference.ts';

export const OCI_MANIFEST_MEDIA_TYPE = 'application/vnd.oci.image.manifest.v1+json';
export const DOCKER_MANIFEST_MEDIA_TYPE = 'application/vnd.docker.distribution.manifest.v2+json';
export const OCI_INDEX_MEDIA_TYPE = 'application/vnd.oci.image.index.v1+json';
/** The OCI image spec's recommended manifest limit. */
export const DEFAULT_MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** The largest blob pulled unless a call says otherwise. */
export const DEFAULT_MAX_BLOB_BYTES = 256 * 1024 * 1024;
/** Layers a tool artifact may have (the component, its sidecars, room to spare). */
export const MAX_MANIFEST_LAYERS = 64;
const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY_BYTES = 16 * 1024;
const MAX_TOKEN_BYTES = 256 * 1024;

export interface RegistryClientOptions {
  /** Allow plain HTTP to registries that are not on loopback (`--plain-http`). */
  plainHttp?: boolean;
  credentials?: CredentialSource;
  maxManifestBytes?: number;
  maxBlobBytes?: number;
  /** Per-request time budget (default 60 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

type RequestKind = 'manifest' | 'blob' | 'upload' | 'api';

interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  kind: RequestKind;
  /** The pull or push scope for a Bearer token. */
  scope: string;
}

export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  return new HttpRegistryClient(options);
}

class HttpRegistryClient implements RegistryClient {
  private readonly fetchImpl: typeof fetch;
  private readonly tokens = new Map<string, string>();
  private readonly basic = new Set<string>();

  constructor(private readonly options: RegistryClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  async getManifest(ref: OciReference, options: { maxBytes?: number } = {}): Promise<FetchedManifest> {
    const reference = ref.digest ?? ref.tag ?? 'latest';
    const response = await this.request(ref, `/manifests/${reference}`, {
      kind: 'manifest',
      scope: pullScope(ref),
      headers: { accept: [OCI_MANIFEST_MEDIA_TYPE, DOCKER_MANIFEST_MEDIA_TYPE].join(', ') },
    });
    await expectStatus(response, [200], `manifest ${describe(ref)}`);
    const bytes = await readCapped(response, options.maxBytes ?? this.options.maxManifestBytes ?? DEFAULT_MAX_MANIFEST_BYTES, `manifest of ${describe(ref)}`);
    const digest = sha256Digest(bytes);
    if (ref.digest !== undefined && digest !== ref.digest) {
      throw new OciError('digest_mismatch', `the registry sent a manifest for ${describe(ref)} whose digest is ${digest}, not the ${ref.digest} asked for`);
    }
    const announced = response.headers.get('docker-content-digest');
    if (announced !== null && announced !== digest) {
      throw new OciError('digest_mismatch', `the registry announced ${announced.slice(0, 80)} for ${describe(ref)} but the manifest it sent hashes to ${digest}`);
    }
    return { digest, bytes, manifest: parseManifest(bytes, describe(ref)) };
  }

  async getBlob(ref: OciReference, digest: string, options: { maxBytes?: number } = {}): Promise<Uint8Array> {
    if (!isDigest(digest)) throw new OciError('bad_manifest', `not a sha256 digest: ${digest.slice(0, 80)}`);
    const response = await this.request(ref, `/blobs/${digest}`, { kind: 'blob', scope: pullScope(ref) });
    await expectStatus(response, [200], `blob ${digest} of ${ref.registry}/${ref.repository}`);
    const bytes = await readCapped(response, options.maxBytes ?? this.options.maxBlobBytes ?? DEFAULT_MAX_BLOB_BYTES, `blob ${digest}`);
    const actual = sha256Digest(bytes);
    if (actual !== digest) throw new OciError('digest_mismatch', `the registry sent blob ${digest} of ${ref.registry}/${ref.repository} but its bytes hash to ${actual}`);
    return bytes;
  }

  async putBlob(ref: OciReference, bytes: Uint8Array): Promise<string> {
    const digest = sha256Digest(bytes);
    const scope = pushScope(ref);
    const head = await this.request(ref, `/blobs/${digest}`, { kind: 'api', method: 'HEAD', scope });
    await head.body?.cancel();
    if (head.status === 200) return digest;
    const started = await this.request(ref, '/blobs/uploads/', { kind: 'upload', method: 'POST', scope, headers: { 'content-length': '0' } });
    await expectStatus(started, [202], `starting a blob upload to ${ref.registry}/${ref.repository}`);
    await started.body?.cancel();
    const location = started.headers.get('location');
    if (location === null) throw new OciError('registry_error', `${ref.registry} started an upload without a Location`);
    const uploadUrl = new URL(location, this.baseUrl(ref));
    if (uploadUrl.origin !== new URL(this.baseUrl(ref)).origin) {
      throw new OciError('redirect_refused', `${ref.registry} sent the upload to another host (${uploadUrl.host}): refused`);
    }
    uploadUrl.searchParams.set('digest', digest);
    const put = await this.request(ref, uploadUrl, {
      kind: 'upload',
      method: 'PUT',
      scope,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    });
    await expectStatus(put, [201], `uploading blob ${digest} to ${ref.registry}/${ref.repository}`);
    await put.body?.cancel();
    return digest;
  }

  async putManifest(ref: OciReference, manifest: OciManifest, tag?: string): Promise<string> {
    const bytes = new TextEncoder().encode(JSON.stringify(manifest));
    const digest = sha256Digest(bytes);
    const response = await this.request(ref, `/manifests/${tag ?? digest}`, {
      kind: 'api',
      method: 'PUT',
      scope: pushScope(ref),
      body: bytes,
      headers: { 'content-type': manifest.mediaType },
    });
    await expectStatus(response, [200, 201], `pushing the manifest to ${ref.registry}/${ref.repository}`);
    await response.body?.cancel();
    const announced = response.headers.get('docker-content-digest');
    if (announced !== null && announced !== digest) {
      throw new OciError('digest_mismatch', `${ref.registry} stored the manifest as ${announced.slice(0, 80)}, not ${digest}`);
    }
    return digest;
  }

  async referrers(ref: OciReference, digest: string, artifactType?: string): Promise<OciDescriptor[]> {
    if (!isDigest(digest)) throw new OciError('bad_manifest', `not a sha256 digest: ${digest.slice(0, 80)}`);
    const query = artifactType === undefined ? '' : `?artifactType=${encodeURIComponent(artifactType)}`;
    const response = await this.request(ref, `/referrers/${digest}${query}`, { kind: 'api', scope: pullScope(ref), headers: { accept: OCI_INDEX_MEDIA_TYPE } });
    if (response.status === 404 || response.status === 405) {
      await response.body?.cancel();
      return [];
    }
    await expectStatus(response, [200], `referrers of ${digest}`);
    const bytes = await readCapped(response, this.options.maxManifestBytes ?? DEFAULT_MAX_MANIFEST_BYTES, `referrers of ${digest}`);
    let index: unknown;
    try {
      index = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new OciError('bad_manifest', `the referrers of ${digest} are not JSON`);
    }
    const manifests = (index as { manifests?: unknown }).manifests;
    if (!Array.isArray(manifests)) return [];
    const descriptors = manifests.map((entry, position) => parseDescriptor(entry, `referrers[${position}]`));
    return artifactType === undefined ? descriptors : descriptors.filter((descriptor) => descriptor.artifactType === artifactType);
  }

  private baseUrl(ref: OciReference): string {
    const plain = isLoopbackRegistry(ref.registry) || this.options.plainHttp === true;
    return `${plain ? 'http' : 'https'}://${ref.registry}`;
  }

  /** One request with the redirect and auth rules of the module header. */
  private async request(ref: OciReference, pathOrUrl: string | URL, request: RequestOptions): Promise<Response> {
    const base = this.baseUrl(ref);
    const origin = new URL(base).origin;
    let url = typeof pathOrUrl === 'string' ? new URL(`/v2/${ref.repository}${pathOrUrl}`, base) : pathOrUrl;
    let authorized = true;
    let retriedAuth = false;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { ...(request.headers ?? {}) };
      const sameOrigin = url.origin === origin;
      if (sameOrigin && authorized) {
        const authorization = this.authorizationFor(ref.registry, request.scope);
        if (authorization !== undefined) headers['authorization'] = authorization;
      }
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: request.method ?? 'GET',
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
          ...(request.body === undefined ? {} : { body: request.body }),
        });
      } catch (error) {
        throw new OciError('network', `cannot reach ${url.host}: ${causeOf(error)}`);
      }
      if (response.status === 401 && sameOrigin && !retriedAuth) {
        retriedAuth = true;
        const challenge = response.headers.get('www-authenticate');
        await response.body?.cancel();
        if (challenge !== null && (await this.answerChallenge(ref, challenge, request.scope))) continue;
        throw new OciError('unauthorized', `${ref.registry} asks for credentials for ${ref.repository} and none were accepted (log in with \`docker login\` or \`oras login\`)`);
      }
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new OciError('redirect_refused', `${ref.registry} redirected more than ${MAX_REDIRECTS} times`);
        const next = new URL(response.headers.get('location')!, url);
        if (next.origin !== origin) {
          if (request.kind !== 'blob' || next.protocol !== 'https:') {
            throw new OciError('redirect_refused', `${ref.registry} redirected ${request.kind === 'blob' ? 'a blob download' : `a ${request.kind} request`} to another host (${next.protocol}//${next.host}): refused`);
          }
          authorized = false;
        }
        if (request.method !== undefined && request.method !== 'GET' && request.method !== 'HEAD') {
          throw new OciError('redirect_refused', `${ref.registry} redirected a ${request.method}: refused`);
        }
        url = next;
        continue;
      }
      return response;
    }
  }

  private authorizationFor(registry: string, scope: string): string | undefined {
    const token = this.tokens.get(`${registry} ${scope}`);
    if (token !== undefined) return `Bearer ${token}`;
    if (this.basic.has(registry)) {
      const credential = this.options.credentials?.(registry);
      if (credential?.kind === 'basic') return `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
    }
    return undefined;
  }

  /** Answers a 401 challenge; true when a retry may succeed. */
  private async answerChallenge(ref: OciReference, challenge: string, scope: string): Promise<boolean> {
    const parsed = parseChallenge(challenge);
    const credential = this.options.credentials?.(ref.registry);
    if (parsed.scheme === 'basic') {
      if (credential?.kind !== 'basic' || this.basic.has(ref.registry)) return false;
      this.basic.add(ref.registry);
      return true;
    }
    if (parsed.scheme !== 'bearer' || parsed.params['realm'] === undefined) return false;
    let realm: URL;
    try {
      realm = new URL(parsed.params['realm']);
    } catch {
      return false;
    }
    const realmPlainOk = isLoopbackRegistry(realm.host) || this.options.plainHttp === true;
    if (realm.protocol !== 'https:' && !(realm.protocol === 'http:' && realmPlainOk)) {
      throw new OciError('unauthorized', `${ref.registry} sent its token service to ${realm.protocol}//${realm.host}: refused (credentials go over https only)`);
    }
    if (parsed.params['service'] !== undefined) realm.searchParams.set('service', parsed.params['service']);
    realm.searchParams.set('scope', parsed.params['scope'] ?? scope);
    const headers: Record<string, string> = {};
    let method = 'GET';
    let body: string | undefined;
    if (credential?.kind === 'basic') headers['authorization'] = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
    if (credential?.kind === 'identity-token') {
      method = 'POST';
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: credential.token, service: parsed.params['service'] ?? '', scope: parsed.params['scope'] ?? scope, client_id: 'toolhost' }).toString();
    }
    let response: Response;
    try {
      response = await this.fetchImpl(method === 'POST' ? new URL(realm.origin + realm.pathname) : realm, {
        method,
        headers,
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      throw new OciError('network', `cannot reach the token service ${realm.host}: ${causeOf(error)}`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return false;
    }
    const bytes = await readCapped(response, MAX_TOKEN_BYTES, 'token');
    try {
      const value = JSON.parse(new TextDecoder().decode(bytes)) as { token?: unknown; access_token?: unknown };
      const token = typeof value.token === 'string' ? value.token : typeof value.access_token === 'string' ? value.access_token : undefined;
      if (token === undefined || token === '') return false;
      this.tokens.set(`${ref.registry} ${scope}`, token);
      return true;
    } catch {
      return false;
    }
  }
}

/** `Bearer realm="…",service="…",scope="…"` → scheme and params (quoted strings, capped length). */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const text = header.slice(0, 4096);
  const space = text.indexOf(' ');
  const scheme = (space === -1 ? text : text.slice(0, space)).toLowerCase();
  const params: Record<string, string> = {};
  const pattern = /([A-Za-z]+)="([^"]*)"/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) params[match[1]!.toLowerCase()] = match[2]!;
  return { scheme, params };
}

function pullScope(ref: OciReference): string {
  return `repository:${ref.repository}:pull`;
}

function pushScope(ref: OciReference): string {
  return `repository:${ref.repository}:pull,push`;
}

function describe(ref: OciReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag === undefined ? '' : `:${ref.tag}`}${ref.digest === undefined ? '' : `@${ref.digest}`}`;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const text = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return text.slice(0, 200);
}

/** Reads a body, refusing it past `maxBytes` (by Content-Length first, then as it streams). */
export async function readCapped(response: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new OciError('too_large', `${what} is ${declared} bytes, more than the ${maxBytes} allowed`);
  }
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new OciError('too_large', `${what} is more than the ${maxBytes} bytes allowed`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

async function expectStatus(response: Response, expected: number[], what: string): Promise<void> {
  if (expected.includes(response.status)) return;
  let detail = '';
  try {
    const bytes = await readCapped(response, MAX_ERROR_BODY_BYTES, 'error body');
    const value = JSON.parse(new TextDecoder().decode(bytes)) as { errors?: { code?: unknown; message?: unknown }[] };
    const first = value.errors?.[0];
    if (first !== undefined) detail = `: ${String(first.code ?? '').slice(0, 64)} ${String(first.message ?? '').slice(0, 200)}`.trimEnd();
  } catch {
    await response.body?.cancel().catch(() => undefined);
  }
  if (response.status === 404) throw new OciError('not_found', `${what}: not found${detail}`);
  if (response.status === 401 || response.status === 403) throw new OciError('unauthorized', `${what}: access denied (${response.status})${detail}`);
  throw new OciError('registry_error', `${what}: the registry answered ${response.status}${detail}`);
}

function parseDescriptor(value: unknown, where: string): OciDescriptor {
  if (typeof value !== 'object' || value === null) throw new OciError('bad_manifest', `${where} is not a descriptor`);
  const entry = value as Record<string, unknown>;
  if (typeof entry['mediaType'] !== 'string' || entry['mediaType'].length > 255) throw new OciError('bad_manifest', `${where}.mediaType is missing`);
  if (typeof entry['digest'] !== 'string' || !isDigest(entry['digest'])) throw new OciError('bad_manifest', `${where}.digest is not a sha256 digest`);
  if (typeof entry['size'] !== 'number' || !Number.isSafeInteger(entry['size']) || entry['size'] < 0) throw new OciError('bad_manifest', `${where}.size is not a size`);
  const descriptor: OciDescriptor = { mediaType: entry['mediaType'], digest: entry['digest'], size: entry['size'] };
  const annotations = entry['annotations'];
  if (annotations !== undefined) {
    if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) throw new OciError('bad_manifest', `${where}.annotations is not an object`);
    descriptor.annotations = Object.fromEntries(Object.entries(annotations).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
  }
  if (typeof entry['artifactType'] === 'string') descriptor.artifactType = entry['artifactType'];
  return descriptor;
}

/** Parses and checks an image manifest's shape. */
export function parseManifest(bytes: Uint8Array, what: string): OciManifest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new OciError('bad_manifest', `the manifest of ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null) throw new OciError('bad_manifest', `the manifest of ${what} is not an object`);
  const entry = value as Record<string, unknown>;
  if (entry['schemaVersion'] !== 2) throw new OciError('bad_manifest', `the manifest of ${what} is not schemaVersion 2`);
  const mediaType = typeof entry['mediaType'] === 'string' ? entry['mediaType'] : OCI_MANIFEST_MEDIA_TYPE;
  if (mediaType === OCI_INDEX_MEDIA_TYPE || Array.isArray(entry['manifests'])) {
    throw new OciError('bad_manifest', `${what} is an image index, not a tool artifact (push a single wasm artifact)`);
  }
  if (!Array.isArray(entry['layers'])) throw new OciError('bad_manifest', `the manifest of ${what} has no layers`);
  if (entry['layers'].length > MAX_MANIFEST_LAYERS) throw new OciError('bad_manifest', `the manifest of ${what} has ${entry['layers'].length} layers, more than ${MAX_MANIFEST_LAYERS}`);
  const manifest: OciManifest = {
    schemaVersion: 2,
    mediaType,
    config: parseDescriptor(entry['config'], 'config'),
    layers: entry['layers'].map((layer, position) => parseDescriptor(layer, `layers[${position}]`)),
  };
  if (typeof entry['artifactType'] === 'string') manifest.artifactType = entry['artifactType'];
  if (entry['subject'] !== undefined) manifest.subject = parseDescriptor(entry['subject'], 'subject');
  if (typeof entry['annotations'] === 'object' && entry['annotations'] !== null) {
    manifest.annotations = Object.fromEntries(Object.entries(entry['annotations']).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
  }
  return manifest;
}

export type { RegistryCredential };
