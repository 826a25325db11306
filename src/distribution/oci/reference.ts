/**
 * Tool references as a user writes them, parsed once:
 * - `oci://registry[:port]/repository[:tag][@sha256:<64 hex>]` (the `oci://` prefix may be left out);
 *   a reference without tag or digest means `:latest`, as Docker and oras read it;
 * - `https://host/path/tool.wasm`: a plain download, which must be pinned by a digest.
 *
 * Repository names follow the OCI distribution grammar (lower-case path components joined by `/`),
 * tags `[A-Za-z0-9_][A-Za-z0-9._-]{0,127}`; anything else is a `ReferenceError` naming the part that
 * is wrong. Parsing is linear (fixed anchored patterns on a length-capped string).
 */
import type { OciReference } from '../registry-types.ts';

/** Longest reference accepted (the distribution spec caps a repository name at 255 characters). */
export const MAX_REFERENCE_LENGTH = 1024;

const DIGEST = /^sha256:[a-f0-9]{64}$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const REGISTRY = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

export class ReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceError';
  }
}

/** A reference of either kind. */
export type ToolReference = { kind: 'oci'; oci: OciReference } | { kind: 'https'; url: URL };

export function isDigest(value: string): boolean {
  return DIGEST.test(value);
}

/** Parses `oci://…` or `https://…`; throws ReferenceError. */
export function parseToolReference(text: string): ToolReference {
  if (text.length > MAX_REFERENCE_LENGTH) throw new ReferenceError(`reference is longer than ${MAX_REFERENCE_LENGTH} characters`);
  if (/^https:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ReferenceError(`${text}: not a valid URL`);
    }
    if (url.username !== '' || url.password !== '') throw new ReferenceError('credentials in a URL are refused: they would end up in the lockfile');
    return { kind: 'https', url };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !/^oci:\/\//i.test(text)) {
    throw new ReferenceError(`${text}: expected oci://registry/repository[:tag][@sha256:…] or https://…/tool.wasm`);
  }
  return { kind: 'oci', oci: parseOciReference(text) };
}

/** Parses an OCI reference (with or without `oci://`); throws ReferenceError. */
export function parseOciReference(text: string): OciReference {
  if (text.length > MAX_REFERENCE_LENGTH) throw new ReferenceError(`reference is longer than ${MAX_REFERENCE_LENGTH} characters`);
  let rest = text.replace(/^oci:\/\//i, '');
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw new ReferenceError(`${text}: the digest must be sha256:<64 lower-case hex digits>`);
  }
  const slash = rest.indexOf('/');
  if (slash <= 0) throw new ReferenceError(`${text}: expected registry/repository (e.g. oci://127.0.0.1:5000/tools/greet:1.0)`);
  const registry = rest.slice(0, slash);
  if (!REGISTRY.test(registry)) throw new ReferenceError(`${text}: "${registry}" is not a registry host[:port]`);
  let path = rest.slice(slash + 1);
  let tag: string | undefined;
  const lastSlash = path.lastIndexOf('/');
  const colon = path.indexOf(':', lastSlash + 1);
  if (colon !== -1) {
    tag = path.slice(colon + 1);
    path = path.slice(0, colon);
    if (!TAG.test(tag)) throw new ReferenceError(`${text}: "${tag}" is not a valid tag`);
  }
  if (path.length === 0 || path.length > 255 || !path.split('/').every((component) => PATH_COMPONENT.test(component))) {
    throw new ReferenceError(`${text}: "${path}" is not a repository name (lower-case letters, digits and . _ - separators, components joined by /)`);
  }
  if (tag === undefined && digest === undefined) tag = 'latest';
  return { registry, repository: path, ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) };
}

/** `oci://registry/repository[:tag][@digest]`. */
export function formatOciReference(ref: OciReference): string {
  return `oci://${ref.registry}/${ref.repository}${ref.tag === undefined ? '' : `:${ref.tag}`}${ref.digest === undefined ? '' : `@${ref.digest}`}`;
}

/** The registry's host without the port (brackets kept off IPv6). */
export function registryHostname(registry: string): string {
  if (registry.startsWith('[')) return registry.slice(1, registry.indexOf(']'));
  const colon = registry.lastIndexOf(':');
  return colon === -1 ? registry : registry.slice(0, colon);
}

/**
 * Loopback registries may be reached over plain HTTP without a flag, as Docker and oras do:
 * `localhost`, `127.0.0.0/8` and `::1`.
 */
export function isLoopbackRegistry(registry: string): boolean {
  const host = registryHostname(registry).toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The last component of the repository: the default file name of a pulled tool. */
export function repositoryLeaf(ref: OciReference): string {
  const parts = ref.repository.split('/');
  return parts[parts.length - 1] ?? ref.repository;
}
