/**
 * A standard Go wasip1 binary (test/fixtures/go/go-memory) allocating and printing far more than its
 * starting heap, run through the host the way a dropped-in tool runs: `.wasm` plus a policy sidecar
 * whose filesystem grant is active. Heap corruption used to appear only with such a grant (the adapter's
 * state sat where Go's heap grows), so every line printed and every byte kept is checked.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtHost, FIXTURES, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';

const MIB = 1024 * 1024;
const RUN_MIB = 64;
const CALL_TIMEOUT_MS = 180_000;

let root: TempRoot;
let granted: string;
let ext: ExtHost;

/** go-memory answers `--help` with nothing, so its `.tool.json` declares its command line. */
const spec = {
  name: 'go-memory',
  description: 'Allocates while it prints, writes or keeps lines.',
  options: [],
  positionals: [
    { name: 'command', required: true, variadic: false },
    { name: 'argument', required: true, variadic: false },
    { name: 'path', required: false, variadic: false },
  ],
  subcommands: [],
};

beforeAll(async () => {
  root = tempRoot('toolhost-go-memory-');
  granted = root.folder('granted');
  const tools = root.folder('tools');
  copyFileSync(join(FIXTURES, 'go-memory.core.wasm'), join(tools, 'go-memory.wasm'));
  writeFileSync(join(tools, 'go-memory.tool.json'), JSON.stringify({ spec }));
  writeFileSync(
    join(tools, 'go-memory.policy.json'),
    JSON.stringify({ fs: [{ host: granted, guest: '/data', mode: 'rw' }], output_bytes: 128 * MIB, memory_mb: 1024, timeout_ms: CALL_TIMEOUT_MS }),
  );
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 300_000);

afterAll(async () => {
  await ext?.close();
  root?.remove();
});

const expectedLine = (index: number) => `${String(index).padStart(8, '0')} ${String(index % 10).repeat(1000)}`;

it(`prints ${RUN_MIB} MiB of freshly allocated lines with a filesystem grant, every line intact`, async () => {
  const result = await ext.host.callTool('go-memory', { command: 'print', argument: String(RUN_MIB) });
  expect(result.is_error, result.content.slice(0, 2000)).toBe(false);
  expect(result.content.length).toBeGreaterThanOrEqual(RUN_MIB * MIB);
  const lines = result.content.trimEnd().split('\n');
  const broken = lines.findIndex((line, index) => line !== expectedLine(index));
  expect(broken).toBe(-1);
}, CALL_TIMEOUT_MS);

it(`writes ${RUN_MIB} MiB to the granted folder, then reads it back keeping every line on the heap`, async () => {
  const written = await ext.host.callTool('go-memory', { command: 'write', argument: String(RUN_MIB), path: '/data/lines.txt' });
  expect(written.is_error, written.content).toBe(false);
  const file = join(granted, 'lines.txt');
  const size = statSync(file).size;
  expect(size).toBeGreaterThanOrEqual(RUN_MIB * MIB);
  expect(written.content).toBe(`wrote ${size} bytes\n`);
  const bytes = readFileSync(file);
  const lineCount = bytes.toString('latin1').split('\n').length - 1;
  const digest = createHash('sha256').update(bytes).digest('hex');
  const kept = await ext.host.callTool('go-memory', { command: 'keep', argument: '/data/lines.txt' });
  expect(kept.is_error, kept.content.slice(0, 2000)).toBe(false);
  expect(kept.content).toBe(`${lineCount} lines ${digest}\n`);
}, CALL_TIMEOUT_MS * 2);
