/**
 * The resource sources of one MCP edge, as one: `resources/list` pages through the sources in order
 * (each page from one source; the cursor, opaque to clients, names the source and that source's own
 * cursor), templates are the sources' together, and a URI is read, watched or completed by the first
 * source that `handles` it. No source for a URI is an `INVALID_URI` refusal.
 */
import type { ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ResourceError, type CompletionAnswer, type ResourceContents, type ResourcePage, type ResourceSource } from './types.ts';

/** Longest cursor accepted back from a client. */
const MAX_CURSOR_CHARS = 16 * 1024;

function encodeCursor(source: number, inner: string | undefined): string {
  return Buffer.from(JSON.stringify(inner === undefined ? [source] : [source, inner]), 'utf8').toString('base64url');
}

function invalidCursor(): ResourceError {
  return new ResourceError('INVALID_CURSOR', 'The cursor is not one this server handed out; list again from the start.');
}

export class ResourceCatalog {
  private readonly sources: readonly ResourceSource[];

  constructor(sources: readonly ResourceSource[]) {
    this.sources = sources;
  }

  async list(cursor: string | undefined, signal?: AbortSignal): Promise<ResourcePage> {
    const [index, inner] = cursor === undefined ? [0, undefined] : this.decodeCursor(cursor);
    const source = this.sources[index];
    if (source === undefined) return { resources: [] };
    const page = await source.list(inner, signal);
    if (page.nextCursor !== undefined) return { resources: page.resources, nextCursor: encodeCursor(index, page.nextCursor) };
    return index + 1 < this.sources.length ? { resources: page.resources, nextCursor: encodeCursor(index + 1, undefined) } : { resources: page.resources };
  }

  templates(): ResourceTemplate[] {
    return this.sources.flatMap((source) => source.templates());
  }

  read(uri: string, signal?: AbortSignal): Promise<ResourceContents[]> {
    return this.sourceFor(uri).read(uri, signal);
  }

  /** Watches `uri`; resolves with the function that ends the watch. */
  watch(uri: string, onUpdated: () => void): Promise<() => void> {
    const source = this.sourceFor(uri);
    if (source.watch === undefined) return Promise.reject(new ResourceError('INVALID_URI', `${uri} cannot be watched.`));
    return source.watch(uri, onUpdated);
  }

  /** Calls `listener` when any source's list changes; `ready` once every source sees changes. */
  onListChanged(listener: () => void): { ready: Promise<void>; stop: () => void } {
    const watches = this.sources.flatMap((source) => (source.onListChanged ? [source.onListChanged(listener)] : []));
    return {
      ready: Promise.all(watches.map((watch) => watch.ready)).then(() => undefined),
      stop: () => {
        for (const watch of watches) watch.stop();
      },
    };
  }

  /** Completion of `argument` of the template `templateUri`; no values for a template no source declares. */
  async complete(templateUri: string, argument: string, value: string, signal?: AbortSignal): Promise<CompletionAnswer> {
    for (const source of this.sources) {
      if (source.complete === undefined || !source.templates().some((template) => template.uriTemplate === templateUri)) continue;
      return source.complete(templateUri, argument, value, signal);
    }
    return { values: [] };
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sources.map((source) => source.close?.()));
  }

  private sourceFor(uri: string): ResourceSource {
    const source = this.sources.find((candidate) => candidate.handles(uri));
    if (source === undefined) throw new ResourceError('INVALID_URI', `No resource source serves "${uri.length > 200 ? `${uri.slice(0, 200)}…` : uri}".`);
    return source;
  }

  private decodeCursor(cursor: string): [number, string | undefined] {
    if (cursor.length > MAX_CURSOR_CHARS) throw invalidCursor();
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    if (!Array.isArray(decoded) || decoded.length < 1 || decoded.length > 2) throw invalidCursor();
    const [index, inner] = decoded as unknown[];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= this.sources.length) throw invalidCursor();
    if (inner !== undefined && typeof inner !== 'string') throw invalidCursor();
    return [index, inner];
  }
}
