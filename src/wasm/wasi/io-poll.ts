/**
 * wasi:io/poll (0.2.0–0.2.3). Every pollable this host hands out is either ready now (streams,
 * sockets: all host I/O here is synchronous) or a timer. Waiting is a synchronous sleep
 * (`Atomics.wait`), bounded by the call's deadline: a sleep that would outlast the call sleeps until
 * the deadline and then throws `WasiTimeout`, which unwinds the guest.
 */
import type { CallContext } from './call-context.ts';
import { WasiTimeout } from './types.ts';

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

export class Pollable {
  /** Monotonic instant (ns) at which this pollable becomes ready; 0n = always ready. */
  readonly readyAtNs: bigint;
  readonly ctx: CallContext | undefined;

  constructor(readyAtNs: bigint, ctx: CallContext | undefined) {
    this.readyAtNs = readyAtNs;
    this.ctx = ctx;
  }

  ready(): boolean {
    return this.readyAtNs === 0n || this.readyAtNs <= process.hrtime.bigint();
  }

  block(): void {
    if (this.readyAtNs !== 0n) sleepUntil(this.readyAtNs, this.ctx);
  }
}

/** The pollable of everything that never blocks here (stdio, files, denied sockets). */
export const READY_POLLABLE = new Pollable(0n, undefined);

/** Sleeps until `untilNs` (monotonic), or until the call's deadline and then throws `WasiTimeout`. */
export function sleepUntil(untilNs: bigint, ctx: CallContext | undefined): void {
  const deadline = ctx?.deadlineNs;
  const capped = deadline !== undefined && deadline < untilNs;
  const target = capped ? deadline : untilNs;
  for (;;) {
    const remainingNs = target - process.hrtime.bigint();
    if (remainingNs <= 0n) break;
    Atomics.wait(sleepCell, 0, 0, Number(remainingNs) / 1e6);
  }
  if (capped) throw new WasiTimeout();
}

export function poll(pollables: Pollable[]): Uint32Array {
  if (pollables.length === 0) throw new RangeError('wasi:io/poll.poll: empty list');
  let earliest = -1n;
  let ctx: CallContext | undefined;
  for (;;) {
    const now = process.hrtime.bigint();
    let readyCount = 0;
    for (const p of pollables) {
      if (p.readyAtNs <= now) readyCount++;
      else if (earliest < 0n || p.readyAtNs < earliest) {
        earliest = p.readyAtNs;
        ctx = p.ctx;
      }
    }
    if (readyCount > 0) {
      const out = new Uint32Array(readyCount);
      let j = 0;
      for (let i = 0; i < pollables.length; i++) if (pollables[i]!.readyAtNs <= now) out[j++] = i;
      return out;
    }
    sleepUntil(earliest, ctx);
    earliest = -1n;
  }
}

export const ioPollImports = Object.freeze({ Pollable, poll });
