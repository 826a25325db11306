/**
 * The preview1 host's functions called the way a hostile guest would: pointers and lengths past the
 * end of its memory, descriptors it never had, paths that climb out of a grant or are absolute,
 * writes into a read-only grant. Each must answer with an errno (FAULT, BADF, PERM, ROFS, ...) and
 * leave host memory and files untouched; only proc_exit ends the call.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERRNO } from '../../../src/wasm/preview1/errno.ts';
import { createPreview1Host, PREVIEW1_FUNCTIONS, type Preview1Host } from '../../../src/wasm/preview1/host.ts';
import { WasiExit, type WasiHostOptions } from '../../../src/wasm/wasi/types.ts';

type HostFunction = (...args: (number | bigint)[]) => number;
const PAGE = 65536;
const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly;

let base: string;
let host: Preview1Host;
let memory: { buffer: ArrayBuffer };
let call: (name: string, ...args: (number | bigint)[]) => number;

function start(options: Partial<WasiHostOptions> = {}): void {
  host = createPreview1Host({ args: ['tool', 'a'], env: { K: 'v' }, preopens: [], networkAllow: [], outputLimitBytes: 1024, ...options });
  memory = new wasm.Memory({ initial: 1 });
  host.bindMemory(memory);
  const functions = host.imports.wasi_snapshot_preview1 as Record<string, HostFunction>;
  call = (name, ...args) => (functions[name] as HostFunction)(...args);
}

const bytes = () => new Uint8Array(memory.buffer);
const view = () => new DataView(memory.buffer);
function putString(at: number, text: string): number {
  const encoded = new TextEncoder().encode(text);
  bytes().set(encoded, at);
  return encoded.byteLength;
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'toolhost-preview1-host-'));
  mkdirSync(join(base, 'rw'));
  mkdirSync(join(base, 'ro'));
  writeFileSync(join(base, 'secret.txt'), 'SECRET');
  writeFileSync(join(base, 'ro', 'a.txt'), 'alpha');
});

afterEach(() => {
  host?.dispose();
  rmSync(base, { recursive: true, force: true });
});

describe('the preview1 host under a hostile guest', () => {
  it('provides every wasi_snapshot_preview1 function', () => {
    expect(PREVIEW1_FUNCTIONS).toHaveLength(46);
    for (const name of ['fd_write', 'path_open', 'poll_oneoff', 'proc_exit', 'sock_accept', 'fd_readdir', 'args_get']) expect(PREVIEW1_FUNCTIONS).toContain(name);
  });

  it('answers FAULT for pointers and lengths past the end of memory, and writes nothing', () => {
    start();
    // An iovec whose buffer runs past the end of the one page.
    view().setUint32(0, PAGE - 4, true);
    view().setUint32(4, 64, true);
    expect(call('fd_write', 1, 0, 1, 16)).toBe(ERRNO.FAULT);
    expect(host.stdout().bytes.byteLength).toBe(0);
    // The iovec list itself, the result pointer, argv, random bytes and path strings out of range.
    expect(call('fd_write', 1, PAGE - 4, 1, 16)).toBe(ERRNO.FAULT);
    expect(call('args_sizes_get', PAGE, 0)).toBe(ERRNO.FAULT);
    expect(call('args_get', PAGE - 4, 0)).toBe(ERRNO.FAULT);
    expect(call('random_get', PAGE - 8, 16)).toBe(ERRNO.FAULT);
    expect(call('random_get', 0, 0xffffffff)).toBe(ERRNO.FAULT);
    expect(call('clock_time_get', 0, 0n, PAGE - 4)).toBe(ERRNO.FAULT);
    expect(call('poll_oneoff', PAGE - 8, 0, 1, 0)).toBe(ERRNO.FAULT);
    // A huge pointer (negative as an i32) is an address past the end, not an index from the start.
    expect(call('fd_write', 1, -8, 1, 16)).toBe(ERRNO.FAULT);
  });

  it('answers BADF for descriptors the guest never had, NOTSOCK for sockets, INVAL for an empty poll', () => {
    start();
    for (const fd of [3, 99, -1, 0x7fffffff]) expect(call('fd_close', fd)).toBe(ERRNO.BADF);
    expect(call('fd_prestat_get', 3, 0)).toBe(ERRNO.BADF);
    expect(call('path_open', 3, 0, 0, 1, 0, 0n, 0n, 0, 0)).toBe(ERRNO.BADF);
    expect(call('fd_read', 1, 0, 0, 0)).toBe(ERRNO.BADF);
    expect(call('fd_write', 0, 0, 0, 0)).toBe(ERRNO.BADF);
    expect(call('fd_seek', 1, 0n, 0, 0)).toBe(ERRNO.SPIPE);
    expect(call('sock_accept', 1, 0, 0)).toBe(ERRNO.NOTSOCK);
    expect(call('sock_recv', 42, 0, 0, 0, 0, 0)).toBe(ERRNO.BADF);
    expect(call('poll_oneoff', 0, 64, 0, 128)).toBe(ERRNO.INVAL);
    expect(call('proc_raise', 6)).toBe(ERRNO.NOSYS);
  });

  it('refuses absolute paths, .. out of a grant and writes into a read-only grant; files outside stay untouched', () => {
    start({ preopens: [{ hostPath: join(base, 'rw'), guestPath: '/rw', mode: 'rw' }, { hostPath: join(base, 'ro'), guestPath: '/ro', mode: 'ro' }] });
    const RIGHTS_READ_WRITE = (1n << 1n) | (1n << 6n);
    const open = (fd: number, path: string, oflags: number, rights: bigint) => call('path_open', fd, 0, 1024, putString(1024, path), oflags, rights, 0n, 0, 0);
    expect(open(3, '../secret.txt', 0, 1n << 1n)).toBe(ERRNO.PERM);
    expect(open(3, '/etc/passwd', 0, 1n << 1n)).toBe(ERRNO.PERM);
    expect(open(3, 'a/../../secret.txt', 1, RIGHTS_READ_WRITE)).not.toBe(ERRNO.SUCCESS);
    expect(open(4, 'a.txt', 8, RIGHTS_READ_WRITE)).toBe(ERRNO.ROFS); // O_TRUNC in a read-only grant
    expect(open(4, 'new.txt', 1, RIGHTS_READ_WRITE)).toBe(ERRNO.ROFS);
    expect(call('path_unlink_file', 4, 1024, putString(1024, 'a.txt'))).toBe(ERRNO.ROFS);
    expect(call('path_create_directory', 3, 1024, putString(1024, '../escape'))).toBe(ERRNO.PERM);
    expect(call('path_symlink', 1024, putString(1024, '/etc'), 3, 2048, putString(2048, 'out'))).not.toBe(ERRNO.SUCCESS);
    expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe('SECRET');
    expect(readFileSync(join(base, 'ro', 'a.txt'), 'utf8')).toBe('alpha');
    expect(existsSync(join(base, 'escape'))).toBe(false);
    // A path that is not UTF-8.
    bytes().set([0xff, 0xfe], 1024);
    expect(call('path_open', 3, 0, 1024, 2, 0, 1n << 1n, 0n, 0, 0)).toBe(ERRNO.ILSEQ);
    // The grant works: create, write, read back through the host.
    expect(open(3, 'ok.txt', 1, RIGHTS_READ_WRITE)).toBe(ERRNO.SUCCESS);
    const fd = view().getUint32(0, true);
    view().setUint32(16, 32, true);
    view().setUint32(20, putString(32, 'written'), true);
    expect(call('fd_write', fd, 16, 1, 8)).toBe(ERRNO.SUCCESS);
    expect(readFileSync(join(base, 'rw', 'ok.txt'), 'utf8')).toBe('written');
  });

  it('names the grants as preopens, in policy order', () => {
    start({ preopens: [{ hostPath: join(base, 'rw'), guestPath: '/work', mode: 'rw' }] });
    expect(call('fd_prestat_get', 3, 0)).toBe(ERRNO.SUCCESS);
    expect(view().getUint8(0)).toBe(0);
    expect(view().getUint32(4, true)).toBe(5);
    expect(call('fd_prestat_dir_name', 3, 64, 4)).toBe(ERRNO.NAMETOOLONG);
    expect(call('fd_prestat_dir_name', 3, 64, 5)).toBe(ERRNO.SUCCESS);
    expect(new TextDecoder().decode(bytes().subarray(64, 69))).toBe('/work');
    expect(call('fd_prestat_get', 4, 0)).toBe(ERRNO.BADF);
  });

  it('caps stdout like the WASI 0.2 host: keeps the first bytes, counts and drops the rest', () => {
    start({ outputLimitBytes: 10 });
    view().setUint32(0, 64, true);
    view().setUint32(4, putString(64, 'x'.repeat(100)), true);
    expect(call('fd_write', 1, 0, 1, 16)).toBe(ERRNO.SUCCESS);
    expect(view().getUint32(16, true)).toBe(100);
    expect(host.stdout()).toMatchObject({ totalBytes: 100, truncated: true });
    expect(host.stdout().bytes.byteLength).toBe(10);
  });

  it('proc_exit ends the call with the exact code (low 8 bits), never the host process', () => {
    start();
    const functions = host.imports.wasi_snapshot_preview1 as Record<string, HostFunction>;
    for (const [code, expected] of [[3, 3], [255, 255], [256, 0], [-1, 255]] as const) {
      let thrown: unknown;
      try {
        (functions['proc_exit'] as HostFunction)(code);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WasiExit);
      expect((thrown as WasiExit).exitCode).toBe(expected);
    }
  });
});
