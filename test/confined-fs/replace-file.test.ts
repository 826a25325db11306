/**
 * replaceFileAt (atomic, durable replacement inside a held directory fd) and makeDirectoriesBeneath
 * (mkdir -p one component at a time beneath an anchor fd).
 */
import fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirectoriesBeneath } from '../../src/confined-fs/make-directories.ts';
import { openAnchor } from '../../src/confined-fs/open-beneath.ts';
import { replaceFileAt, TEMP_FILE_PREFIX } from '../../src/confined-fs/replace-file.ts';

let base: string;
let root: string;
let outside: string;
let anchor: number;

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'replace-file-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside');
  anchor = openAnchor(root);
});

afterEach(() => {
  fs.closeSync(anchor);
  fs.rmSync(base, { recursive: true, force: true });
});

const names = (): string[] => fs.readdirSync(root).sort();

describe('replaceFileAt', () => {
  it('creates a new file and replaces an existing one with a new inode, keeping a given mode', async () => {
    await replaceFileAt(anchor, 'a.txt', 'first');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('first');
    const before = fs.statSync(path.join(root, 'a.txt')).ino;
    await replaceFileAt(anchor, 'a.txt', Buffer.from('second'), { mode: 0o640 });
    const after = fs.statSync(path.join(root, 'a.txt'));
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('second');
    expect(after.ino).not.toBe(before);
    expect(after.mode & 0o7777).toBe(0o640);
    expect(names()).toEqual(['a.txt']);
  });

  it('replaces a planted symlink or hard link itself, never writing through it', async () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(root, 'hard.txt'));
    await replaceFileAt(anchor, 'link.txt', 'inside');
    await replaceFileAt(anchor, 'hard.txt', 'inside');
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside');
    expect(fs.lstatSync(path.join(root, 'link.txt')).isFile()).toBe(true);
    expect(fs.statSync(path.join(outside, 'secret.txt')).nlink).toBe(1);
  });

  it('removes its temp file and leaves the target untouched when the replacement fails', async () => {
    fs.writeFileSync(path.join(root, 'keep.txt'), 'old');
    await expect(
      replaceFileAt(anchor, 'keep.txt', 'new', {
        beforeRename: () => {
          throw new Error('changed meanwhile');
        },
      }),
    ).rejects.toThrow('changed meanwhile');
    fs.mkdirSync(path.join(root, 'dir'));
    fs.writeFileSync(path.join(root, 'dir', 'x'), 'x');
    await expect(replaceFileAt(anchor, 'dir', 'new')).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(fs.readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('old');
    expect(names()).toEqual(['dir', 'keep.txt']);
    expect(names().some((name) => name.startsWith(TEMP_FILE_PREFIX))).toBe(false);
  });
});

describe('makeDirectoriesBeneath', () => {
  it('creates every missing level and accepts existing ones', () => {
    makeDirectoriesBeneath(anchor, 'a/b/c');
    makeDirectoriesBeneath(anchor, 'a/b/c');
    makeDirectoriesBeneath(anchor, 'a/b/d');
    expect(fs.statSync(path.join(root, 'a/b/c')).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(root, 'a/b/d')).isDirectory()).toBe(true);
  });

  it('follows symlinks that stay inside, creating the target of a dangling one', () => {
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync('real', path.join(root, 'alias'));
    fs.symlinkSync('pending', path.join(root, 'later'));
    makeDirectoriesBeneath(anchor, 'alias/x/y');
    makeDirectoriesBeneath(anchor, 'later/z');
    expect(fs.statSync(path.join(root, 'real/x/y')).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(root, 'pending/z')).isDirectory()).toBe(true);
  });

  it('refuses symlinks leading outside, existing or dangling, and creates nothing there', () => {
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync(path.join(outside, 'missing'), path.join(root, 'dangling'));
    fs.symlinkSync('../outside', path.join(root, 'up'));
    for (const target of ['out/new', 'dangling/new', 'up/new/deeper']) {
      expect(() => makeDirectoriesBeneath(anchor, target)).toThrow(expect.objectContaining({ escape: true }));
    }
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('reports a file in the way as ENOTDIR', () => {
    fs.writeFileSync(path.join(root, 'file'), 'x');
    expect(() => makeDirectoriesBeneath(anchor, 'file/sub')).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });
});
