/**
 * The fleet's event fan-out over Redis pub/sub: one channel, `<prefix>events`, carrying
 * `{"replica": "<origin replica id>", "event": {...}}` JSON. Each replica publishes its own fleet
 * events (src/host/events.ts FLEET_EVENT_TYPES) and hands its listeners every message from another
 * replica; its own messages come back on the channel and are dropped, so an event reaches each
 * replica exactly once and never loops. Best effort, as the event stream always was: an event
 * published while Redis is down is dropped (and logged at debug), never queued.
 *
 * Messages are written by replicas of the fleet; still, one larger than `MAX_EVENT_BYTES`, not JSON,
 * or not a fleet event is dropped without reaching a listener.
 */
import { FLEET_EVENT_TYPES, type EventFanout } from '../host/events.ts';
import type { HostEvent } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { RedisChannels } from './channels.ts';
import type { RedisConnection } from './redis-connection.ts';

/** The largest event message sent or accepted (approval arguments are capped well below this). */
export const MAX_EVENT_BYTES = 256 * 1024;

export function redisEventFanout(connection: Pick<RedisConnection, 'replicaId' | 'key'>, channels: RedisChannels, logger: Logger): EventFanout {
  const channel = connection.key('events');
  const { replicaId } = connection;
  const listeners = new Set<(event: HostEvent, replica: string) => void>();
  // Subscribed from the start (not on the first stream), so a stream opened later misses nothing sent since.
  channels.subscribe(channel, (message) => {
    if (listeners.size === 0) return;
    const parsed = parseMessage(message);
    if (parsed === undefined || parsed.replica === replicaId) return;
    for (const listener of [...listeners]) listener(parsed.event, parsed.replica);
  });
  return {
    replicaId,
    publish(event) {
      const { replica: _stamp, ...body } = event;
      const message = JSON.stringify({ replica: replicaId, event: body });
      if (message.length > MAX_EVENT_BYTES) {
        logger.debug({ type: event.type, bytes: message.length }, 'event too large for the fleet; kept on this replica');
        return;
      }
      channels.publish(channel, message).catch((error: unknown) => logger.debug({ type: event.type, error: String(error) }, 'event not sent to the fleet'));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function parseMessage(message: string): { replica: string; event: HostEvent } | undefined {
  if (message.length > MAX_EVENT_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { replica, event } = value as { replica?: unknown; event?: unknown };
  if (typeof replica !== 'string' || replica.length === 0 || replica.length > 128) return undefined;
  if (typeof event !== 'object' || event === null) return undefined;
  const type = (event as { type?: unknown }).type;
  if (typeof type !== 'string' || !FLEET_EVENT_TYPES.has(type as HostEvent['type'])) return undefined;
  return { replica, event: event as HostEvent };
}
