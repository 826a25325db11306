/**
 * The host's event stream (tool set changes, load failures, calls, network refusals, approvals): one
 * emitter every edge subscribes to, fed by the registry's changes and collisions and by the call path.
 *
 * In a fleet (an `EventFanout`, src/state/redis-events.ts), the events of `FLEET_EVENT_TYPES` (calls,
 * network refusals, approvals) are also published to the other replicas. A subscription has a scope:
 * `replica` (the default: this replica's events, as metrics, the call history and MCP sessions need)
 * or `fleet` (`/v1/events` and the console: this replica's events and every other replica's fleet
 * events, each exactly once, each stamped with the `replica` it happened on). Tool set events
 * (added, updated, removed, load_failed, collision) stay on their replica: each replica loads its own
 * tools, and a client's tool list follows the replica that answers it. Without a fan-out the fleet
 * scope is the replica scope, unstamped.
 */
import { EventEmitter } from 'node:events';
import type { EventScope, HostEvent } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { ToolRegistry } from '../registry.ts';
import type { AnyTool } from '../tool.ts';

export interface HostEvents {
  emit(event: HostEvent): void;
  /** Subscribes (scope `replica` by default); returns the unsubscribe function. */
  subscribe(listener: (event: HostEvent) => void, scope?: EventScope): () => void;
}

/** The events every replica of a fleet shows: what happened to calls, not to one replica's tool set. */
export const FLEET_EVENT_TYPES: ReadonlySet<HostEvent['type']> = new Set<HostEvent['type']>(['call_finished', 'network_denied', 'approval_requested', 'approval_decided']);

/** How a host's events reach the other replicas of its fleet, and theirs reach it. */
export interface EventFanout {
  /** This replica's id: the `replica` of its own events. */
  readonly replicaId: string;
  /** Sends one of this replica's events to the others (best effort: dropped while the shared state is unreachable). */
  publish(event: HostEvent): void;
  /** The other replicas' events (never this replica's own), each with the replica it happened on. */
  subscribe(listener: (event: HostEvent, replica: string) => void): () => void;
}

export function createHostEvents(fanout?: EventFanout): HostEvents {
  const emitter = new EventEmitter<{ event: [HostEvent] }>();
  // One listener per MCP session, SSE stream and watcher: many is normal, not a leak (sessions are capped).
  emitter.setMaxListeners(0);
  return {
    emit(event) {
      emitter.emit('event', event);
      if (fanout !== undefined && FLEET_EVENT_TYPES.has(event.type)) fanout.publish(event);
    },
    subscribe(listener, scope = 'replica') {
      if (scope === 'replica' || fanout === undefined) {
        emitter.on('event', listener);
        return () => emitter.off('event', listener);
      }
      const own = (event: HostEvent): void => listener({ ...event, replica: fanout.replicaId });
      emitter.on('event', own);
      const stopRemote = fanout.subscribe((event, replica) => listener({ ...event, replica }));
      return () => {
        emitter.off('event', own);
        stopRemote();
      };
    },
  };
}

/** The file a wasm tool was loaded from, so events can name it (built-ins have none). */
function fileOf(tool: AnyTool): string | undefined {
  const file = tool.details?.['file'];
  return typeof file === 'string' ? file : undefined;
}

/** Turns the registry's changes into `added`/`updated`/`removed` events and its collisions into a warning plus a `collision` event. */
export function forwardRegistryEvents(registry: ToolRegistry, emit: (event: HostEvent) => void, logger: Logger): void {
  registry.on('change', (change) => {
    const file = fileOf(change.tool);
    emit({ type: change.type, name: change.name, source: change.tool.source, ...(file ? { file } : {}) });
  });
  registry.on('collision', (collision) => {
    const file = fileOf(collision.rejected);
    logger.warn({ name: collision.name, reason: collision.reason, file }, 'tool name collision');
    emit({ type: 'collision', name: collision.name, kept: collision.kept.source, rejected: collision.rejected.source, reason: collision.reason, ...(file ? { file } : {}) });
  });
}
