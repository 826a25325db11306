/**
 * Stress: a host-side racer swaps a workspace directory with a symlink to an outside directory
 * (renameat2 RENAME_EXCHANGE, in a loop) while the built-in file tools work through it. Every call
 * either works inside the workspace or is refused: zero outside files created or changed, zero outside
 * content or names returned. A naive path open runs alongside as the control: it must escape at least
 * once, which proves the racer really races (otherwise zeros for the tools would prove nothing).
 * Also: hard links planted inside the workspace to an outside file (reads allowed, writes refused).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../builtins/edit-file.ts';
import { globTool } from '../../builtins/glob.ts';
import { grepTool } from '../../builtins/grep.ts';
import { listDirTool } from '../../builtins/list-dir.ts';
import { readFileTool } from '../../builtins/read-file.ts';
import { writeFileTool } from '../../builtins/write-file.ts';
import { startExchangeRacer, type ExchangeRacer } from '../helpers/exchange-racer.ts';
import { callTool, createTestWorkspace, type TestWorkspace } from './helpers.ts';

const ITERATIONS = 1500;
const WALK_ITERATIONS = 600;
const OUTSIDE_MARKER = 'OUTSIDE-MARKER';

let workspace: TestWorkspace;
let racer: ExchangeRacer | undefined;

beforeEach(async () => {
  workspace = await createTestWorkspace();
  fs.mkdirSync(path.join(workspace.root, 'dir'));
  fs.writeFileSync(path.join(workspace.root, 'dir', 'victim.txt'), 'inside content\n');
  fs.writeFileSync(path.join(workspace.outside, 'victim.txt'), `${OUTSIDE_MARKER} victim\n`);
  fs.writeFileSync(path.join(workspace.outside, `${OUTSIDE_MARKER}-name.txt`), `${OUTSIDE_MARKER} listed\n`);
  fs.symlinkSync(workspace.outside, path.join(workspace.root, 'swap'));
});

afterEach(async () => {
  await racer?.stop();
  racer = undefined;
  await workspace.cleanup();
});

/** Every outside file with its content, to compare before and after. */
function outsideState(): string {
  return fs
    .readdirSync(workspace.outside)
    .sort()
    .map((name) => `${name}=${fs.readFileSync(path.join(workspace.outside, name), 'utf8')}`)
    .join('|');
}

/** The control: a plain path open that the racer can redirect; counts files it created outside. */
function naiveCreate(index: number): void {
  try {
    fs.closeSync(fs.openSync(path.join(workspace.root, 'dir', `naive-${index}.txt`), 'w'));
  } catch {
    // the control may fail too
  }
}

function removeNaiveFiles(): number {
  const naive = fs.readdirSync(workspace.outside).filter((name) => name.startsWith('naive-'));
  for (const name of naive) fs.rmSync(path.join(workspace.outside, name));
  return naive.length;
}

describe('built-in file tools under a directory/symlink exchange race', () => {
  it(`read_file, write_file (create + overwrite), edit_file and list_dir ${ITERATIONS} times each touch nothing outside`, async () => {
    const before = outsideState();
    const context = workspace.context;
    const counts = { readOk: 0, writeOk: 0, createOk: 0, editOk: 0, listOk: 0, refused: 0 };
    let outsideContentReturned = 0;
    racer = await startExchangeRacer(path.join(workspace.root, 'dir'), path.join(workspace.root, 'swap'));
    try {
      for (let index = 0; index < ITERATIONS; index += 1) {
        const read = await callTool(readFileTool, { path: 'dir/victim.txt' }, context);
        if (read.content.includes(OUTSIDE_MARKER)) outsideContentReturned += 1;
        if (read.is_error) counts.refused += 1;
        else counts.readOk += 1;

        const created = await callTool(writeFileTool, { path: `dir/created-${index % 20}.txt`, content: `created ${index}\n` }, context);
        if (created.is_error) counts.refused += 1;
        else counts.createOk += 1;

        const overwritten = await callTool(writeFileTool, { path: 'dir/victim.txt', content: 'inside content\n' }, context);
        if (overwritten.is_error) counts.refused += 1;
        else counts.writeOk += 1;

        const edited = await callTool(
          editFileTool,
          { path: 'dir/victim.txt', old_string: 'content', new_string: 'CONTENT', replace_all: true },
          context,
        );
        if (edited.content.includes(OUTSIDE_MARKER)) outsideContentReturned += 1;
        if (edited.is_error) counts.refused += 1;
        else counts.editOk += 1;

        const listed = await callTool(listDirTool, { path: 'dir' }, context);
        if (listed.content.includes(OUTSIDE_MARKER)) outsideContentReturned += 1;
        if (listed.is_error) counts.refused += 1;
        else counts.listOk += 1;

        if (index % 5 === 0) naiveCreate(index);
      }
    } finally {
      await racer.stop();
    }
    const naiveEscapes = removeNaiveFiles();
    console.log(
      `tools under race: ${JSON.stringify(counts)}; outside content returned: ${outsideContentReturned}; ` +
        `outside changed: ${outsideState() !== before}; naive control escapes: ${naiveEscapes}`,
    );
    expect(naiveEscapes).toBeGreaterThan(0);
    expect(outsideContentReturned).toBe(0);
    expect(outsideState()).toBe(before);
    // The tools did work while racing (the race did not just make everything fail).
    for (const ok of [counts.readOk, counts.createOk, counts.writeOk, counts.editOk, counts.listOk]) expect(ok).toBeGreaterThan(0);
  }, 300_000);

  it(`glob and grep (the shared directory walk) ${WALK_ITERATIONS} times each return nothing from outside`, async () => {
    const context = workspace.context;
    let outsideReturned = 0;
    let calls = 0;
    racer = await startExchangeRacer(path.join(workspace.root, 'dir'), path.join(workspace.root, 'swap'));
    try {
      for (let index = 0; index < WALK_ITERATIONS; index += 1) {
        const found = await callTool(grepTool, { pattern: OUTSIDE_MARKER }, context);
        const globbed = await callTool(globTool, { pattern: '**/*.txt' }, context);
        const inDir = await callTool(grepTool, { pattern: 'victim|content', path: 'dir' }, context);
        calls += 3;
        // grep echoes its pattern when nothing matches, so its marker search is judged by its match count.
        if (Number(found.metadata?.['matches'] ?? 0) > 0) outsideReturned += 1;
        for (const result of [globbed, inDir]) if (result.content.includes(OUTSIDE_MARKER)) outsideReturned += 1;
        if (index % 5 === 0) naiveCreate(index);
      }
    } finally {
      await racer.stop();
    }
    const naiveEscapes = removeNaiveFiles();
    console.log(`walk under race: ${calls} calls; outside content or names returned: ${outsideReturned}; naive control escapes: ${naiveEscapes}`);
    expect(naiveEscapes).toBeGreaterThan(0);
    expect(outsideReturned).toBe(0);
  }, 300_000);
});

describe('hard links planted inside the workspace', () => {
  it('refuses write_file and edit_file through a hard link to an outside file, and leaves it unchanged', async () => {
    const secret = path.join(workspace.outside, 'secret.txt');
    fs.linkSync(secret, path.join(workspace.root, 'hard.txt'));
    const written = await callTool(writeFileTool, { path: 'hard.txt', content: 'overwritten\n' }, workspace.context);
    expect(written.is_error).toBe(true);
    expect(written.content).toMatch(/hard link/);
    const edited = await callTool(editFileTool, { path: 'hard.txt', old_string: 'TOP', new_string: 'NOT' }, workspace.context);
    expect(edited.is_error).toBe(true);
    expect(edited.content).toMatch(/hard link/);
    expect(fs.readFileSync(secret, 'utf8')).toBe('TOP SECRET\n');
    expect(fs.statSync(path.join(workspace.root, 'hard.txt')).ino).toBe(fs.statSync(secret).ino);
  });

  it('reads a hard-linked file (a link can only be made by someone who can already read its target)', async () => {
    fs.writeFileSync(path.join(workspace.root, 'original.txt'), 'shared\n');
    fs.linkSync(path.join(workspace.root, 'original.txt'), path.join(workspace.root, 'second-name.txt'));
    const read = await callTool(readFileTool, { path: 'second-name.txt' }, workspace.context);
    expect(read).toMatchObject({ is_error: false, content: 'shared\n' });
  });
});
