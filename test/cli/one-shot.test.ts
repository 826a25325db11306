/**
 * The one-shot `toolhost call` of a wasm tool: only the file that serves the name loads (a broken
 * neighbour is never looked at), the call runs in the CLI's own process under its deadline, and a
 * folder whose names clash falls back to loading every file, with the same result.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, temporaryDirectory } from './run-cli.ts';

const build = join(PROJECT_ROOT, 'test/fixtures/build');

describe('one-shot toolhost call of a wasm tool', () => {
  let root: { path: string; remove: () => void };
  let tools: string;
  beforeAll(() => {
    root = temporaryDirectory();
    tools = join(root.path, 'tools');
    mkdirSync(tools);
    copyFileSync(join(build, 'ext-greet.wasm'), join(tools, 'ext-greet.wasm'));
    copyFileSync(join(build, 'rt-behave.wasm'), join(tools, 'behave.wasm'));
    // rt-behave prints no help: its spec comes from the sidecar (one positional, what to do).
    writeFileSync(
      join(tools, 'behave.tool.json'),
      JSON.stringify({ spec: { name: 'behave', description: 'does what it is told', options: [], positionals: [{ name: 'what', required: true }], subcommands: [] } }),
    );
    writeFileSync(join(tools, 'broken.wasm'), 'this is not wasm');
  });
  afterAll(() => root.remove());
  const cli = (args: string[], folder = tools) =>
    runCli([...args, '--workspace', root.path, '--extensions', folder], { cwd: root.path, env: { TOOLHOST_CACHE_DIR: join(root.path, 'cache') }, timeoutMs: 60_000 });

  it('loads only the tool it calls: a broken file next to it is not reported', async () => {
    const listed = await cli(['list']);
    expect(listed.stderr).toContain('could not load');
    expect(listed.stderr).toContain('broken.wasm');

    const called = await cli(['call', 'ext-greet', '{"name": "Ada"}', '--json']);
    expect(called.stderr).toBe('');
    expect(called.exitCode).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ is_error: false });
    expect(called.stdout).toContain('Hello, Ada!');
  }, 120_000);

  it('names an image result in a line, and prints it whole with --json', async () => {
    const image = join(root.path, 'image-tools');
    mkdirSync(image);
    copyFileSync(join(build, 'mcp-conformance.wasm'), join(image, 'test_image_content.wasm'));
    copyFileSync(join(PROJECT_ROOT, 'test/conformance/tools/test_image_content.tool.json'), join(image, 'test_image_content.tool.json'));
    const called = await cli(['call', 'test_image_content', '{}'], image);
    expect(called.exitCode).toBe(0);
    expect(called.stdout).toBe('[image: image/png, 69 bytes]\n');
    const json = JSON.parse((await cli(['call', 'test_image_content', '{}', '--json'], image)).stdout) as { parts: Array<{ type: string; data: string }> };
    expect(json.parts[0]?.type).toBe('image');
    expect(Buffer.from(json.parts[0]?.data ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG');
  }, 120_000);

  it('names the load error of the file it calls', async () => {
    const called = await cli(['call', 'broken', '{}']);
    expect(called.exitCode).not.toBe(0);
    expect(called.stderr).toContain('broken.wasm');
  }, 60_000);

  it('holds a spinning guest to --timeout and reports it as a timed-out call', async () => {
    const called = await cli(['call', 'behave', '--arg', 'what=loop', '--timeout', '800', '--json']);
    expect(called.exitCode).toBe(1);
    const result = JSON.parse(called.stdout) as { is_error: boolean; content: string };
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/time/i);
  }, 60_000);

  it('falls back to loading the whole folder when names clash, with the same answer', async () => {
    const clashing = join(root.path, 'clashing');
    mkdirSync(clashing);
    copyFileSync(join(build, 'ext-greet.wasm'), join(clashing, 'ext-greet.wasm'));
    // other.wasm asks for the same name in its sidecar: registered second, it is served as ext-greet_2.
    copyFileSync(join(build, 'ext-greet.wasm'), join(clashing, 'other.wasm'));
    writeFileSync(join(clashing, 'other.tool.json'), JSON.stringify({ name: 'ext-greet' }));
    const first = await cli(['call', 'ext-greet', '{"name": "Ada"}'], clashing);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain('Hello, Ada!');
    const second = await cli(['call', 'ext-greet_2', '{"name": "Bo"}'], clashing);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain('Hello, Bo!');
  }, 120_000);
});
