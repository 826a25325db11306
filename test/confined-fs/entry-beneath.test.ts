import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  linkBeneath,
  mkdirBeneath,
  readlinkBeneath,
  renameBeneath,
  rmdirBeneath,
  setTimesBeneath,
  statBeneath,
  stripTrailingSlashes,
  symlinkBeneath,
  symlinkTargetInside,
  unlinkBeneath,
} from '../../src/confined-fs/entry-beneath.ts';
import { lookupBeneath, openAnchor, openBeneath, openEntry } from '../../src/confined-fs/open-beneath.ts';

const { O_RDONLY, O_WRONLY, O_TRUNC } = fs.constants;

let base: string;
let root: string;
let outside: string;
let anchor: number;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(tmpdir(), 'entry-beneath-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'a', 'file.txt'), 'inside');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside');
  fs.symlinkSync(outside, path.join(root, 'out-abs'));
  fs.symlinkSync('../outside', path.join(root, 'out-rel'));
  fs.symlinkSync('a', path.join(root, 'in-link'));
  anchor = openAnchor(root);
});

afterEach(() => {
  fs.closeSync(anchor);
  fs.rmSync(base, { recursive: true, force: true });
});

function refusal(action: () => unknown): { code?: string; escape?: boolean } {
  try {
    action();
  } catch (error) {
    return error as { code?: string; escape?: boolean };
  }
  throw new Error('expected a refusal');
}

describe('entry operations beneath an fd', () => {
  it('create, rename, link, symlink, read, stat and remove entries inside', () => {
    mkdirBeneath(anchor, 'a/b/c/');
    expect(fs.statSync(path.join(root, 'a/b/c')).isDirectory()).toBe(true);
    renameBeneath(anchor, 'a/file.txt', anchor, 'in-link/b/c/moved.txt');
    expect(fs.readFileSync(path.join(root, 'a/b/c/moved.txt'), 'utf8')).toBe('inside');
    const linked = linkBeneath(anchor, 'a/b/c/moved.txt', anchor, 'hard.txt');
    expect(linked.source.ino).toBe(linked.link?.ino);
    expect(linked.link?.nlink).toBe(2);
    symlinkBeneath(anchor, 'b/c/moved.txt', 'a/soft');
    expect(readlinkBeneath(anchor, 'a/soft')).toBe('b/c/moved.txt');
    expect(statBeneath(anchor, 'a/soft').isSymbolicLink()).toBe(true);
    expect(statBeneath(anchor, 'a/soft', { followFinal: true }).size).toBe(6);
    expect(statBeneath(anchor, 'a/b/..', { bigint: true }).isDirectory()).toBe(true);
    unlinkBeneath(anchor, 'a/soft');
    unlinkBeneath(anchor, 'hard.txt');
    unlinkBeneath(anchor, 'a/b/c/moved.txt');
    rmdirBeneath(anchor, 'a/b/c');
    expect(fs.readdirSync(path.join(root, 'a'))).toEqual(['b']);
  });

  it('refuses escapes through .., absolute paths and symlinks, creating nothing outside', () => {
    for (const action of [
      () => mkdirBeneath(anchor, '../planted'),
      () => mkdirBeneath(anchor, 'out-abs/planted'),
      () => mkdirBeneath(anchor, 'out-rel/planted'),
      () => mkdirBeneath(anchor, '/tmp/planted'),
      () => renameBeneath(anchor, 'a/file.txt', anchor, 'out-abs/planted'),
      () => renameBeneath(anchor, 'out-rel/secret.txt', anchor, 'stolen.txt'),
      () => linkBeneath(anchor, 'out-abs/secret.txt', anchor, 'stolen.txt'),
      () => linkBeneath(anchor, 'out-rel', anchor, 'stolen.txt', { followFinal: true }),
      () => symlinkBeneath(anchor, 'x', 'out-abs/planted'),
      () => unlinkBeneath(anchor, 'out-rel/secret.txt'),
      () => readlinkBeneath(anchor, 'out-abs/x'),
      () => statBeneath(anchor, 'out-abs', { followFinal: true }),
      () => setTimesBeneath(anchor, 'out-rel/secret.txt', () => [1, 1]),
    ]) {
      expect(refusal(action)).toMatchObject({ code: 'EPERM', escape: true });
    }
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    expect(fs.existsSync(path.join(root, 'stolen.txt'))).toBe(false);
  });

  it('acts on a final symlink itself, never on its target', () => {
    unlinkBeneath(anchor, 'out-abs');
    expect(fs.existsSync(path.join(outside, 'secret.txt'))).toBe(true);
    renameBeneath(anchor, 'out-rel', anchor, 'a/renamed-link');
    expect(fs.readlinkSync(path.join(root, 'a/renamed-link'))).toBe('../outside');
    expect(refusal(() => mkdirBeneath(anchor, 'in-link'))).toMatchObject({ code: 'EEXIST' });
    const mtime = fs.statSync(outside).mtimeMs;
    fs.symlinkSync(outside, path.join(root, 'again'));
    setTimesBeneath(anchor, 'again', () => [1000, 1000]);
    expect(fs.lstatSync(path.join(root, 'again')).mtimeMs).toBe(1_000_000);
    expect(fs.statSync(outside).mtimeMs).toBe(mtime);
  });

  it('refuses entries that are not named: ., .., the anchor', () => {
    for (const action of [
      () => mkdirBeneath(anchor, '.'),
      () => rmdirBeneath(anchor, 'a/..'),
      () => rmdirBeneath(anchor, '..'),
      () => unlinkBeneath(anchor, 'a/.'),
      () => renameBeneath(anchor, 'a', anchor, 'a/b/..'),
      () => readlinkBeneath(anchor, '.'),
    ]) {
      expect(refusal(action)).toMatchObject({ code: 'EINVAL' });
    }
    expect(stripTrailingSlashes('a/b//')).toBe('a/b');
    expect(stripTrailingSlashes('/')).toBe('/');
  });

  it('refuses symlinks whose target leaves the confinement root, counting the anchor depth', () => {
    expect(refusal(() => symlinkBeneath(anchor, '/etc', 'l1'))).toMatchObject({ code: 'EPERM', escape: true });
    expect(refusal(() => symlinkBeneath(anchor, '../outside', 'l2'))).toMatchObject({ code: 'EPERM', escape: true });
    expect(refusal(() => symlinkBeneath(anchor, '../../x', 'a/l3'))).toMatchObject({ code: 'EPERM', escape: true });
    symlinkBeneath(anchor, '../file.txt', 'a/b/l4');
    expect(fs.readFileSync(path.join(root, 'a/b/l4'), 'utf8')).toBe('inside');
    const sub = openAnchor(path.join(root, 'a'));
    try {
      symlinkBeneath(sub, '../in-link', 'l5', { anchorDepth: 1 });
      expect(refusal(() => symlinkBeneath(sub, '../../x', 'l6', { anchorDepth: 1 }))).toMatchObject({ code: 'EPERM' });
    } finally {
      fs.closeSync(sub);
    }
    expect(symlinkTargetInside(0, 'a/../b')).toBe(true);
    expect(symlinkTargetInside(0, 'a/../../b')).toBe(false);
    expect(fs.readdirSync(root).sort()).toEqual(['a', 'in-link', 'out-abs', 'out-rel']);
  });

  it('sets times through the fd and refuses a hard-linked file unless allowed', () => {
    setTimesBeneath(anchor, 'a/file.txt', () => [1000, 2000]);
    expect(fs.statSync(path.join(root, 'a/file.txt')).mtimeMs).toBe(2_000_000);
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(root, 'hard.txt'));
    const mtime = fs.statSync(path.join(outside, 'secret.txt')).mtimeMs;
    expect(refusal(() => setTimesBeneath(anchor, 'hard.txt', () => [1, 1]))).toMatchObject({ code: 'EMLINK' });
    expect(fs.statSync(path.join(outside, 'secret.txt')).mtimeMs).toBe(mtime);
    setTimesBeneath(anchor, 'hard.txt', (current) => [current.atimeMs / 1000, 3000], { allowHardLinks: (stat) => stat.nlink === 2 });
    expect(fs.statSync(path.join(outside, 'secret.txt')).mtimeMs).toBe(3_000_000);
  });
});

describe('openEntry and lookup depth', () => {
  it('opens the directory a path names (., a/.., a/) instead of refusing it', () => {
    for (const relative of ['.', 'a/..', 'a/', 'in-link/b/']) {
      const { fd, stat } = openBeneath(anchor, relative, O_RDONLY);
      expect(stat.isDirectory()).toBe(true);
      fs.closeSync(fd);
    }
    expect(refusal(() => openBeneath(anchor, '.', O_WRONLY))).toMatchObject({ code: 'EISDIR' });
  });

  it('lets a predicate allow writing through a hard link', () => {
    fs.linkSync(path.join(root, 'a/file.txt'), path.join(root, 'a/twin.txt'));
    const lookup = lookupBeneath(anchor, 'a/twin.txt');
    try {
      expect(refusal(() => openEntry(lookup.parentFd, lookup.name, O_WRONLY | O_TRUNC, { allowHardLinks: () => false }))).toMatchObject({ code: 'EMLINK' });
      const { fd, stat } = openEntry(lookup.parentFd, lookup.name, O_WRONLY | O_TRUNC, { allowHardLinks: (current) => current.nlink === 2 });
      fs.closeSync(fd);
      expect(stat.size).toBe(0);
    } finally {
      lookup.release();
    }
  });

  it('reports how deep below the anchor the parent lies', () => {
    const depths = ['x', 'a/x', 'a/b/x', 'in-link/b/x', 'a/b/../x', '.', 'a/b/'].map((relative) => {
      const lookup = lookupBeneath(anchor, relative);
      lookup.release();
      return lookup.depth;
    });
    expect(depths).toEqual([0, 1, 2, 2, 1, 0, 2]);
  });
});
