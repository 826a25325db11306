/**
 * The tour's prebuilt tool: `extensions/examples/prebuilt/hashenc.wasm` is the hashenc example's core module, committed
 * so that a fresh clone can drop a real wasm tool into a daemon with only Node and npm. Its bytes must be exactly what
 * clang + wasi-libc build from `hashenc/hashenc.c` with the example build's flags (the build is reproducible), and a
 * real `toolhost serve` must serve it from a copied extensions folder as the README's tour shows: listed, with its
 * subcommands in the schema, and answering with the envelope's content (not JSON inside a JSON string).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { HASHENC_CLANG_ARGS } from '../../extensions/examples/build.mjs';
import { startTestDaemon, type TestDaemon } from '../security/daemon.ts';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';

const EXAMPLES = join(PROJECT_ROOT, 'extensions', 'examples');
const PREBUILT = join(EXAMPLES, 'prebuilt');

describe('prebuilt hashenc (the tour tool)', () => {
  let workspace: { path: string; remove: () => void };
  let daemon: TestDaemon;

  beforeAll(async () => {
    workspace = temporaryDirectory();
    const tools = join(workspace.path, 'tools');
    mkdirSync(tools);
    for (const file of ['hashenc.wasm', 'hashenc.tool.json']) copyFileSync(join(PREBUILT, file), join(tools, file));
    daemon = await startTestDaemon({ workspace: workspace.path, args: ['--extensions', tools] });
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    workspace?.remove();
  }, 60_000);

  it('is byte for byte what clang builds from hashenc.c with the example build flags', () => {
    const out = join(workspace.path, 'rebuilt.wasm');
    // As under `npm run build:examples`: node_modules/.bin leads PATH, and clang runs the wasm-opt it finds there.
    const env = { ...process.env, PATH: `${join(PROJECT_ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
    const built = spawnSync('clang', [...(HASHENC_CLANG_ARGS as string[]), '-o', out, 'hashenc.c'], { cwd: join(EXAMPLES, 'hashenc'), encoding: 'utf8', env });
    expect(built.status, built.stderr).toBe(0);
    expect(readFileSync(out).equals(readFileSync(join(PREBUILT, 'hashenc.wasm')))).toBe(true);
  });

  it('ships the same sidecar as the example', () => {
    expect(readFileSync(join(PREBUILT, 'hashenc.tool.json'), 'utf8')).toBe(readFileSync(join(EXAMPLES, 'hashenc', 'hashenc.tool.json'), 'utf8'));
  });

  it('is listed with its subcommands and answers a call with the envelope content', async () => {
    const listed = (await (await fetch(`${daemon.url}/v1/tools/hashenc`)).json()) as { inputSchema: { properties: Record<string, { enum?: string[] }> } };
    expect(listed.inputSchema.properties.command?.enum).toEqual(expect.arrayContaining(['sha256', 'base64', 'hex']));
    const result = await daemon.call('hashenc', { command: 'sha256', text: 'abc' });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
