/**
 * Stress: the entry operations (mkdir, symlink, rename, link, set times, unlink, rmdir) beneath an fd
 * under the same directory/symlink exchange race as race.test.ts. Nothing outside may be created,
 * renamed, removed or touched; a naive `mkdir` of a path string is the control that must escape.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { linkBeneath, mkdirBeneath, renameBeneath, rmdirBeneath, setTimesBeneath, symlinkBeneath, unlinkBeneath } from '../../src/confined-fs/entry-beneath.ts';
import { openAnchor } from '../../src/confined-fs/open-beneath.ts';
import { createRaceArena, startExchangeRacer, type ExchangeRacer } from '../helpers/exchange-racer.ts';

const ITERATIONS = 5_000;

let base: string;
let root: string;
let outside: string;
let racer: ExchangeRacer | undefined;

beforeEach(() => {
  ({ base, root, outside } = createRaceArena('entry-race-'));
});

afterEach(async () => {
  await racer?.stop();
  racer = undefined;
  fs.rmSync(base, { recursive: true, force: true });
});

it(`runs ${ITERATIONS} rounds of entry operations under a directory/symlink exchange race without touching anything outside`, async () => {
  const victimBefore = fs.statSync(path.join(outside, 'victim.txt'));
  const anchor = openAnchor(root);
  racer = await startExchangeRacer(path.join(root, 'dir'), path.join(root, 'swap'));
  let succeeded = 0;
  let refused = 0;
  const attempt = (action: () => unknown): void => {
    try {
      action();
      succeeded++;
    } catch {
      refused++;
    }
  };
  try {
    for (let index = 0; index < ITERATIONS; index++) {
      const slot = index % 20;
      attempt(() => mkdirBeneath(anchor, `dir/sub-${slot}`));
      attempt(() => symlinkBeneath(anchor, 'victim.txt', `dir/link-${slot}`));
      attempt(() => linkBeneath(anchor, 'dir/victim.txt', anchor, `dir/hard-${slot}`));
      attempt(() => renameBeneath(anchor, `dir/hard-${slot}`, anchor, `dir/renamed-${slot}`));
      attempt(() => setTimesBeneath(anchor, 'dir/victim.txt', () => [1000, 1000], { allowHardLinks: true }));
      attempt(() => unlinkBeneath(anchor, `dir/renamed-${slot}`));
      attempt(() => unlinkBeneath(anchor, `dir/link-${slot}`));
      attempt(() => rmdirBeneath(anchor, `dir/sub-${slot}`));
      if (index % 5 === 0) {
        try {
          fs.mkdirSync(path.join(root, 'dir', `naive-${index}`));
        } catch {
          // the control may fail too
        }
      }
    }
  } finally {
    await racer.stop();
    fs.closeSync(anchor);
  }
  const naive = fs.readdirSync(outside).filter((name) => name.startsWith('naive-'));
  for (const name of naive) fs.rmdirSync(path.join(outside, name));
  const victimAfter = fs.statSync(path.join(outside, 'victim.txt'));
  console.log(
    `entry operations: ${succeeded} succeeded, ${refused} refused, outside entries: ${fs.readdirSync(outside).join(',')}, ` +
      `outside victim links: ${victimAfter.nlink}; naive control escapes: ${naive.length}`,
  );
  expect(succeeded).toBeGreaterThan(0);
  expect(refused).toBeGreaterThan(0);
  expect(naive.length).toBeGreaterThan(0);
  expect(fs.readdirSync(outside)).toEqual(['victim.txt']);
  expect(victimAfter.nlink).toBe(1);
  expect(victimAfter.mtimeMs).toBe(victimBefore.mtimeMs);
  expect(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe('outside content');
}, 120_000);
