/**
 * Stress: a host-side racer swaps a directory inside a rw grant with a symlink to an outside directory
 * (`renameat2(RENAME_EXCHANGE)`) while a real wasm guest (test/fixtures/c/wasi-fs-race.c) creates,
 * truncates, reads, makes and removes directories, renames and unlinks through that directory. Zero
 * outside entries may be created, changed or read. Two controls show the racer really races: the
 * guest sees both states (some operations succeed, some are refused), and a naive host open of a path
 * string, run between the guest's calls, lands outside at least once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createRaceArena, startExchangeRacer, type ExchangeRacer } from '../../helpers/exchange-racer.ts';
import { type Fixture, loadFixture } from './fixtures.ts';

const CALLS = 40;
const ROUNDS_PER_CALL = 50;
const NAIVE_OPENS_PER_CALL = 25;

let raceTool: Fixture;
let base: string;
let root: string;
let outside: string;
let racer: ExchangeRacer | undefined;

beforeAll(async () => {
  raceTool = await loadFixture('wasi-fs-race');
}, 60_000);

beforeEach(() => {
  ({ base, root, outside } = createRaceArena('wasi-fs-race-'));
});

afterEach(async () => {
  await racer?.stop();
  racer = undefined;
  fs.rmSync(base, { recursive: true, force: true });
});

it(`a wasm guest creates, truncates and reads ${CALLS * ROUNDS_PER_CALL} rounds under a directory/symlink exchange race without touching anything outside`, async () => {
  const outsideBefore = fs.statSync(path.join(outside, 'victim.txt'));
  racer = await startExchangeRacer(path.join(root, 'dir'), path.join(root, 'swap'));
  let succeeded = 0;
  let failed = 0;
  let outsideReads = 0;
  try {
    for (let call = 0; call < CALLS; call++) {
      const result = raceTool.run({ args: ['wasi-fs-race', '/g/dir', String(ROUNDS_PER_CALL)], preopens: [{ hostPath: root, guestPath: '/g', mode: 'rw' }] });
      expect(result.error).toBeUndefined();
      expect(result.exitCode).toBe(0);
      const [status, ok, refused, reads] = result.stdout.trim().split(' ');
      expect(status).toBe('ok');
      succeeded += Number(ok);
      failed += Number(refused);
      outsideReads += Number(reads);
      // Control: the same kind of create through a host path string, between the guest's calls.
      for (let index = 0; index < NAIVE_OPENS_PER_CALL; index++) {
        try {
          fs.closeSync(fs.openSync(path.join(root, 'dir', `naive-${call}-${index}.txt`), fs.constants.O_WRONLY | fs.constants.O_CREAT));
        } catch {
          // the control may fail too
        }
      }
    }
  } finally {
    await racer.stop();
  }
  const naive = fs.readdirSync(outside).filter((name) => name.startsWith('naive-'));
  for (const name of naive) fs.rmSync(path.join(outside, name));
  const touched = fs.readdirSync(outside).filter((name) => name !== 'victim.txt');
  const outsideAfter = fs.statSync(path.join(outside, 'victim.txt'));
  console.log(
    `wasm guest: ${succeeded} operations succeeded, ${failed} refused, outside entries created: ${touched.length}, ` +
      `outside reads: ${outsideReads}, outside victim changed: ${outsideAfter.mtimeMs !== outsideBefore.mtimeMs}; naive control escapes: ${naive.length}`,
  );
  expect(succeeded).toBeGreaterThan(0);
  expect(failed).toBeGreaterThan(0);
  expect(naive.length).toBeGreaterThan(0);
  expect(touched).toEqual([]);
  expect(outsideReads).toBe(0);
  expect(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe('outside content');
  expect(outsideAfter.mtimeMs).toBe(outsideBefore.mtimeMs);
}, 300_000);
