/**
 * The paginated listing behind resources/list, on real directories: pages of any size together give
 * every file exactly once in walk order, also when a page is cut by the number of entries looked at
 * (a tree of empty folders); ignored directories, links out and special files are not listed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnchor } from '../../src/confined-fs/open-beneath.ts';
import { listWorkspaceFiles, type ListingOptions } from '../../src/resources/workspace-listing.ts';

let scratch: string;
let root: string;
let anchorFd: number;

const EXPECTED = ['a.txt', 'b/c/d.txt', 'b/c/e.txt', 'b/f.txt', 'link-in.txt', 'm/n/o/p.txt', 'z.txt'];

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-listing-')));
  root = join(scratch, 'root');
  mkdirSync(join(root, 'b/c'), { recursive: true });
  mkdirSync(join(root, 'empty1/empty2/empty3'), { recursive: true });
  mkdirSync(join(root, 'm/n/o'), { recursive: true });
  mkdirSync(join(root, 'node_modules/x'), { recursive: true });
  mkdirSync(join(root, '.git'));
  for (const file of ['a.txt', 'b/c/d.txt', 'b/c/e.txt', 'b/f.txt', 'm/n/o/p.txt', 'z.txt', 'node_modules/x/i.js', '.git/HEAD']) writeFileSync(join(root, file), file);
  writeFileSync(join(scratch, 'secret.txt'), 'secret');
  symlinkSync('b/f.txt', join(root, 'link-in.txt'));
  symlinkSync('../secret.txt', join(root, 'link-out.txt'));
  symlinkSync('b', join(root, 'link-dir'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  anchorFd = openAnchor(root);
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const base: Omit<ListingOptions, 'pageSize' | 'maxExamined'> = { maxDepth: 32, ignoredDirectoryNames: new Set(['node_modules', '.git']) };

async function everything(pageSize: number, maxExamined: number): Promise<{ files: string[]; pages: number }> {
  const files: string[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await listWorkspaceFiles(anchorFd, { ...base, pageSize, maxExamined, after });
    pages += 1;
    files.push(...page.files);
    if (page.resumeAfter === undefined) return { files, pages };
    expect(page.resumeAfter).not.toBe(after);
    after = page.resumeAfter;
    if (pages > 100) throw new Error('the listing does not end');
  }
}

describe('listWorkspaceFiles', () => {
  it('lists every regular file once, sorted depth-first, without ignored folders, links out, directory links or FIFOs', async () => {
    const page = await listWorkspaceFiles(anchorFd, { ...base, pageSize: 100, maxExamined: 1000 });
    expect(page).toEqual({ files: EXPECTED, resumeAfter: undefined });
  });

  it.each([
    [1, 1000],
    [2, 1000],
    [3, 1000],
    [100, 1],
    [100, 2],
    [2, 3],
  ])('pages of %i files / %i entries give the same files in the same order', async (pageSize, maxExamined) => {
    const { files, pages } = await everything(pageSize, maxExamined);
    expect(files).toEqual(EXPECTED);
    expect(pages).toBeGreaterThan(1);
  });

  it('resumes after a position that no longer exists', async () => {
    const page = await listWorkspaceFiles(anchorFd, { ...base, pageSize: 100, maxExamined: 1000, after: 'b/c/gone.txt' });
    expect(page.files).toEqual(['b/f.txt', 'link-in.txt', 'm/n/o/p.txt', 'z.txt']);
  });

  it('stops at maxDepth', async () => {
    const page = await listWorkspaceFiles(anchorFd, { ...base, maxDepth: 2, pageSize: 100, maxExamined: 1000 });
    expect(page.files).toEqual(['a.txt', 'b/c/d.txt', 'b/c/e.txt', 'b/f.txt', 'link-in.txt', 'z.txt']);
  });
});
