/**
 * The host's event stream (tool set changes, load failures, calls, network refusals, approvals): one
 * emitter every edge subscribes to, fed by the registry's changes and collisions and by the call path.
 */
import { EventEmitter } from 'node:events';
import type { HostEvent } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { ToolRegistry } from '../registry.ts';
import type { AnyTool } from '../tool.ts';

export interface HostEvents {
  emit(event: HostEvent): void;
  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: (event: HostEvent) => void): () => void;
}

export function createHostEvents(): HostEvents {
  const emitter = new EventEmitter<{ event: [HostEvent] }>();
  // One listener per MCP session, SSE stream and watcher: many is normal, not a leak (sessions are capped).
  emitter.setMaxListeners(0);
  return {
    emit(event) {
      emitter.emit('event', event);
    },
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
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
