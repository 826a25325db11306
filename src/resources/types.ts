/**
 * Resource sources: what the MCP server's `resources/*` and `completion/complete` methods are made of.
 *
 * A source owns a set of URIs (`handles`): it lists the resources it wants clients to browse (paginated
 * by an opaque cursor of its own), declares URI templates, reads one URI, and may watch one URI for
 * changes and report when its list changes. The daemon always has the workspace source (`file:///…`,
 * workspace-source.ts); an embedder adds more through `resourceSources` (StartServerOptions,
 * ServeMcpStdioOptions, ComposeOptions), e.g. the conformance run's `test://…` fixture. Sources refuse
 * with a `ResourceError` (errors as data: the MCP layer maps each code to a JSON-RPC error).
 */
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

/** One item of a `resources/read` answer: text, or binary as base64. */
export type ResourceContents =
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: string };

export interface ResourcePage {
  resources: Resource[];
  /** Set when there is more: pass it back as `cursor` to get the next page. */
  nextCursor?: string;
}

export type ResourceErrorCode =
  /** The URI is not one this host serves, or is malformed. */
  | 'INVALID_URI'
  /** Nothing exists at the URI (or it was removed). */
  | 'NOT_FOUND'
  /** The URI leads outside the workspace, through a refused link, or to a special file (device, FIFO). */
  | 'REFUSED'
  /** The resource is over the size cap. */
  | 'TOO_LARGE'
  /** The host's permission mode does not allow reading the workspace. */
  | 'DENIED'
  /** A cursor this host did not hand out. */
  | 'INVALID_CURSOR'
  /** Too many subscriptions. */
  | 'LIMIT';

/** A refusal of a resource operation, worded for the client. */
export class ResourceError extends Error {
  readonly code: ResourceErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ResourceErrorCode, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'ResourceError';
    this.code = code;
    this.data = data;
  }
}

export interface CompletionAnswer {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export interface ResourceSource {
  /** Short name for logs. */
  readonly name: string;
  /** True when `uri` belongs to this source (by its scheme or prefix; nothing is read). */
  handles(uri: string): boolean;
  /** One page of the resources to show; `cursor` is one this source returned before. */
  list(cursor: string | undefined, signal?: AbortSignal): Promise<ResourcePage>;
  /** The URI templates this source reads. */
  templates(): ResourceTemplate[];
  read(uri: string, signal?: AbortSignal): Promise<ResourceContents[]>;
  /**
   * Watches `uri` (a resource this source can read) and calls `onUpdated` when it changes or is
   * removed; resolves, once the watch is in place, with the function that ends it.
   */
  watch?(uri: string, onUpdated: () => void): Promise<() => void>;
  /**
   * Calls `listener` when resources appear or disappear; returns the function that ends it. A source
   * may start watching only now (the first listener) and stop when the last one leaves; the promise
   * settles once changes are being seen.
   */
  onListChanged?(listener: () => void): { ready: Promise<void>; stop: () => void };
  /** Completion values for `argument` of the template `templateUri` (a template of this source). */
  complete?(templateUri: string, argument: string, value: string, signal?: AbortSignal): Promise<CompletionAnswer>;
  close?(): Promise<void>;
}
