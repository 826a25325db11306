import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ToolHostError } from '../../../src/errors.ts';
import type { Descriptor } from '../../../src/wasm/wasi/filesystem-types.ts';
import { createWasiHost } from '../../../src/wasm/wasi/host.ts';
import type { WasiPreopen } from '../../../src/wasm/wasi/types.ts';
import { baseOptions, type Fixture, loadFixture } from './fixtures.ts';

let fsTool: Fixture;
let base: string;
let rw: string;
let ro: string;
let outside: string;
let preopens: WasiPreopen[];

beforeAll(async () => {
  fsTool = await loadFixture('wasi-fs');
}, 60_000);

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'wasi-fs-'));
  rw = join(base, 'rw');
  ro = join(base, 'ro');
  outside = join(base, 'outside');
  for (const d of [rw, ro, outside, join(ro, 'sub')]) mkdirSync(d);
  writeFileSync(join(outside, 'secret.txt'), 'SECRET');
  writeFileSync(join(ro, 'a.txt'), 'read-only content');
  writeFileSync(join(ro, 'sub', 'b.txt'), 'bee');
  writeFileSync(join(rw, 'existing.txt'), 'existing');
  symlinkSync(outside, join(rw, 'out-abs'));
  symlinkSync('../outside', join(rw, 'out-rel'));
  symlinkSync('../outside/secret.txt', join(ro, 'secret-link'));
  symlinkSync('existing.txt', join(rw, 'in-link'));
  preopens = [
    { hostPath: rw, guestPath: '/rw', mode: 'rw' },
    { hostPath: ro, guestPath: '/ro', mode: 'ro' },
  ];
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** Runs the fs tool; returns its result lines. */
function fsRun(...ops: string[]): string[] {
  const r = fsTool.run({ args: ['wasi-fs', ...ops], preopens });
  expect(r.error).toBeUndefined();
  expect(r.exitCode).toBe(0);
  return r.stdout.trimEnd().split('\n');
}

describe('filesystem through C programs', () => {
  it('sees no filesystem without preopens', () => {
    const r = fsTool.run({ args: ['wasi-fs', 'ls', '/', 'cat', '/etc/passwd', 'ls', '.'] });
    expect(r.stdout).not.toContain(' ok');
  });

  it('lists and reads a read-only grant', () => {
    expect(fsRun('ls', '/ro', 'cat', '/ro/a.txt', 'cat', '/ro/sub/b.txt', 'pread', '/ro/a.txt', '5', '4', 'stat', '/ro/sub/b.txt')).toEqual([
      'ls ok ../ ./ a.txt secret-link@ sub/',
      'cat ok read-only content',
      'cat ok bee',
      'pread ok only',
      'stat ok f 3',
    ]);
  });

  it('writes, appends, renames, links, truncates and removes in a rw grant', () => {
    const out = fsRun(
      'write', '/rw/new.txt', 'hello',
      'append', '/rw/new.txt', ' world',
      'cat', '/rw/new.txt',
      'mkdir', '/rw/dir',
      'rename', '/rw/new.txt', '/rw/dir/moved.txt',
      'link', '/rw/dir/moved.txt', '/rw/hard.txt',
      'symlink', 'dir/moved.txt', '/rw/soft',
      'cat', '/rw/soft',
      'readlink', '/rw/soft',
      'pwrite', '/rw/hard.txt', '0', 'J',
      'truncate', '/rw/hard.txt', '5',
      'cat', '/rw/dir/moved.txt',
      'creatx', '/rw/hard.txt',
      'rmdir', '/rw/dir',
      'unlink', '/rw/dir/moved.txt',
      'rmdir', '/rw/dir',
      'utime', '/rw/hard.txt',
    );
    expect(out).toEqual([
      'write ok 5',
      'append ok 6',
      'cat ok hello world',
      'mkdir ok',
      'rename ok',
      'link ok',
      'symlink ok',
      'cat ok hello world',
      'readlink ok dir/moved.txt',
      'pwrite ok 1',
      'truncate ok',
      'cat ok Jello',
      'creatx err EEXIST',
      'rmdir err ENOTEMPTY',
      'unlink ok',
      'rmdir ok',
      'utime ok',
    ]);
    expect(readFileSync(join(rw, 'hard.txt'), 'utf8')).toBe('Jello');
    expect(statSync(join(rw, 'hard.txt')).mtimeMs).toBe(1e12);
    expect(existsSync(join(rw, 'dir'))).toBe(false);
  });

  it('follows symlinks that stay inside the grant; relative paths after chdir work', () => {
    expect(fsRun('cat', '/rw/in-link', 'chdir', '/rw', 'cat', 'existing.txt', 'cat', './in-link')).toEqual([
      'cat ok existing',
      'chdir ok',
      'cat ok existing',
      'cat ok existing',
    ]);
  });

  it('refuses every escape: .., pre-existing symlinks out, guest-made symlinks out', () => {
    const out = fsRun(
      'cat', '/rw/../../outside/secret.txt',
      'cat', '/rw/../outside/secret.txt',
      'cat', '/ro/../../etc/passwd',
      'cat', '/rw/out-abs/secret.txt',
      'cat', '/rw/out-rel/secret.txt',
      'ls', '/rw/out-abs',
      'stat', '/rw/out-rel',
      'cat', '/ro/secret-link',
      'symlink', '/etc', '/rw/etc',
      'symlink', '../outside', '/rw/mine',
      'symlink', 'a/../../outside', '/rw/mine2',
      'write', '/rw/out-abs/planted.txt', 'x',
      'mkdir', '/rw/out-rel/planted',
      'chdir', '/rw',
      'cat', '../../etc/passwd',
      'cat', '../outside/secret.txt',
    );
    expect(out).toEqual([
      'cat err EPERM',
      'cat err EPERM',
      'cat err EPERM',
      'cat err EPERM',
      'cat err EPERM',
      'ls err EPERM',
      'stat err EPERM',
      'cat err EPERM',
      'symlink err EPERM',
      'symlink err EPERM',
      'symlink err EPERM',
      'write err EPERM',
      'mkdir err EPERM',
      'chdir ok',
      'cat err EPERM',
      'cat err EPERM',
    ]);
    expect(existsSync(join(rw, 'etc'))).toBe(false);
    expect(existsSync(join(rw, 'mine'))).toBe(false);
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(join(outside, 'planted'))).toBe(false);
  });

  it('refuses writes through a hard link to an outside file; links the guest made are writable in that call only', () => {
    linkSync(join(outside, 'secret.txt'), join(rw, 'planted.txt'));
    expect(fsRun(
      'write', '/rw/planted.txt', 'x',
      'append', '/rw/planted.txt', 'x',
      'openrw', '/rw/planted.txt',
      'truncate', '/rw/planted.txt', '0',
      'utime', '/rw/planted.txt',
      'cat', '/rw/planted.txt',
      'link', '/rw/existing.txt', '/rw/mine.txt',
      'pwrite', '/rw/mine.txt', '0', 'E',
    )).toEqual([
      'write err EMLINK',
      'append err EMLINK',
      'openrw err EMLINK',
      'truncate err EMLINK',
      'utime err EMLINK',
      'cat ok SECRET',
      'link ok',
      'pwrite ok 1',
    ]);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
    expect(statSync(join(outside, 'secret.txt')).mtimeMs).not.toBe(1e12);
    // The next call cannot tell the guest's old link from a planted one.
    expect(fsRun('pwrite', '/rw/mine.txt', '0', 'F', 'cat', '/rw/existing.txt')).toEqual(['pwrite err EMLINK', 'cat ok Existing']);
  });

  it('keeps no host fd after many calls that open, list, create and get refused', () => {
    mkdirSync(join(rw, 'd'));
    const ops = ['write', '/rw/d/f.txt', 'x', 'cat', '/rw/d/f.txt', 'ls', '/rw/d', 'ls', '/rw', 'cat', '/rw/out-abs/secret.txt',
      'cat', '/rw/../outside/secret.txt', 'mkdir', '/rw/d/e', 'rename', '/rw/d/e', '/rw/d/g', 'rmdir', '/rw/d/g', 'cat', '/rw/missing',
      'stat', '/rw/in-link', 'symlink', '../outside', '/rw/d/l', 'unlink', '/rw/d/f.txt', 'ls', '/ro/sub', 'write', '/ro/x', 'x'];
    fsRun(...ops);
    const before = readdirSync('/proc/self/fd').length;
    for (let index = 0; index < 100; index++) {
      const out = fsRun(...ops);
      expect(out.filter((line) => line.includes(' ok')).length).toBe(10);
    }
    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('absolute paths outside every grant are not reachable', () => {
    expect(fsRun('cat', '/etc/passwd', 'ls', '/', 'cat', join(outside, 'secret.txt'))).toEqual([
      'cat err ENOTCAPABLE',
      'ls err ENOTCAPABLE',
      'cat err ENOTCAPABLE',
    ]);
  });

  it('refuses every mutation in a read-only grant', () => {
    const out = fsRun(
      'write', '/ro/new.txt', 'x',
      'write', '/ro/a.txt', 'x',
      'append', '/ro/a.txt', 'x',
      'openrw', '/ro/a.txt',
      'openro', '/ro/a.txt',
      'creatx', '/ro/c.txt',
      'mkdir', '/ro/d',
      'rmdir', '/ro/sub',
      'unlink', '/ro/a.txt',
      'rename', '/ro/a.txt', '/ro/b.txt',
      'rename', '/ro/a.txt', '/rw/stolen.txt',
      'rename', '/rw/existing.txt', '/ro/planted.txt',
      'link', '/ro/a.txt', '/rw/hard.txt',
      'symlink', 'a.txt', '/ro/l',
      'truncate', '/ro/a.txt', '0',
      'utime', '/ro/a.txt',
    );
    expect(out).toEqual([
      'write err EROFS',
      'write err EROFS',
      'append err EROFS',
      'openrw err EROFS',
      'openro ok',
      'creatx err EROFS',
      'mkdir err EROFS',
      'rmdir err EROFS',
      'unlink err EROFS',
      'rename err EROFS',
      'rename err EROFS',
      'rename err EROFS',
      'link err EROFS',
      'symlink err EROFS',
      'truncate err EROFS',
      'utime err EROFS',
    ]);
    expect(readFileSync(join(ro, 'a.txt'), 'utf8')).toBe('read-only content');
    expect(existsSync(join(ro, 'sub'))).toBe(true);
    expect(existsSync(join(rw, 'existing.txt'))).toBe(true);
    expect(existsSync(join(rw, 'hard.txt'))).toBe(false);
  });
});

/** What a call threw (the glue turns it into `result::err`). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return 'no error';
}

function roots(): { host: ReturnType<typeof createWasiHost>; rwDir: Descriptor; roDir: Descriptor } {
  const host = createWasiHost(baseOptions({ preopens }));
  const dirs = (host.imports['wasi:filesystem/preopens'] as { getDirectories(): Array<[Descriptor, string]> }).getDirectories();
  expect(dirs.map(([, p]) => p)).toEqual(['/rw', '/ro']);
  return { host, rwDir: dirs[0]![0], roDir: dirs[1]![0] };
}

const FOLLOW = { symlinkFollow: true };
const NOFOLLOW = { symlinkFollow: false };
const READ = { read: true };
const WRITE = { read: true, write: true };

describe('wasi:filesystem/types descriptor API', () => {
  it('refuses absolute guest paths and .. above the descriptor', () => {
    const { rwDir } = roots();
    expect(thrown(() => rwDir.openAt(FOLLOW, '/etc/passwd', {}, READ))).toBe('not-permitted');
    expect(thrown(() => rwDir.statAt(FOLLOW, '/'))).toBe('not-permitted');
    expect(thrown(() => rwDir.openAt(FOLLOW, '..', {}, READ))).toBe('not-permitted');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'a/../../rw/existing.txt', {}, READ))).toBe('no-entry');
    expect(thrown(() => rwDir.openAt(FOLLOW, './../rw', {}, READ))).toBe('not-permitted');
    expect(thrown(() => rwDir.openAt(FOLLOW, '', {}, READ))).toBe('no-entry');
    const sub = rwDir.openAt(FOLLOW, '.', { directory: true }, READ);
    expect(sub.getType()).toBe('directory');
  });

  it('a subdirectory descriptor cannot climb to its parent', () => {
    const { roDir } = roots();
    const sub = roDir.openAt(FOLLOW, 'sub', { directory: true }, READ);
    expect(thrown(() => sub.openAt(FOLLOW, '../a.txt', {}, READ))).toBe('not-permitted');
    const [bytes] = sub.openAt(FOLLOW, 'b.txt', {}, READ).read(100n, 0n);
    expect(Buffer.from(bytes).toString()).toBe('bee');
  });

  it('symlinks out of the grant fail however they are reached', () => {
    const { rwDir, roDir } = roots();
    expect(thrown(() => rwDir.openAt(FOLLOW, 'out-abs/secret.txt', {}, READ))).toBe('not-permitted');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'out-rel/secret.txt', {}, READ))).toBe('not-permitted');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'out-abs', { directory: true }, READ))).toBe('not-permitted');
    expect(thrown(() => rwDir.statAt(FOLLOW, 'out-rel'))).toBe('not-permitted');
    expect(thrown(() => roDir.openAt(FOLLOW, 'secret-link', {}, READ))).toBe('not-permitted');
    // Not following the final link: it is the link itself, which cannot be opened.
    expect(thrown(() => rwDir.openAt(NOFOLLOW, 'out-abs', {}, READ))).toBe('loop');
    expect(rwDir.statAt(NOFOLLOW, 'out-abs').type).toBe('symbolic-link');
    expect(thrown(() => rwDir.symlinkAt('/etc', 'x'))).toBe('not-permitted');
    expect(thrown(() => rwDir.symlinkAt('../outside', 'x'))).toBe('not-permitted');
    expect(thrown(() => rwDir.symlinkAt('../../../../../../etc/passwd', 'x'))).toBe('not-permitted');
    expect(existsSync(join(rw, 'x'))).toBe(false);
  });

  it('a symlink planted in the host dir later cannot be opened through (O_NOFOLLOW, expanded beneath the fd)', () => {
    const { rwDir } = roots();
    symlinkSync(join(outside, 'secret.txt'), join(rw, 'late'));
    expect(thrown(() => rwDir.openAt(NOFOLLOW, 'late', {}, READ))).toBe('loop');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'late', {}, READ))).toBe('not-permitted');
  });

  it('symlink loops give loop', () => {
    const { rwDir } = roots();
    rwDir.symlinkAt('l2', 'l1');
    rwDir.symlinkAt('l1', 'l2');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'l1', {}, READ))).toBe('loop');
  });

  it('read-only grants refuse every mutation with read-only', () => {
    const { roDir, rwDir } = roots();
    const file = roDir.openAt(FOLLOW, 'a.txt', {}, READ);
    const never = { tag: 'now' } as const;
    const attempts: Array<[string, () => unknown]> = [
      ['open write', () => roDir.openAt(FOLLOW, 'a.txt', {}, WRITE)],
      ['open create', () => roDir.openAt(FOLLOW, 'n.txt', { create: true }, READ)],
      ['open truncate', () => roDir.openAt(FOLLOW, 'a.txt', { truncate: true }, READ)],
      ['open mutate-directory', () => roDir.openAt(FOLLOW, 'sub', { directory: true }, { read: true, mutateDirectory: true })],
      ['create-directory-at', () => roDir.createDirectoryAt('d')],
      ['remove-directory-at', () => roDir.removeDirectoryAt('sub')],
      ['unlink-file-at', () => roDir.unlinkFileAt('a.txt')],
      ['rename-at', () => roDir.renameAt('a.txt', roDir, 'b.txt')],
      ['rename-at out', () => roDir.renameAt('a.txt', rwDir, 'b.txt')],
      ['rename-at in', () => rwDir.renameAt('existing.txt', roDir, 'b.txt')],
      ['symlink-at', () => roDir.symlinkAt('a.txt', 'l')],
      ['link-at', () => roDir.linkAt(FOLLOW, 'a.txt', roDir, 'h')],
      ['link-at out', () => roDir.linkAt(FOLLOW, 'a.txt', rwDir, 'h')],
      ['set-times-at', () => roDir.setTimesAt(FOLLOW, 'a.txt', never, never)],
      ['set-times dir', () => roDir.setTimes(never, never)],
      ['set-times file', () => file.setTimes(never, never)],
      ['set-size', () => file.setSize(0n)],
      ['write', () => file.write(new Uint8Array([1]), 0n)],
      ['write-via-stream', () => file.writeViaStream(0n)],
      ['append-via-stream', () => file.appendViaStream()],
    ];
    for (const [name, attempt] of attempts) expect([name, thrown(attempt)]).toEqual([name, 'read-only']);
    expect(readFileSync(join(ro, 'a.txt'), 'utf8')).toBe('read-only content');
    expect(roDir.getFlags()).toEqual({ read: true, mutateDirectory: false });
    expect(rwDir.getFlags()).toEqual({ read: true, mutateDirectory: true });
  });

  it('reads, writes and streams files in a rw grant', () => {
    const { rwDir, host } = roots();
    const f = rwDir.openAt(FOLLOW, 'f.bin', { create: true, exclusive: true }, WRITE);
    expect(f.getType()).toBe('regular-file');
    expect(f.getFlags()).toMatchObject({ read: true, write: true });
    expect(f.write(new TextEncoder().encode('0123456789'), 0n)).toBe(10n);
    const out = f.writeViaStream(4n);
    out.blockingWriteAndFlush(new TextEncoder().encode('ab'));
    out.write(new TextEncoder().encode('cd'));
    const app = f.appendViaStream();
    app.blockingWriteAndFlush(new TextEncoder().encode('!'));
    expect(readFileSync(join(rw, 'f.bin'), 'utf8')).toBe('0123abcd89!');
    const [part, eof] = f.read(3n, 2n);
    expect([Buffer.from(part).toString(), eof]).toEqual(['23a', false]);
    const [tail, end] = f.read(10n, 100n);
    expect([tail.byteLength, end]).toEqual([0, true]);
    const input = f.readViaStream(8n);
    expect(Buffer.from(input.read(100n)).toString()).toBe('89!');
    expect(thrown(() => input.read(100n))).toEqual({ tag: 'closed' });
    f.setSize(4n);
    expect(f.stat()).toMatchObject({ type: 'regular-file', size: 4n, linkCount: 1n });
    expect(rwDir.statAt(FOLLOW, 'f.bin').size).toBe(4n);
    f.setTimes({ tag: 'timestamp', val: { seconds: 1_000_000n, nanoseconds: 0 } }, { tag: 'no-change' });
    expect(statSync(join(rw, 'f.bin')).atimeMs).toBe(1e9);
    expect(thrown(() => rwDir.openAt(FOLLOW, 'f.bin', { create: true, exclusive: true }, WRITE))).toBe('exist');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'missing', {}, READ))).toBe('no-entry');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'f.bin', { directory: true }, READ))).toBe('not-directory');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'f.bin/x', {}, READ))).toBe('not-directory');
    const ro = rwDir.openAt(FOLLOW, 'f.bin', {}, READ);
    expect(thrown(() => ro.write(new Uint8Array(1), 0n))).toBe('bad-descriptor');
    expect(rwDir.isSameObject(rwDir)).toBe(true);
    expect(f.isSameObject(ro)).toBe(true);
    expect(f.isSameObject(rwDir)).toBe(false);
    expect(f.metadataHash()).toEqual(rwDir.metadataHashAt(FOLLOW, 'f.bin'));
    expect(thrown(() => rwDir.read(1n, 0n))).toBe('is-directory');
    expect(thrown(() => f.readDirectory())).toBe('not-directory');
    f.sync();
    f.syncData();
    f.advise(0n, 0n, 'normal');
    host.dispose();
    expect(f.fd).toBe(-1);
    expect(thrown(() => f.read(1n, 0n))).toBe('bad-descriptor');
  });

  it('directory operations: read-directory, create/remove, rename, link, readlink', () => {
    const { rwDir } = roots();
    rwDir.createDirectoryAt('d');
    expect(thrown(() => rwDir.createDirectoryAt('d'))).toBe('exist');
    const d = rwDir.openAt(FOLLOW, 'd', { directory: true }, READ);
    expect(thrown(() => rwDir.openAt(FOLLOW, 'missing', { directory: true, create: true }, READ))).toBe('invalid');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'd', { directory: true, create: true, exclusive: true }, READ))).toBe('exist');
    rwDir.symlinkAt('d', 'dir-link');
    expect(rwDir.openAt(FOLLOW, 'dir-link', { directory: true, create: true }, READ).getType()).toBe('directory');
    expect(thrown(() => rwDir.openAt(NOFOLLOW, 'dir-link', { directory: true }, READ))).not.toBe('no error');
    rwDir.unlinkFileAt('dir-link');
    d.openAt(FOLLOW, 'f', { create: true }, WRITE).write(new TextEncoder().encode('x'), 0n);
    d.linkAt(FOLLOW, 'f', rwDir, 'f-hard');
    d.renameAt('f', rwDir, 'f-moved');
    rwDir.symlinkAt('d/../f-moved', 'lnk');
    expect(rwDir.readlinkAt('lnk')).toBe('d/../f-moved');
    expect(rwDir.statAt(FOLLOW, 'lnk').type).toBe('regular-file');
    const entries: Array<{ type: string; name: string }> = [];
    const stream = rwDir.readDirectory();
    for (let e = stream.readDirectoryEntry(); e; e = stream.readDirectoryEntry()) entries.push(e);
    expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { type: 'directory', name: 'd' },
      { type: 'regular-file', name: 'existing.txt' },
      { type: 'regular-file', name: 'f-hard' },
      { type: 'regular-file', name: 'f-moved' },
      { type: 'symbolic-link', name: 'in-link' },
      { type: 'symbolic-link', name: 'lnk' },
      { type: 'symbolic-link', name: 'out-abs' },
      { type: 'symbolic-link', name: 'out-rel' },
    ]);
    expect(thrown(() => rwDir.unlinkFileAt('d'))).toBe('is-directory');
    expect(thrown(() => rwDir.removeDirectoryAt('existing.txt'))).toBe('not-directory');
    expect(thrown(() => rwDir.removeDirectoryAt('.'))).toBe('invalid');
    expect(thrown(() => rwDir.removeDirectoryAt('d/..'))).toBe('invalid');
    expect(thrown(() => d.removeDirectoryAt('..'))).toBe('invalid');
    rwDir.removeDirectoryAt('d');
    // Unlinking a symlink removes the link, never its (outside) target.
    rwDir.unlinkFileAt('out-abs');
    expect(existsSync(join(outside, 'secret.txt'))).toBe(true);
    expect(lstatSync(join(rw, 'out-rel')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(rw, 'lnk'))).toBe('d/../f-moved');
  });

  it('filesystem-error-code reads the code of a failed stream operation', () => {
    const { rwDir, host } = roots();
    const types = host.imports['wasi:filesystem/types'] as { filesystemErrorCode(e: unknown): unknown };
    const dirFd = rwDir.openAt(FOLLOW, 'existing.txt', {}, READ);
    const input = dirFd.readViaStream(0n);
    host.dispose();
    expect(thrown(() => input.read(1n))).toEqual({ tag: 'closed' });
    const io = host.imports['wasi:io/error'] as { Error: new (m: string, c?: string) => unknown };
    expect(types.filesystemErrorCode(new io.Error('x', 'io'))).toBe('io');
    expect(types.filesystemErrorCode({})).toBeUndefined();
  });

  it('caps the files one call may hold open and closes them on dispose', () => {
    const { rwDir, host } = roots();
    const files: Descriptor[] = [];
    let error: unknown;
    for (let i = 0; i < 300 && error === undefined; i++) {
      try {
        files.push(rwDir.openAt(FOLLOW, 'existing.txt', {}, READ));
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBe('insufficient-memory');
    // The cap counts every host fd of the call: the two grant roots and the files.
    expect(files.length).toBe(256 - 2);
    host.dispose();
    expect(files.every((f) => f.fd === -1)).toBe(true);
  });

  it('a directory descriptor holds its directory: replacing its path with a symlink out does not redirect it', () => {
    const { rwDir, host } = roots();
    rwDir.createDirectoryAt('d');
    const d = rwDir.openAt(FOLLOW, 'd', { directory: true }, READ);
    renameSync(join(rw, 'd'), join(rw, 'd-moved'));
    symlinkSync(outside, join(rw, 'd'));
    d.openAt(FOLLOW, 'created.txt', { create: true }, WRITE).write(new TextEncoder().encode('x'), 0n);
    d.createDirectoryAt('sub');
    d.symlinkAt('created.txt', 'lnk');
    const names: string[] = [];
    const stream = d.readDirectory();
    for (let entry = stream.readDirectoryEntry(); entry; entry = stream.readDirectoryEntry()) names.push(entry.name);
    expect(names.sort()).toEqual(['created.txt', 'lnk', 'sub']);
    expect(readdirSync(join(rw, 'd-moved')).sort()).toEqual(['created.txt', 'lnk', 'sub']);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    // Through the grant root, the swapped-in symlink is refused as any symlink out.
    expect(thrown(() => rwDir.openAt(FOLLOW, 'd/secret.txt', {}, READ))).toBe('not-permitted');
    host.dispose();
  });

  it('refuses to set times through a hard link opened read-only, and to write through one', () => {
    const { rwDir, host } = roots();
    linkSync(join(outside, 'secret.txt'), join(rw, 'planted.txt'));
    const mtime = statSync(join(outside, 'secret.txt')).mtimeMs;
    const file = rwDir.openAt(FOLLOW, 'planted.txt', {}, READ);
    const stamp = { tag: 'timestamp', val: { seconds: 1_000_000n, nanoseconds: 0 } } as const;
    expect(thrown(() => file.setTimes(stamp, stamp))).toBe('too-many-links');
    expect(thrown(() => rwDir.setTimesAt(NOFOLLOW, 'planted.txt', stamp, stamp))).toBe('too-many-links');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'planted.txt', {}, WRITE))).toBe('too-many-links');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'planted.txt', { truncate: true }, WRITE))).toBe('too-many-links');
    expect(thrown(() => rwDir.openAt(FOLLOW, 'planted.txt', { create: true }, WRITE))).toBe('too-many-links');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
    expect(statSync(join(outside, 'secret.txt')).mtimeMs).toBe(mtime);
    host.dispose();
  });

  it('closes directory descriptors and lookups: no host fd left after dispose, also for refused paths', () => {
    const before = readdirSync('/proc/self/fd').length;
    for (let call = 0; call < 20; call++) {
      const { rwDir, roDir, host } = roots();
      for (let index = 0; index < 50; index++) {
        roDir.openAt(FOLLOW, 'sub', { directory: true }, READ);
        expect(thrown(() => rwDir.openAt(FOLLOW, 'out-rel/secret.txt', {}, READ))).toBe('not-permitted');
        expect(thrown(() => roDir.statAt(FOLLOW, 'sub/../../x'))).toBe('not-permitted');
        expect(thrown(() => roDir.openAt(FOLLOW, 'sub/missing/x', {}, READ))).toBe('no-entry');
      }
      host.dispose();
    }
    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('rejects unusable preopens at host creation', () => {
    expect(() => createWasiHost(baseOptions({ preopens: [{ hostPath: join(base, 'nope'), guestPath: '/x', mode: 'ro' }] }))).toThrow(ToolHostError);
    expect(() => createWasiHost(baseOptions({ preopens: [{ hostPath: 'relative', guestPath: '/x', mode: 'ro' }] }))).toThrow(/not absolute/);
  });

  it('a grant whose host path is itself a symlink is confined to the real directory', () => {
    const link = join(base, 'rw-link');
    symlinkSync(rw, link);
    const host = createWasiHost(baseOptions({ preopens: [{ hostPath: link, guestPath: '/w', mode: 'rw' }] }));
    const [[dir]] = (host.imports['wasi:filesystem/preopens'] as { getDirectories(): Array<[Descriptor, string]> }).getDirectories() as [[Descriptor, string]];
    expect(Buffer.from(dir.openAt(FOLLOW, 'existing.txt', {}, READ).read(100n, 0n)[0]).toString()).toBe('existing');
    expect(thrown(() => dir.openAt(FOLLOW, 'out-rel/secret.txt', {}, READ))).toBe('not-permitted');
    host.dispose();
  });
});
