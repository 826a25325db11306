/**
 * The output envelope is opt-in: a real C component's stdout is its content as it is, JSON included,
 * unless the tool declares `"output": "envelope"` in its `.tool.json` or its `--help-json` spec.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;
/** rt-behave's `print <text>` writes <text> to stdout verbatim. */
const spec = (name: string) => ({
  name,
  description: 'Prints its text verbatim.',
  positionals: [
    { name: 'mode', required: true },
    { name: 'text', required: true },
  ],
});

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  const withSidecar = (name: string, sidecar: object) => {
    writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify(sidecar));
    copyFileSync(fixture('rt-behave'), join(tools, `${name}.wasm`));
  };
  withSidecar('plain', { spec: spec('plain') });
  withSidecar('text-declared', { spec: spec('text-declared'), output: 'text' });
  withSidecar('enveloped', { spec: spec('enveloped'), output: 'envelope' });
  withSidecar('bad-output', { spec: spec('bad-output'), output: 'json' });
  copyFileSync(fixture('envelope-json'), join(tools, 'envelope-json.wasm'));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

const JSON_ANSWERS = ['{"error":"boom"}', '{"content":3,"error":"x"}', '{"content":"a","is_error":true,"metadata":{"k":1}}', '[1,2]'];

it('returns the stdout of a tool without the opt-in verbatim, JSON objects included, and not as an error', async () => {
  for (const name of ['plain', 'text-declared']) {
    for (const text of JSON_ANSWERS) {
      const result = await ext.host.callTool(name, { mode: 'print', text });
      expect(result, `${name}: ${text}`).toMatchObject({ content: text, is_error: false });
      expect(result.metadata).toMatchObject({ exit_code: 0 });
      expect(result.metadata).not.toHaveProperty('k');
    }
  }
}, 60_000);

it('reads the envelope of a tool whose .tool.json says "output": "envelope"', async () => {
  expect(await ext.host.callTool('enveloped', { mode: 'print', text: '{"error":"boom"}' })).toMatchObject({ content: 'boom', is_error: true });
  const answer = await ext.host.callTool('enveloped', { mode: 'print', text: '{"content":"a","metadata":{"k":1}}' });
  expect(answer).toMatchObject({ content: 'a', is_error: false, metadata: { k: 1, exit_code: 0 } });
  // Not one JSON object: still the content as text.
  expect(await ext.host.callTool('enveloped', { mode: 'print', text: 'plain words' })).toMatchObject({ content: 'plain words', is_error: false });
}, 60_000);

it('reads the envelope of a tool whose --help-json spec says "output": "envelope"', async () => {
  const tool = ext.host.registry.get('envelope-json');
  expect(tool?.details).toMatchObject({ helpFlag: '--help-json', spec: { output: 'envelope' } });
  expect(await ext.host.callTool('envelope-json', { word: 'hello' })).toMatchObject({ content: 'hello', is_error: false, metadata: { via: 'help-json' } });
}, 60_000);

it('refuses a .tool.json whose "output" is not "envelope" or "text", naming the field', () => {
  expect(ext.host.registry.get('bad-output')).toBeUndefined();
  const failure = ext.events.find((event) => event.type === 'load_failed' && JSON.stringify(event).includes('bad-output.tool.json'));
  expect(failure).toBeDefined();
  expect(JSON.stringify(failure)).toMatch(/output: .*'envelope' \| 'text'/);
});
