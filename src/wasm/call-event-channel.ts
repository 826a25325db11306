/**
 * The receiving end of a wasm call's events (stderr-events.ts) for a call that runs on a pool worker:
 * a MessageChannel whose far port travels with the task (worker-protocol.ts `TaskEvents`); messages
 * are handed to the call's `CallEvents` as they arrive. Opened only for a call someone listens to.
 * `ended` settles at the worker's `end` message, or when the port closes (the worker was terminated).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { CallEvents } from '../call-events.ts';
import { deliverCallEvent, type CallEventMessage } from './stderr-events.ts';
import type { TaskEvents } from './worker-protocol.ts';

/** How long a finished call waits for its `end` message at most (it was posted before the reply: normally at once). */
const END_WAIT_MS = 2_000;

export interface CallEventChannel {
  /** Goes into the task (its port in the transfer list). */
  readonly task: TaskEvents;
  /** Settles once the worker's `end` arrived (every event before it delivered), or after END_WAIT_MS. */
  ended(): Promise<void>;
  /** Stops delivery and frees the channel. Idempotent. */
  close(): void;
}

/** Whether `events` wants anything a wasm call can send. */
export function listensToWasm(events: CallEvents | undefined): events is CallEvents {
  return events !== undefined && (events.progress !== undefined || events.stderrLine !== undefined);
}

export function openCallEventChannel(events: CallEvents): CallEventChannel {
  const { port1, port2 } = new MessageChannel();
  let closed = false;
  let markEnded!: () => void;
  const endedPromise = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const close = (): void => {
    if (closed) return;
    closed = true;
    port1.close();
    markEnded();
  };
  port1.on('message', (message: CallEventMessage) => {
    if (closed) return;
    if (message.kind === 'end') {
      close();
      return;
    }
    deliverCallEvent(message, events);
  });
  port1.on('close', close);
  return {
    task: { port: port2 as MessagePort, lines: events.stderrLine !== undefined, progress: events.progress !== undefined },
    async ended() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([endedPromise, new Promise<void>((resolve) => (timer = setTimeout(resolve, END_WAIT_MS)))]);
      clearTimeout(timer);
    },
    close,
  };
}
