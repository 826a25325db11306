/**
 * poll_oneoff. Host I/O is synchronous here, so a descriptor subscription is ready at once (stdin
 * reports the bytes left, a file those past its offset); clock subscriptions (relative, or absolute on
 * the realtime or monotonic clock) make the call sleep until the earliest one, never past the call's
 * deadline: a sleep that would outlast it sleeps to the deadline and ends the call as timed out
 * (`WasiTimeout`, as the WASI 0.2 host's wasi:io/poll does).
 */
import { sleepUntil } from '../wasi/io-poll.ts';
import { CLOCK_MONOTONIC, CLOCK_REALTIME, monotonicNs, realtimeNs } from './clocks.ts';
import { ERRNO, errnoOf } from './errno.ts';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

const SUBSCRIPTION_BYTES = 48;
const EVENT_BYTES = 32;
const EVENTTYPE_CLOCK = 0;
const EVENTTYPE_FD_READ = 1;
const EVENTTYPE_FD_WRITE = 2;
const SUBCLOCKFLAGS_ABSTIME = 1;

interface Event {
  userdata: bigint;
  error: number;
  type: number;
  nbytes: bigint;
}

/** Bytes a read on `fd` would return now (0 at the end), or the errno of the descriptor. */
function readableBytes(state: Preview1State, fd: number): bigint {
  const entry = state.fds.get(fd);
  if (entry.kind === 'stdin') return BigInt(entry.remaining);
  if (entry.kind === 'file') {
    const size = Number(entry.descriptor.stat().size);
    return BigInt(Math.max(0, size - entry.position));
  }
  if (entry.kind === 'directory') throw ERRNO.ISDIR;
  throw ERRNO.BADF;
}

function writableBytes(state: Preview1State, fd: number): bigint {
  const entry = state.fds.get(fd);
  if (entry.kind === 'stdout' || entry.kind === 'stderr' || entry.kind === 'file') return 1n << 20n;
  if (entry.kind === 'directory') throw ERRNO.ISDIR;
  throw ERRNO.BADF;
}

export function pollImports(state: Preview1State): ImportFunctions {
  const { memory } = state;
  return {
    poll_oneoff: hostFunction((input: number, output: number, count: number, eventsPointer: number) => {
      if (count === 0) throw ERRNO.INVAL;
      memory.bytes(input, count * SUBSCRIPTION_BYTES);
      memory.bytes(output, count * EVENT_BYTES);
      memory.u32(eventsPointer);
      const ready: Event[] = [];
      const timers: { userdata: bigint; atNs: bigint }[] = [];
      for (let index = 0; index < count; index += 1) {
        const at = input + index * SUBSCRIPTION_BYTES;
        const userdata = memory.u64(at);
        const tag = memory.u8(at + 8);
        if (tag === EVENTTYPE_CLOCK) {
          const id = memory.u32(at + 16);
          const timeout = memory.u64(at + 24);
          const absolute = (memory.u16(at + 40) & SUBCLOCKFLAGS_ABSTIME) !== 0;
          const now = monotonicNs();
          let atNs: bigint;
          if (id === CLOCK_MONOTONIC) atNs = absolute ? timeout : now + timeout;
          else if (id === CLOCK_REALTIME) atNs = absolute ? now + (timeout - realtimeNs()) : now + timeout;
          else {
            ready.push({ userdata, error: ERRNO.INVAL, type: EVENTTYPE_CLOCK, nbytes: 0n });
            continue;
          }
          timers.push({ userdata, atNs });
        } else if (tag === EVENTTYPE_FD_READ || tag === EVENTTYPE_FD_WRITE) {
          const fd = memory.u32(at + 16);
          try {
            const nbytes = tag === EVENTTYPE_FD_READ ? readableBytes(state, fd) : writableBytes(state, fd);
            ready.push({ userdata, error: ERRNO.SUCCESS, type: tag, nbytes });
          } catch (error) {
            ready.push({ userdata, error: errnoOf(error), type: tag, nbytes: 0n });
          }
        } else {
          throw ERRNO.INVAL;
        }
      }
      if (ready.length === 0 && timers.length > 0) {
        let earliest = timers[0]!.atNs;
        for (const timer of timers) if (timer.atNs < earliest) earliest = timer.atNs;
        sleepUntil(earliest, state.ctx);
      }
      const now = monotonicNs();
      for (const timer of timers) if (timer.atNs <= now) ready.push({ userdata: timer.userdata, error: ERRNO.SUCCESS, type: EVENTTYPE_CLOCK, nbytes: 0n });
      ready.forEach((event, index) => {
        const at = output + index * EVENT_BYTES;
        memory.zero(at, EVENT_BYTES);
        memory.setU64(at, event.userdata);
        memory.setU16(at + 8, event.error);
        memory.setU8(at + 10, event.type);
        memory.setU64(at + 16, event.nbytes);
      });
      memory.setU32(eventsPointer, ready.length);
    }),
  };
}
