/**
 * kill -9 during write_file / edit_file: a child process rewrites one file in a loop, alternating two
 * complete contents (about 1 MB and 1.5 MB), and is killed with SIGKILL at a random moment. Afterwards
 * the file must hold one of the two contents exactly: never empty, never a prefix, never a mix. Writes
 * replace the file with a rename of a fully written temp file, so this holds; a truncate-then-write
 * implementation leaves empty or partial files here. Leftover temp files (a kill between creating
 * and renaming the temp file) are counted and printed; they never replace the target.
 *
 * A process kill leaves the page cache intact, so this checks the rename protocol, not the fsyncs
 * (those matter for power loss, which a test cannot simulate).
 *
 * @full-suite-only: 260 child processes killed one by one take about two minutes; `npm run test:quick` leaves it out.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { durabilityContents } from './durability-contents.ts';

const CHILD = fileURLToPath(new URL('./write-loop-child.ts', import.meta.url));
const BYTES = 1024 * 1024;
const WRITE_ROUNDS = 200;
const EDIT_ROUNDS = 60;
/** Parallel children (each on its own file); the machine has two cores. */
const LANES = 2;
/** Kills land between 0 and this many milliseconds after the child's first completed call. */
const MAX_KILL_DELAY_MS = 60;

const { first, second } = durabilityContents(BYTES);
let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'toolhost-durability-'));
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

type Outcome = 'first' | 'second' | 'empty' | 'partial or mixed';

async function killDuringCalls(root: string, relative: string, mode: 'write' | 'edit'): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, root, relative, String(BYTES), mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before it was ready: ${stderr}`)));
  });
  await ready;
  await sleep(Math.random() * MAX_KILL_DELAY_MS);
  child.kill('SIGKILL');
  await exited;
  const content = await readFile(path.join(root, relative), 'utf8');
  if (content === first) return 'first';
  if (content === second) return 'second';
  return content.length === 0 ? 'empty' : 'partial or mixed';
}

async function runRounds(mode: 'write' | 'edit', rounds: number): Promise<{ counts: Record<Outcome, number>; leftovers: number }> {
  const counts: Record<Outcome, number> = { first: 0, second: 0, empty: 0, 'partial or mixed': 0 };
  let leftovers = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async (_, lane) => {
      const root = path.join(parent, `${mode}-${lane}`);
      fs.mkdirSync(path.join(root, 'data'), { recursive: true });
      const relative = 'data/target.txt';
      await writeFile(path.join(root, relative), first);
      while (next < rounds) {
        next += 1;
        const outcome = await killDuringCalls(root, relative, mode);
        counts[outcome] += 1;
        // Start each edit round from the content the child's first edit expects; restore a broken file.
        if (mode === 'edit' || (outcome !== 'first' && outcome !== 'second')) await writeFile(path.join(root, relative), first);
      }
      leftovers += (await readdir(path.join(root, 'data'))).filter((name) => name !== 'target.txt').length;
    }),
  );
  return { counts, leftovers };
}

it(`write_file killed with SIGKILL ${WRITE_ROUNDS} times leaves the old or the new content, never a mix`, async () => {
  const { counts, leftovers } = await runRounds('write', WRITE_ROUNDS);
  console.log(`write_file kill -9 rounds: ${JSON.stringify(counts)}; leftover temp files: ${leftovers}`);
  expect(counts.empty).toBe(0);
  expect(counts['partial or mixed']).toBe(0);
  expect(counts.first + counts.second).toBe(WRITE_ROUNDS);
}, 600_000);

it(`edit_file killed with SIGKILL ${EDIT_ROUNDS} times leaves the old or the new content, never a mix`, async () => {
  const { counts, leftovers } = await runRounds('edit', EDIT_ROUNDS);
  console.log(`edit_file kill -9 rounds: ${JSON.stringify(counts)}; leftover temp files: ${leftovers}`);
  expect(counts.empty).toBe(0);
  expect(counts['partial or mixed']).toBe(0);
  expect(counts.first + counts.second).toBe(EDIT_ROUNDS);
}, 600_000);
