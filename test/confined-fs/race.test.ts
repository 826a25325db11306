/**
 * Stress: a host-side racer swaps a directory inside the anchor with a symlink to an outside
 * directory while lookups create, truncate and read through it. Zero outside files may be touched.
 * A naive path open runs alongside as the control: it must escape at least once, which proves the
 * racer really races (otherwise a zero for openBeneath would prove nothing).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openAnchor, openBeneath } from '../../src/confined-fs/open-beneath.ts';
import { createRaceArena, startExchangeRacer, type ExchangeRacer } from '../helpers/exchange-racer.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_TRUNC } = fs.constants;
const ITERATIONS = 20_000;

let base: string;
let root: string;
let outside: string;
let racer: ExchangeRacer | undefined;

beforeEach(() => {
  ({ base, root, outside } = createRaceArena('beneath-race-'));
});

afterEach(async () => {
  await racer?.stop();
  racer = undefined;
  fs.rmSync(base, { recursive: true, force: true });
});

function outsideState(): string {
  return fs.readdirSync(outside).sort().join(',') + ':' + fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8');
}

it(`creates, truncates and reads ${ITERATIONS} times under a directory/symlink exchange race without touching anything outside`, async () => {
  const anchor = openAnchor(root);
  racer = await startExchangeRacer(path.join(root, 'dir'), path.join(root, 'swap'));
  let opened = 0;
  let outsideReads = 0;
  let naiveEscapes = 0;
  try {
    for (let index = 0; index < ITERATIONS; index++) {
      for (const [relative, flags] of [
        [`dir/created-${index % 50}.txt`, O_WRONLY | O_CREAT | O_TRUNC],
        ['dir/victim.txt', O_WRONLY | O_TRUNC],
        ['dir/victim.txt', O_RDONLY],
      ] as const) {
        try {
          const { fd } = openBeneath(anchor, relative, flags);
          if (flags === O_RDONLY && fs.readFileSync(fd, 'utf8').startsWith('outside')) outsideReads++;
          fs.closeSync(fd);
          opened++;
        } catch {
          // refused while the symlink was in place: the expected outcome half of the time
        }
      }
      if (index % 10 === 0) {
        try {
          fs.closeSync(fs.openSync(path.join(root, 'dir', `naive-${index}.txt`), O_WRONLY | O_CREAT));
        } catch {
          // the control may fail too
        }
      }
    }
  } finally {
    await racer.stop();
    fs.closeSync(anchor);
  }
  naiveEscapes = fs.readdirSync(outside).filter((name) => name.startsWith('naive-')).length;
  for (const name of fs.readdirSync(outside).filter((entry) => entry.startsWith('naive-'))) fs.rmSync(path.join(outside, name));
  console.log(`openBeneath: ${opened} opens, outside touched: ${fs.readdirSync(outside).length - 1} files, outside reads: ${outsideReads}; naive control escapes: ${naiveEscapes}`);
  expect(opened).toBeGreaterThan(0);
  expect(naiveEscapes).toBeGreaterThan(0);
  expect(outsideReads).toBe(0);
  expect(outsideState()).toBe('victim.txt:outside content');
}, 120_000);
