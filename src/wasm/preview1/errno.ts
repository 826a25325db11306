/**
 * wasi_snapshot_preview1 `errno` values (witx `typenames.witx`), and how the preview1 host turns what
 * its parts throw into one: a thrown errno number as it is; a wasi:filesystem `error-code` string (the
 * confined filesystem host's errors) as the preview1 command adapter maps it; a Node errno error by
 * its code. Anything else (the call's exit or timeout, a host bug) is not an errno and is rethrown.
 */
import { type FsErrorCode, fsErrorCode } from '../wasi/filesystem-errors.ts';

export const ERRNO = Object.freeze({
  SUCCESS: 0,
  TOOBIG: 1,
  ACCES: 2,
  AGAIN: 6,
  ALREADY: 7,
  BADF: 8,
  BUSY: 10,
  DEADLK: 16,
  DQUOT: 19,
  EXIST: 20,
  FAULT: 21,
  FBIG: 22,
  ILSEQ: 25,
  INPROGRESS: 26,
  INTR: 27,
  INVAL: 28,
  IO: 29,
  ISDIR: 31,
  LOOP: 32,
  MLINK: 34,
  MSGSIZE: 35,
  NAMETOOLONG: 37,
  NODEV: 43,
  NOENT: 44,
  NOLCK: 46,
  NOMEM: 48,
  NOSPC: 51,
  NOSYS: 52,
  NOTDIR: 54,
  NOTEMPTY: 55,
  NOTRECOVERABLE: 56,
  NOTSOCK: 57,
  NOTSUP: 58,
  NOTTY: 59,
  NXIO: 60,
  OVERFLOW: 61,
  PERM: 63,
  PIPE: 64,
  ROFS: 69,
  SPIPE: 70,
  TXTBSY: 74,
  XDEV: 75,
  NOTCAPABLE: 76,
});

const FS_CODE_TO_ERRNO: Readonly<Record<FsErrorCode, number>> = {
  access: ERRNO.ACCES,
  'would-block': ERRNO.AGAIN,
  already: ERRNO.ALREADY,
  'bad-descriptor': ERRNO.BADF,
  busy: ERRNO.BUSY,
  deadlock: ERRNO.DEADLK,
  quota: ERRNO.DQUOT,
  exist: ERRNO.EXIST,
  'file-too-large': ERRNO.FBIG,
  'illegal-byte-sequence': ERRNO.ILSEQ,
  'in-progress': ERRNO.INPROGRESS,
  interrupted: ERRNO.INTR,
  invalid: ERRNO.INVAL,
  io: ERRNO.IO,
  'is-directory': ERRNO.ISDIR,
  loop: ERRNO.LOOP,
  'too-many-links': ERRNO.MLINK,
  'message-size': ERRNO.MSGSIZE,
  'name-too-long': ERRNO.NAMETOOLONG,
  'no-device': ERRNO.NODEV,
  'no-entry': ERRNO.NOENT,
  'no-lock': ERRNO.NOLCK,
  'insufficient-memory': ERRNO.NOMEM,
  'insufficient-space': ERRNO.NOSPC,
  'not-directory': ERRNO.NOTDIR,
  'not-empty': ERRNO.NOTEMPTY,
  'not-recoverable': ERRNO.NOTRECOVERABLE,
  unsupported: ERRNO.NOTSUP,
  'no-tty': ERRNO.NOTTY,
  'no-such-device': ERRNO.NXIO,
  overflow: ERRNO.OVERFLOW,
  'not-permitted': ERRNO.PERM,
  pipe: ERRNO.PIPE,
  'read-only': ERRNO.ROFS,
  'invalid-seek': ERRNO.SPIPE,
  'text-file-busy': ERRNO.TXTBSY,
  'cross-device': ERRNO.XDEV,
};

/** The errno for a wasi:filesystem error code (IO for a code this table does not know). */
export function errnoOfFsCode(code: string): number {
  return FS_CODE_TO_ERRNO[code as FsErrorCode] ?? ERRNO.IO;
}

/**
 * The errno a host function returns for `error`, or `error` rethrown when it is none: an exit, a
 * timeout, a refused grant (ToolHostError) or a host bug must end the call, not reach the guest.
 */
export function errnoOf(error: unknown): number {
  if (typeof error === 'number') return error;
  if (typeof error === 'string') return errnoOfFsCode(error);
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).syscall !== undefined) {
    return errnoOfFsCode(fsErrorCode(error));
  }
  throw error;
}
