/**
 * Pulling one tool: resolve the reference, fetch and check the manifest, ask the trust layer, fetch
 * and check every layer, and hand back the files ready for `installTool`. Nothing is written to the
 * extensions folder here; the blob cache is filled with what was verified.
 *
 * `oci://` references: the manifest digest is what the trust layer verifies and what the lock
 * records; layers are fetched only after the signature check passed. `https://` references: the
 * download must hash to the digest the user gave (there is nothing to sign; `--digest` pins it).
 */
import { createHash } from 'node:crypto';
import { OciError, type FetchedManifest, type OciReference, type RegistryClient } from './registry-types.ts';
import { fetchToolFiles, layoutOf, MAX_COMPONENT_BYTES, type ToolFiles } from './oci/artifact.ts';
import { parseManifest, readCapped, sha256Digest } from './oci/client.ts';
import { formatOciReference, repositoryLeaf } from './oci/reference.ts';
import type { BlobCache } from './blob-cache.ts';
import { policyOf } from './policy-diff.ts';
import { verifyArtifact, type VerifyOptions } from './trust-port.ts';

/** Why a pull was refused: an `OciError` code, a trust code, or `bad_policy`. */
export class PullRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PullRefused';
  }
}

export interface PulledTool {
  /** The reference to record (tag kept; `oci://…` or the https URL). */
  reference: string;
  /** The manifest digest (oci) or the component's digest (https). */
  digest: string;
  files: ToolFiles;
  signer: string | null;
  verifiedAt: string;
  /** The trust layer's warning when installed unverified. */
  warning?: string;
  /** The file name the tool installs as by default (the repository's last component, or the URL's file stem). */
  defaultName: string;
}

export interface PullContext {
  client: RegistryClient;
  cache?: BlobCache;
  verify: VerifyOptions;
}

/** The manifest of `ref`, from the cache when `ref` is pinned and cached, else the registry (then cached). */
export async function manifestOf(ref: OciReference, context: Pick<PullContext, 'client' | 'cache'>): Promise<FetchedManifest> {
  if (ref.digest !== undefined) {
    const cached = context.cache?.get(ref.digest);
    if (cached !== undefined) return { digest: ref.digest, bytes: cached, manifest: parseManifest(cached, formatOciReference(ref)) };
  }
  const fetched = await context.client.getManifest(ref);
  context.cache?.put(fetched.digest, fetched.bytes);
  return fetched;
}

/** Pulls and verifies an OCI tool. @throws PullRefused */
export async function pullOciTool(ref: OciReference, context: PullContext, options: { skipSignature?: boolean } = {}): Promise<PulledTool> {
  const shown = formatOciReference(ref);
  try {
    const fetched = await manifestOf(ref, context);
    const layout = layoutOf(fetched, shown);
    const pinned: OciReference = { ...ref, digest: fetched.digest };
    let signer: string | null = null;
    let verifiedAt = new Date().toISOString();
    let warning: string | undefined;
    if (options.skipSignature !== true) {
      const outcome = await verifyArtifact(context.client, pinned, fetched.digest, context.verify);
      if (!outcome.ok) throw new PullRefused(outcome.code, outcome.message);
      signer = outcome.signer ?? null;
      verifiedAt = outcome.verifiedAt;
      warning = outcome.warning;
    }
    const files = await fetchToolFiles(context.client, pinned, layout, context.cache);
    checkPolicyLayer(files, shown);
    return { reference: shown, digest: fetched.digest, files, signer, verifiedAt, ...(warning === undefined ? {} : { warning }), defaultName: toolFileName(repositoryLeaf(ref)) };
  } catch (error) {
    if (error instanceof OciError) throw new PullRefused(error.code, error.message);
    throw error;
  }
}

/** The shipped policy must be a valid policy: a tool never installs with one the host would refuse. */
function checkPolicyLayer(files: ToolFiles, shown: string): void {
  try {
    policyOf(files.sidecars.policy, `the policy layer of ${shown}`);
  } catch (error) {
    throw new PullRefused('bad_policy', (error as Error).message);
  }
}

/** Downloads an https component and checks it against `digest`. @throws PullRefused */
export async function pullHttpsTool(url: URL, digest: string, context: { cache?: BlobCache; fetch?: typeof fetch }): Promise<PulledTool> {
  const cached = context.cache?.get(digest);
  let bytes: Uint8Array;
  if (cached !== undefined) bytes = cached;
  else {
    bytes = await download(url, context.fetch ?? fetch);
    const actual = sha256Digest(bytes);
    if (actual !== digest) throw new PullRefused('digest_mismatch', `${url.href} hashes to ${actual}, not the ${digest} given`);
    context.cache?.put(digest, bytes);
  }
  const leaf = decodeURIComponent(url.pathname.split('/').pop() ?? '').replace(/\.wasm$/, '');
  return {
    reference: url.href,
    digest,
    files: { wasm: bytes, sidecars: {} },
    signer: null,
    verifiedAt: new Date().toISOString(),
    defaultName: toolFileName(leaf === '' ? 'tool' : leaf),
  };
}

/** GET over https only (redirects too), capped. */
async function download(url: URL, fetchImpl: typeof fetch): Promise<Uint8Array> {
  let current = url;
  for (let hop = 0; hop <= 5; hop++) {
    if (current.protocol !== 'https:') throw new PullRefused('redirect_refused', `${url.href} led to ${current.protocol}//${current.host}: only https is followed`);
    let response: Response;
    try {
      response = await fetchImpl(current, { redirect: 'manual', signal: AbortSignal.timeout(120_000) });
    } catch (error) {
      throw new PullRefused('network', `cannot download ${current.href}: ${((error as { cause?: Error }).cause ?? (error as Error)).message}`);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      current = new URL(response.headers.get('location')!, current);
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new PullRefused(response.status === 404 ? 'not_found' : 'registry_error', `${current.href} answered ${response.status}`);
    }
    try {
      return await readCapped(response, MAX_COMPONENT_BYTES, current.href);
    } catch (error) {
      if (error instanceof OciError) throw new PullRefused(error.code, error.message);
      throw error;
    }
  }
  throw new PullRefused('redirect_refused', `${url.href} redirected more than 5 times`);
}

/** A repository leaf or URL stem as a tool file name (`[A-Za-z0-9_-]`, at most 64). */
export function toolFileName(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return cleaned === '' ? 'tool' : cleaned;
}

/** sha256 of optional bytes (the lock's policy_digest). */
export function digestOrNull(bytes: Uint8Array | undefined): string | null {
  return bytes === undefined ? null : `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
