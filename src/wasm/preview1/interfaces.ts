/**
 * What a wasip1 module's imports stand for, in WASI 0.2 interface names: the `imports` a loaded tool
 * reports (`toolhost inspect`, `check`), so a core module on the preview1 host describes its reach the
 * way a component does (`fd_write` reaches stdout and stderr, `path_open` the granted filesystem, ...).
 */
const FD_STREAMS = ['wasi:cli/stdin', 'wasi:cli/stdout', 'wasi:cli/stderr', 'wasi:io/streams'];
const FILESYSTEM = ['wasi:filesystem/types', 'wasi:filesystem/preopens'];

const INTERFACES_OF: Readonly<Record<string, readonly string[]>> = {
  args_get: ['wasi:cli/environment'],
  args_sizes_get: ['wasi:cli/environment'],
  environ_get: ['wasi:cli/environment'],
  environ_sizes_get: ['wasi:cli/environment'],
  clock_res_get: ['wasi:clocks/monotonic-clock', 'wasi:clocks/wall-clock'],
  clock_time_get: ['wasi:clocks/monotonic-clock', 'wasi:clocks/wall-clock'],
  fd_read: FD_STREAMS,
  fd_write: FD_STREAMS,
  fd_pread: FILESYSTEM,
  fd_pwrite: FILESYSTEM,
  fd_prestat_get: FILESYSTEM,
  fd_prestat_dir_name: FILESYSTEM,
  poll_oneoff: ['wasi:io/poll', 'wasi:clocks/monotonic-clock'],
  proc_exit: ['wasi:cli/exit'],
  random_get: ['wasi:random/random'],
  sock_accept: ['wasi:sockets/tcp'],
  sock_recv: ['wasi:sockets/tcp'],
  sock_send: ['wasi:sockets/tcp'],
  sock_shutdown: ['wasi:sockets/tcp'],
};

/** The sorted WASI 0.2 interfaces the preview1 functions `names` stand for (other fd_* and path_*: the filesystem). */
export function interfacesOfPreview1Imports(names: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const name of names) {
    const interfaces = INTERFACES_OF[name] ?? (name.startsWith('fd_') || name.startsWith('path_') ? FILESYSTEM : []);
    for (const entry of interfaces) found.add(entry);
  }
  return [...found].sort();
}
