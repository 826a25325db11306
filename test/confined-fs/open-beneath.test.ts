import fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BeneathError, entryPath, lookupBeneath, openAnchor, openBeneath } from '../../src/confined-fs/open-beneath.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_TRUNC, O_EXCL } = fs.constants;

let base: string;
let root: string;
let outside: string;
let anchor: number;

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'beneath-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'a', 'b', 'file.txt'), 'inside');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside');
  anchor = openAnchor(root);
});

afterEach(() => {
  fs.closeSync(anchor);
  fs.rmSync(base, { recursive: true, force: true });
});

function readVia(relative: string, follow = true): string {
  const { fd } = openBeneath(anchor, relative, O_RDONLY, { followFinal: follow });
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function refusal(action: () => unknown): BeneathError | NodeJS.ErrnoException {
  try {
    action();
  } catch (error) {
    return error as BeneathError;
  }
  throw new Error('expected a refusal');
}

describe('openBeneath', () => {
  it('opens nested files and resolves . and .. inside the anchor', () => {
    expect(readVia('a/b/file.txt')).toBe('inside');
    expect(readVia('a/./b/../b/file.txt')).toBe('inside');
  });

  it('refuses absolute paths and .. above the anchor', () => {
    expect(refusal(() => readVia('/etc/passwd'))).toMatchObject({ code: 'EPERM', escape: true });
    expect(refusal(() => readVia('../outside/secret.txt'))).toMatchObject({ code: 'EPERM', escape: true });
    expect(refusal(() => readVia('a/../../outside/secret.txt'))).toMatchObject({ code: 'EPERM', escape: true });
  });

  it('follows relative symlinks that stay inside and refuses those that leave', () => {
    fs.symlinkSync('b', path.join(root, 'a', 'link'));
    expect(readVia('a/link/file.txt')).toBe('inside');
    fs.symlinkSync('b/file.txt', path.join(root, 'a', 'filelink'));
    expect(readVia('a/filelink')).toBe('inside');
    fs.symlinkSync(outside, path.join(root, 'abs'));
    expect(refusal(() => readVia('abs/secret.txt'))).toMatchObject({ code: 'EPERM', escape: true });
    fs.symlinkSync('../../outside', path.join(root, 'a', 'up'));
    expect(refusal(() => readVia('a/up/secret.txt'))).toMatchObject({ code: 'EPERM', escape: true });
  });

  it('never follows a final symlink unless asked', () => {
    fs.symlinkSync('b/file.txt', path.join(root, 'a', 'filelink'));
    expect(refusal(() => readVia('a/filelink', false))).toMatchObject({ code: 'ELOOP' });
  });

  it('gives ELOOP for symlink cycles', () => {
    fs.symlinkSync('loop2', path.join(root, 'loop1'));
    fs.symlinkSync('loop1', path.join(root, 'loop2'));
    expect(refusal(() => readVia('loop1/x'))).toMatchObject({ code: 'ELOOP' });
  });

  it('does not create a file through a dangling symlink pointing outside', () => {
    fs.symlinkSync(path.join(outside, 'created.txt'), path.join(root, 'dangling'));
    expect(refusal(() => openBeneath(anchor, 'dangling', O_WRONLY | O_CREAT))).toMatchObject({ code: 'ELOOP' });
    expect(fs.existsSync(path.join(outside, 'created.txt'))).toBe(false);
  });

  it('refuses to write or truncate through a hard link, and leaves its target intact', () => {
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(root, 'hard.txt'));
    expect(refusal(() => openBeneath(anchor, 'hard.txt', O_WRONLY | O_TRUNC))).toMatchObject({ code: 'EMLINK' });
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside');
    const { fd } = openBeneath(anchor, 'hard.txt', O_RDONLY);
    fs.closeSync(fd);
  });

  it('creates with O_EXCL and truncates regular files', () => {
    const created = openBeneath(anchor, 'a/new.txt', O_WRONLY | O_CREAT | O_EXCL);
    fs.writeSync(created.fd, 'hello');
    fs.closeSync(created.fd);
    const truncated = openBeneath(anchor, 'a/new.txt', O_WRONLY | O_TRUNC);
    expect(truncated.stat.size).toBe(0);
    fs.closeSync(truncated.fd);
  });

  it('closes every directory fd it opened', () => {
    const before = fs.readdirSync('/proc/self/fd').length;
    for (let index = 0; index < 200; index++) {
      const lookup = lookupBeneath(anchor, 'a/b/file.txt');
      expect(fs.readFileSync(entryPath(lookup.parentFd, lookup.name), 'utf8')).toBe('inside');
      lookup.release();
      try {
        readVia('a/../../x');
      } catch {
        // refused: its fds must be released too
      }
    }
    expect(fs.readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before + 2);
  });
});
