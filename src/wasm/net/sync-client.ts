/**
 * The guest side of the network: jco's glue is synchronous, so a wasi:http request blocks the thread
 * running the guest while a network thread (net-thread.ts, one per guest thread, started on first
 * use) does the I/O. The request goes out on a MessagePort; the guest thread sleeps in
 * `Atomics.wait` on a shared counter the network thread bumps after posting each reply, then takes
 * the reply with `receiveMessageOnPort`. The wait never passes the call's deadline: at the deadline
 * the request is cancelled and the caller gets 'deadline'.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { NetThreadData } from './net-thread.ts';
import type { ExchangeReply, ExchangeRequest, NetRequest } from './protocol.ts';

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './net-thread.ts' : './net-thread.js', import.meta.url);

/**
 * Starts the network thread. From TypeScript sources the thread registers tsx's require hook first
 * (tsx's ESM hooks do not reach worker threads on Node 20) and requires the entry.
 */
function startThread(data: NetThreadData): Worker {
  const transferList = [data.port];
  if (!ENTRY.pathname.endsWith('.ts')) return new Worker(ENTRY, { workerData: data, transferList });
  const tsxApi = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const code = `require(${JSON.stringify(tsxApi)}).register(); require(${JSON.stringify(fileURLToPath(ENTRY))});`;
  return new Worker(code, { eval: true, workerData: data, transferList });
}

export type ExchangeOutcome = ExchangeReply | 'deadline';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class NetClient {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #counter: Int32Array;
  #nextId = 1;

  constructor() {
    const cell = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    this.#counter = new Int32Array(cell);
    this.#port = port1;
    this.#worker = startThread({ port: port2, cell });
    // Neither keeps the process (or a pool worker) alive; the thread ends with its parent.
    this.#worker.unref();
    this.#port.unref();
    // A thread that died is replaced at the next call (a call waiting on it ends at its deadline).
    const forget = () => {
      if (shared === this) shared = undefined;
    };
    this.#worker.once('exit', forget);
    this.#worker.once('error', forget);
  }

  /** Runs one HTTP exchange, blocking this thread until its reply or `deadlineNs` (monotonic). */
  exchange(request: Omit<ExchangeRequest, 'id' | 'op'>, deadlineNs: bigint | undefined): ExchangeOutcome {
    return this.call<ExchangeReply>({ ...request, op: 'http' }, deadlineNs);
  }

  /** Sends a request without waiting for its reply (closing a socket at the end of a call). */
  post(request: DistributiveOmit<NetRequest, 'id'>): void {
    this.#port.postMessage({ ...request, id: this.#nextId++ });
  }

  /**
   * Sends one request and blocks this thread until its reply, or until `deadlineNs` (then the request
   * is cancelled where that means something, and the answer is 'deadline').
   */
  call<Reply extends { id: number }>(request: DistributiveOmit<NetRequest, 'id'>, deadlineNs: bigint | undefined): Reply | 'deadline' {
    const id = this.#nextId++;
    this.#port.postMessage({ ...request, id });
    for (;;) {
      const seen = Atomics.load(this.#counter, 0);
      for (let message = receiveMessageOnPort(this.#port); message !== undefined; message = receiveMessageOnPort(this.#port)) {
        const reply = message.message as Reply;
        if (reply.id === id) return reply;
        // A reply to a request cancelled at an earlier deadline: dropped.
      }
      let waitMs = Number.POSITIVE_INFINITY;
      if (deadlineNs !== undefined) {
        const remainingNs = deadlineNs - process.hrtime.bigint();
        if (remainingNs <= 0n) {
          this.#port.postMessage({ cancel: id });
          return 'deadline';
        }
        waitMs = Number(remainingNs) / 1e6;
      }
      Atomics.wait(this.#counter, 0, seen, waitMs);
    }
  }
}

let shared: NetClient | undefined;

/** This thread's client (and network thread), started on first use. */
export function netClient(): NetClient {
  shared ??= new NetClient();
  return shared;
}
