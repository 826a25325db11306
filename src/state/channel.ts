/**
 * One pub/sub channel on a replica's subscriber connection: subscribed now if the connection is up,
 * and again every time it (re)connects (the connection queues nothing while down, so a subscription
 * made before it is up would be lost). Messages of other channels on the same connection are ignored.
 */
import type { RedisConnection } from './redis-connection.ts';

export function subscribeChannel(connection: RedisConnection, channel: string, onMessage: (message: string) => void): () => Promise<void> {
  const { subscriber } = connection;
  const listener = (from: string, message: string): void => {
    if (from === channel) onMessage(message);
  };
  const subscribe = (): void => {
    subscriber.subscribe(channel).catch(() => undefined);
  };
  subscriber.on('message', listener);
  subscriber.on('ready', subscribe);
  if (subscriber.status === 'ready') subscribe();
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    subscriber.off('message', listener);
    subscriber.off('ready', subscribe);
    await subscriber.unsubscribe(channel).catch(() => undefined);
  };
}

/** Publishes on the commands connection; rejects while Redis is unreachable. */
export async function publish(connection: RedisConnection, channel: string, message: string): Promise<number> {
  return connection.commands.publish(channel, message);
}
