/**
 * A secret reaches a real wasm tool through a declared secret parameter, the tool prints it, and its
 * output limit cuts the secret in half: neither the whole value nor the part before the cut may reach
 * the result. Also a secret printed as a metadata key.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

const SECRET = 'sk-live-0123456789abcdef0123456789';
let root: TempRoot;
let ext: ExtHost;

beforeAll(async () => {
  process.env['TOOLHOST_SECRET_LEAK_TEST_KEY'] = SECRET;
  root = tempRoot();
  const tools = root.folder('tools');
  copyFileSync(fixture('rt-behave'), join(tools, 'leaky.wasm'));
  const spec = {
    name: 'leaky',
    description: 'Prints what it is given.',
    options: [],
    positionals: [
      { name: 'mode', required: true, variadic: false },
      { name: 'text', required: true, variadic: false },
    ],
    subcommands: [],
  };
  writeFileSync(join(tools, 'leaky.tool.json'), JSON.stringify({ spec, secret_params: ['text'] }));
  writeFileSync(join(tools, 'leaky.policy.json'), JSON.stringify({ output_bytes: 24 }));
  copyFileSync(fixture('rt-behave'), join(tools, 'keyed.wasm'));
  writeFileSync(join(tools, 'keyed.tool.json'), JSON.stringify({ spec: { ...spec, name: 'keyed' }, secret_params: ['text'], output: 'envelope' }));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  delete process.env['TOOLHOST_SECRET_LEAK_TEST_KEY'];
  await ext.close();
  root.remove();
});

it('redacts a secret cut by the output limit, leaving no prefix of it', async () => {
  const result = await ext.host.callTool('leaky', { mode: 'print', text: 'token=<secret_ref:LEAK_TEST_KEY> end' });
  expect(result.metadata).toMatchObject({ truncated: true });
  expect(result.content.startsWith('token=[REDACTED:LEAK_TEST_KEY]')).toBe(true);
  expect(result.content).not.toContain('sk-live');
  expect(result.content).not.toContain('0123');
}, 60_000);

it('redacts a secret used as a metadata key', async () => {
  const json = '{"content":"ok","metadata":{"<secret_ref:LEAK_TEST_KEY>":1}}';
  const result = await ext.host.callTool('keyed', { mode: 'print', text: json });
  expect(result).toMatchObject({ content: 'ok', is_error: false, metadata: { '[REDACTED:LEAK_TEST_KEY]': 1 } });
  expect(JSON.stringify(result)).not.toContain('sk-live');
}, 60_000);
