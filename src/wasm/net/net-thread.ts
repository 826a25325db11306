/**
 * The network thread's entry: receives requests on a MessagePort (HTTP exchanges, name lookups,
 * socket operations), runs them concurrently on its own event loop, posts each reply, then bumps and
 * notifies the shared cell the blocked guest thread waits on (sync-client.ts).
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { performExchange } from './exchange.ts';
import type { ExchangeCancel, NetRequest } from './protocol.ts';
import { SocketRelay } from './socket-relay.ts';

export interface NetThreadData {
  port: MessagePort;
  cell: SharedArrayBuffer;
}

const { port, cell } = workerData as NetThreadData;
const counter = new Int32Array(cell);
const running = new Map<number, AbortController>();
const relay = new SocketRelay();

function run(message: NetRequest): Promise<{ id: number }> {
  switch (message.op) {
    case 'http': {
      const controller = new AbortController();
      running.set(message.id, controller);
      return performExchange(message, controller.signal).finally(() => running.delete(message.id));
    }
    case 'lookup':
      return relay.lookup(message);
    case 'udp-open':
    case 'udp-send':
    case 'udp-receive':
    case 'udp-close':
      return relay.udp(message);
    default:
      return relay.tcp(message);
  }
}

/** Transferable buffers of a reply (bodies, bytes read), so large ones are not copied. */
function transfers(reply: Record<string, unknown>): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const key of ['body', 'bytes']) {
    const value = reply[key];
    if (value instanceof Uint8Array && value.buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) out.push(value.buffer);
  }
  return out;
}

port.on('message', (message: NetRequest | ExchangeCancel) => {
  if ('cancel' in message) {
    running.get(message.cancel)?.abort();
    return;
  }
  void run(message)
    .catch((error: unknown) => ({ id: message.id, ok: false as const, error: { tag: 'internal-error', val: String(error) }, message: String(error) }))
    .then((reply) => {
      port.postMessage(reply, transfers(reply as unknown as Record<string, unknown>));
      Atomics.add(counter, 0, 1);
      Atomics.notify(counter, 0);
    });
});
