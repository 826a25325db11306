/**
 * The network thread's entry: receives exchanges on a MessagePort, runs them concurrently on its
 * own event loop (exchange.ts), posts each reply, then bumps and notifies the shared cell the
 * blocked guest thread waits on (sync-client.ts).
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { performExchange } from './exchange.ts';
import type { ExchangeCancel, ExchangeRequest } from './protocol.ts';

export interface NetThreadData {
  port: MessagePort;
  cell: SharedArrayBuffer;
}

const { port, cell } = workerData as NetThreadData;
const counter = new Int32Array(cell);
const running = new Map<number, AbortController>();

port.on('message', (message: ExchangeRequest | ExchangeCancel) => {
  if ('cancel' in message) {
    running.get(message.cancel)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  void performExchange(message, controller.signal)
    .catch((error: unknown) => ({ id: message.id, ok: false as const, error: { tag: 'internal-error', val: String(error) }, message: String(error) }))
    .then((reply) => {
      running.delete(message.id);
      port.postMessage(reply, reply.ok ? [reply.body.buffer as ArrayBuffer] : []);
      Atomics.add(counter, 0, 1);
      Atomics.notify(counter, 0);
    });
});
