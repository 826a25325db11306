/** wasi:filesystem/types `error-code`, and the mapping from Node's errno codes. */
export type FsErrorCode =
  | 'access' | 'would-block' | 'already' | 'bad-descriptor' | 'busy' | 'deadlock' | 'quota' | 'exist'
  | 'file-too-large' | 'illegal-byte-sequence' | 'in-progress' | 'interrupted' | 'invalid' | 'io'
  | 'is-directory' | 'loop' | 'too-many-links' | 'message-size' | 'name-too-long' | 'no-device'
  | 'no-entry' | 'no-lock' | 'insufficient-memory' | 'insufficient-space' | 'not-directory'
  | 'not-empty' | 'not-recoverable' | 'unsupported' | 'no-tty' | 'no-such-device' | 'overflow'
  | 'not-permitted' | 'pipe' | 'read-only' | 'invalid-seek' | 'text-file-busy' | 'cross-device';

const ERRNO_TO_CODE: Readonly<Record<string, FsErrorCode>> = {
  EACCES: 'access',
  EAGAIN: 'would-block',
  EWOULDBLOCK: 'would-block',
  EALREADY: 'already',
  EBADF: 'bad-descriptor',
  EBUSY: 'busy',
  EDEADLK: 'deadlock',
  EDQUOT: 'quota',
  EEXIST: 'exist',
  EFBIG: 'file-too-large',
  EILSEQ: 'illegal-byte-sequence',
  EINPROGRESS: 'in-progress',
  EINTR: 'interrupted',
  EINVAL: 'invalid',
  EIO: 'io',
  EISDIR: 'is-directory',
  ELOOP: 'loop',
  EMLINK: 'too-many-links',
  EMSGSIZE: 'message-size',
  ENAMETOOLONG: 'name-too-long',
  ENODEV: 'no-device',
  ENOENT: 'no-entry',
  ENOLCK: 'no-lock',
  ENOMEM: 'insufficient-memory',
  EMFILE: 'insufficient-memory',
  ENFILE: 'insufficient-memory',
  ENOSPC: 'insufficient-space',
  ENOTDIR: 'not-directory',
  ENOTEMPTY: 'not-empty',
  ENOTRECOVERABLE: 'not-recoverable',
  ENOTSUP: 'unsupported',
  EOPNOTSUPP: 'unsupported',
  ENOSYS: 'unsupported',
  ENOTTY: 'no-tty',
  ENXIO: 'no-such-device',
  EOVERFLOW: 'overflow',
  EPERM: 'not-permitted',
  EPIPE: 'pipe',
  EROFS: 'read-only',
  ESPIPE: 'invalid-seek',
  ETXTBSY: 'text-file-busy',
  EXDEV: 'cross-device',
};

/** The WASI error code for a thrown Node fs error (`io` when unknown). */
export function fsErrorCode(error: unknown): FsErrorCode {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && ERRNO_TO_CODE[code]) || 'io';
}

/**
 * What to throw for a caught fs error: its WASI code (the glue turns a thrown string into
 * `result::err`), or the error itself when it is not an errno error (a host bug should trap, not
 * masquerade as `io`).
 */
export function toFsError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  return ERRNO_TO_CODE[code] ?? 'io';
}
