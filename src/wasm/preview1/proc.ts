/**
 * proc_exit, proc_raise, sched_yield. proc_exit ends the call with the guest's exit code as the
 * process would see it (the low 8 bits, as a POSIX shell and the wasmtime CLI report it): `exit(3)`
 * is 3, not mapped to 1. Signals are not offered (`NOSYS`); yielding is a no-op (one thread).
 */
import { WasiExit } from '../wasi/types.ts';
import { ERRNO } from './errno.ts';
import type { ImportFunctions } from './state.ts';

export const procImports: ImportFunctions = Object.freeze({
  proc_exit: (code: number): never => {
    throw new WasiExit((code >>> 0) & 0xff);
  },
  proc_raise: (_signal: number): number => ERRNO.NOSYS,
  sched_yield: (): number => ERRNO.SUCCESS,
});
