/**
 * What the preview1 host functions of one call share, and the wrapper that gives each its errno:
 * a function returns normally for `SUCCESS`, throws an errno (or a filesystem error code) for a
 * failure; an exit, a timeout or a host bug passes through and ends the call (errno.ts).
 */
import type { CallContext } from '../wasi/call-context.ts';
import { ERRNO, errnoOf } from './errno.ts';
import type { FdTable } from './fd-table.ts';
import type { GuestMemory } from './memory.ts';

export interface Preview1State {
  readonly memory: GuestMemory;
  readonly fds: FdTable;
  readonly ctx: CallContext;
  /** argv, argv[0] (the tool name) first. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** A host function's import: `SUCCESS` when `body` returns, the errno of what it throws otherwise. */
export function hostFunction<A extends unknown[]>(body: (...args: A) => void): (...args: A) => number {
  return (...args: A): number => {
    try {
      body(...args);
      return ERRNO.SUCCESS;
    } catch (error) {
      return errnoOf(error);
    }
  };
}

export type ImportFunctions = Record<string, (...args: never[]) => unknown>;
