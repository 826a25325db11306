/**
 * `GET /v1/events`: server-sent events from `host.onEvent`, one SSE event per host event
 * (`event: added|updated|removed|load_failed|collision`, `data: <the event as JSON>`), with
 * keep-alive comments so proxies keep the stream open. Extension files in events are relative to the
 * extensions folder (extension-paths.ts). In a fleet (shared state in Redis) the stream is the fleet's:
 * every replica's call and approval events, each once, each with `replica` (src/host/events.ts).
 *
 * `approval_requested` events carry the waiting call's arguments only on streams opened with the
 * admin token; other streams get the event without `arguments` (a client learns that a call waits
 * for a person, not what it would do).
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Host, HostEvent } from '../host-types.ts';
import { publicHostEvent } from './extension-paths.ts';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;

export interface EventStreamOptions {
  /** Interval of `: keep-alive` comments; 0 disables them. */
  keepAliveMs?: number;
}

export interface EventStreamRequest {
  /** Send `approval_requested` with its `arguments` (the stream was opened with the admin token). */
  approvalArguments: boolean;
  /** Identity mode: only events this returns true for are sent (a principal's own calls and approvals). */
  filter?: ((event: HostEvent) => boolean) | undefined;
}

/** The event as a stream of this kind sends it: who asked (identity mode) goes with the arguments, to those who decide. */
export function streamedEvent(event: HostEvent, request: EventStreamRequest): HostEvent | Omit<Extract<HostEvent, { type: 'approval_requested' }>, 'arguments' | 'requested_by'> {
  if (event.type !== 'approval_requested' || request.approvalArguments) return event;
  const { arguments: _hidden, requested_by: _asker, ...rest } = event;
  return rest;
}

/** Holds the open event streams so the server can end them on shutdown. */
export class EventStreamHub {
  private readonly host: Host;
  private readonly keepAliveMs: number;
  private readonly closers = new Set<() => void>();
  private sequence = 0;

  constructor(host: Host, options: EventStreamOptions = {}) {
    this.host = host;
    this.keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  }

  /** Number of connected clients. */
  get size(): number {
    return this.closers.size;
  }

  handle(c: Context, request: EventStreamRequest = { approvalArguments: false }): Response {
    return streamSSE(c, async (stream) => {
      await new Promise<void>((resolve) => {
        let writes = Promise.resolve();
        const enqueue = (write: (stream: SSEStreamingApi) => Promise<unknown>): void => {
          writes = writes
            .then(async () => {
              if (!stream.closed && !stream.aborted) await write(stream);
            })
            .catch(() => finish());
        };
        const unsubscribe = this.host.onEvent(
          (event: HostEvent) => {
            if (request.filter !== undefined && !request.filter(event)) return;
            const id = String(++this.sequence);
            enqueue((target) => target.writeSSE({ event: event.type, data: JSON.stringify(streamedEvent(publicHostEvent(this.host.extensionsDir, event), request)), id }));
          },
          { scope: 'fleet' },
        );
        const timer = this.keepAliveMs > 0 ? setInterval(() => enqueue((target) => target.write(': keep-alive\n\n')), this.keepAliveMs) : undefined;
        const finish = (): void => {
          if (!this.closers.delete(finish)) return;
          unsubscribe();
          if (timer) clearInterval(timer);
          void writes.finally(resolve);
        };
        this.closers.add(finish);
        stream.onAbort(finish);
        enqueue((target) => target.write(': connected\n\n'));
      });
    });
  }

  /** Ends every open stream (server shutdown). */
  closeAll(): void {
    for (const close of [...this.closers]) close();
  }
}
