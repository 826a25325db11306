/** The workspace watch on real directories: file changes and tree changes arrive as events; the tree watch is bounded. */
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceWatch } from '../../src/resources/workspace-watch.ts';

let root: string;
const watches: WorkspaceWatch[] = [];

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-watch-')));
  for (const directory of ['d1', 'd2', 'd3', 'd4', 'd5/d6']) mkdirSync(join(root, directory), { recursive: true });
  writeFileSync(join(root, 'watched.txt'), 'v1\n');
});

afterAll(async () => {
  await Promise.all(watches.map((watch) => watch.close()));
  rmSync(root, { recursive: true, force: true });
});

function watchOf(maxDirectories = 100, maxFiles = 100): WorkspaceWatch {
  const watch = new WorkspaceWatch({ rootReal: () => root, ignoredDirectoryNames: new Set(['node_modules']), maxDepth: 8, maxDirectories, maxFiles });
  watches.push(watch);
  return watch;
}

describe('WorkspaceWatch', () => {
  it('reports a change to a watched file; shares one watcher per file; ends with the last subscriber', async () => {
    const watch = watchOf();
    let changed: () => void = () => undefined;
    const first = await watch.watchFile(join(root, 'watched.txt'), () => changed());
    const second = await watch.watchFile(join(root, 'watched.txt'), () => undefined);
    expect(watch.watchedFiles).toBe(1);
    const seen = new Promise<void>((resolve) => (changed = resolve));
    appendFileSync(join(root, 'watched.txt'), 'v2\n');
    await seen;
    first();
    expect(watch.watchedFiles).toBe(1);
    second();
    expect(watch.watchedFiles).toBe(0);
  });

  it('reports a new file anywhere in the tree, and stops the tree watch after the last listener', async () => {
    const watch = watchOf();
    let changed: () => void = () => undefined;
    const listening = watch.onTreeChange(() => changed());
    await listening.ready;
    expect(watch.watchingTree).toBe(true);
    const seen = new Promise<void>((resolve) => (changed = resolve));
    writeFileSync(join(root, 'd5/d6/new.txt'), 'new\n');
    await seen;
    listening.stop();
    expect(watch.watchingTree).toBe(false);
  });

  it('watches at most maxFiles files; a second subscriber of a watched file does not count', async () => {
    writeFileSync(join(root, 'other.txt'), 'o\n');
    const watch = watchOf(100, 1);
    const stop = await watch.watchFile(join(root, 'watched.txt'), () => undefined);
    const again = await watch.watchFile(join(root, 'watched.txt'), () => undefined);
    await expect(watch.watchFile(join(root, 'other.txt'), () => undefined)).rejects.toMatchObject({ code: 'LIMIT' });
    stop();
    again();
    (await watch.watchFile(join(root, 'other.txt'), () => undefined))();
  });

  it('watches at most maxDirectories directories', async () => {
    const watch = watchOf(2);
    const listening = watch.onTreeChange(() => undefined);
    await listening.ready;
    expect(watch.watchedDirectories).toBe(2);
    listening.stop();
  });
});
