/**
 * The preview1 descriptor table of one call. fd 0-2 are stdin (the call's stdin bytes) and stdout /
 * stderr (the capped capture streams of the WASI 0.2 host, cli-stdio.ts); fd 3 onwards are the grants
 * in policy order, each a directory on the confined filesystem host (wasi/filesystem-preopens.ts),
 * opened when the guest first uses one; files and directories the guest opens take the lowest free
 * number after them. A grant's guest path is its preview1 preopen name.
 */
import type { CallContext } from '../wasi/call-context.ts';
import type { Descriptor } from '../wasi/filesystem-types.ts';
import { createPreopens } from '../wasi/filesystem-preopens.ts';
import type { InputStream, OutputStream } from '../wasi/io-streams.ts';
import type { WasiPreopen } from '../wasi/types.ts';
import { ERRNO } from './errno.ts';

export interface StdinFd {
  readonly kind: 'stdin';
  readonly stream: InputStream;
  /** Bytes not read yet (`fd_read` counts them down; poll_oneoff reports them). */
  remaining: number;
}

export interface OutputFd {
  readonly kind: 'stdout' | 'stderr';
  readonly stream: OutputStream;
}

/** A directory the guest may resolve paths beneath: a grant (`preopen` is its guest path) or one it opened. */
export class DirectoryFd {
  readonly kind = 'directory';
  readonly preopen: string | undefined;
  private readonly open: () => Descriptor;
  private opened: Descriptor | undefined;
  /** `fd_readdir`'s listing, read at cookie 0 and reused for the cookies that continue it. */
  listing: { name: string; type: string }[] | undefined;

  constructor(open: () => Descriptor, preopen?: string) {
    this.open = open;
    this.preopen = preopen;
  }

  get descriptor(): Descriptor {
    this.opened ??= this.open();
    return this.opened;
  }

  close(): void {
    this.opened?.close();
  }
}

export class FileFd {
  readonly kind = 'file';
  readonly descriptor: Descriptor;
  /** The file offset `fd_read`/`fd_write`/`fd_seek` use. */
  position = 0;
  append: boolean;
  nonblock: boolean;

  constructor(descriptor: Descriptor, append: boolean, nonblock: boolean) {
    this.descriptor = descriptor;
    this.append = append;
    this.nonblock = nonblock;
  }

  close(): void {
    this.descriptor.close();
  }
}

export type FdEntry = StdinFd | OutputFd | DirectoryFd | FileFd;

export interface FdTableOptions {
  stdin: InputStream;
  stdinBytes: number;
  stdout: OutputStream;
  stderr: OutputStream;
  preopens: readonly WasiPreopen[];
  ctx: CallContext;
}

export class FdTable {
  private readonly entries = new Map<number, FdEntry>();

  constructor(options: FdTableOptions) {
    this.entries.set(0, { kind: 'stdin', stream: options.stdin, remaining: options.stdinBytes });
    this.entries.set(1, { kind: 'stdout', stream: options.stdout });
    this.entries.set(2, { kind: 'stderr', stream: options.stderr });
    if (options.preopens.length > 0) {
      // Validated now (a bad grant fails the call at once, as the WASI 0.2 host does); opened on first use.
      const preopens = createPreopens(options.preopens, options.ctx);
      let roots: Descriptor[] | undefined;
      const root = (index: number) => () => {
        roots ??= preopens.getDirectories().map(([descriptor]) => descriptor);
        return roots[index] as Descriptor;
      };
      options.preopens.forEach((grant, index) => this.entries.set(3 + index, new DirectoryFd(root(index), grant.guestPath)));
    }
  }

  get(fd: number): FdEntry {
    const entry = this.entries.get(fd);
    if (entry === undefined) throw ERRNO.BADF;
    return entry;
  }

  file(fd: number): FileFd {
    const entry = this.get(fd);
    if (entry.kind === 'directory') throw ERRNO.ISDIR;
    if (entry.kind !== 'file') throw ERRNO.BADF;
    return entry;
  }

  directory(fd: number): DirectoryFd {
    const entry = this.get(fd);
    if (entry.kind !== 'directory') throw ERRNO.NOTDIR;
    return entry;
  }

  /** Adds an opened descriptor at the lowest free number. */
  add(entry: FdEntry): number {
    let fd = 3;
    while (this.entries.has(fd)) fd += 1;
    this.entries.set(fd, entry);
    return fd;
  }

  close(fd: number): void {
    const entry = this.get(fd);
    this.entries.delete(fd);
    if (entry.kind === 'directory' || entry.kind === 'file') entry.close();
  }

  renumber(from: number, to: number): void {
    const entry = this.get(from);
    this.get(to);
    if (from === to) return;
    this.close(to);
    this.entries.delete(from);
    this.entries.set(to, entry);
  }
}
