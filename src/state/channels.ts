/**
 * Pub/sub channels over a replica's one subscriber connection: any number of features subscribe
 * handlers to channel names (the quota limiters' release notices, the event fan-out, other stores),
 * and one `message` listener dispatches to them. Channel names are full names: build them with
 * `RedisConnection.key(...)` so they carry the fleet's prefix.
 *
 * Contract: a subscription survives Redis going away and coming back (every channel with a handler
 * is subscribed again whenever the subscriber connection is ready), but messages published while
 * this replica was disconnected are lost (Redis pub/sub is at most once): features use it for
 * notices and live views, never as the only copy of state. Handlers must not throw (a throw is
 * caught and dropped so one feature cannot stop another's messages).
 */
import type { RedisConnection } from './redis-connection.ts';

export type ChannelHandler = (message: string) => void;

export interface RedisChannels {
  /** Adds `handler` to `channel` (subscribing the connection on the first one); returns the unsubscribe function. */
  subscribe(channel: string, handler: ChannelHandler): () => void;
  /** Publishes; rejects when Redis is unreachable (the message is not queued). */
  publish(channel: string, message: string): Promise<void>;
  /** Drops every handler (the connection itself is closed by its owner). */
  close(): void;
}

export function createRedisChannels(connection: Pick<RedisConnection, 'commands' | 'subscriber'>): RedisChannels {
  const handlers = new Map<string, Set<ChannelHandler>>();
  const { subscriber, commands } = connection;
  const onMessage = (channel: string, message: string): void => {
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(message);
      } catch {
        // see the header: one feature's bug must not stop the others' messages
      }
    }
  };
  // A SUBSCRIBE sent while the connection was down failed (no offline queue): send them all again once it is up.
  const onReady = (): void => {
    if (handlers.size > 0) subscriber.subscribe(...handlers.keys()).catch(() => undefined);
  };
  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  return {
    subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (set === undefined) {
        set = new Set();
        handlers.set(channel, set);
        if (subscriber.status === 'ready') subscriber.subscribe(channel).catch(() => undefined);
      }
      set.add(handler);
      return () => {
        const current = handlers.get(channel);
        if (current === undefined || !current.delete(handler) || current.size > 0) return;
        handlers.delete(channel);
        if (subscriber.status === 'ready') subscriber.unsubscribe(channel).catch(() => undefined);
      };
    },
    async publish(channel, message) {
      await commands.publish(channel, message);
    },
    close() {
      handlers.clear();
      subscriber.off('message', onMessage);
      subscriber.off('ready', onReady);
    },
  };
}
