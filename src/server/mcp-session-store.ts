/**
 * Where a fleet keeps its MCP Streamable HTTP sessions (the interface; src/state/redis-mcp-sessions.ts
 * is the Redis implementation; without one, sessions live in the replica's memory as before).
 *
 * Design (see McpHttpHandler): a session's record is what the protocol makes a server remember between
 * requests, kept as the client's own requests that set it: the initialize params (protocol version,
 * client info, capabilities) and the latest `logging/setLevel` and `resources/subscribe|unsubscribe`.
 * A replica that gets a request for a session it does not hold rebuilds the session's Server and
 * transport by replaying those requests through them, so the rebuilt session is exactly what the
 * SDK makes of them (no private SDK state is touched). Changes are announced fleet-wide so every
 * replica holding the session in memory replays them too; client messages that answer or cancel
 * something a server started (elicitation results, `notifications/cancelled`) are forwarded to all
 * holders (the one that started it takes it). DELETE ends the session on every replica.
 *
 * The MCP 2026 revision drops protocol sessions (each request carries what initialize carried): this
 * interface, its Redis implementation and the replay/forwarding in McpHttpHandler are then deleted.
 */

/** A client request that sets session state, as replayed into a rebuilt session. */
export interface McpSessionRequest {
  method: string;
  params?: Record<string, unknown>;
}

export interface McpSessionRecord {
  /** The initialize request's params (protocolVersion, capabilities, clientInfo). */
  initialize: Record<string, unknown>;
  /** The protocol version the client sends in `mcp-protocol-version`. */
  protocolVersion: string;
  /** Later state-setting requests in order, latest per key (a level; a subscription per uri). */
  state: McpSessionRequest[];
  /** Identity mode: the subject that opened the session (only it may use the session on any replica). */
  subject?: string;
}

/** What one replica tells the others about a session. */
export type McpSessionNotice =
  | { type: 'ended'; id: string }
  | { type: 'changed'; id: string; request: McpSessionRequest }
  | { type: 'message'; id: string; message: unknown };

export interface McpSessionStore {
  readonly replicaId: string;
  /** Stores a new session's record, kept `idleMs` past its last use. */
  create(id: string, record: McpSessionRecord, idleMs: number): Promise<void>;
  /** The record, when the session exists in the fleet (its time to live renewed). */
  get(id: string, idleMs: number): Promise<McpSessionRecord | undefined>;
  /** Renews the record's time to live (the session was used here). */
  touch(id: string, idleMs: number): Promise<void>;
  /** Adds a state-setting request to the record and tells the other replicas. */
  change(id: string, request: McpSessionRequest, idleMs: number): Promise<void>;
  /** Deletes the record and tells every replica to end its copy. */
  end(id: string): Promise<void>;
  /** Passes a client message to the other replicas holding the session. */
  forward(id: string, message: unknown): Promise<void>;
  /** Notices from other replicas; returns the unsubscribe. */
  onNotice(listener: (notice: McpSessionNotice) => void): () => void;
  close(): Promise<void>;
}

/** Methods whose requests set session state (replayed into a rebuilt session). */
export const SESSION_STATE_METHODS: ReadonlySet<string> = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
