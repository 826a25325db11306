/**
 * The on-disk help cache is keyed by what the help depends on: the component's bytes and argv[0], the
 * grants its help runs with (test/fixtures/c/help-grants.c names an option after $EXTRA_OPTION), and,
 * as its folder, the toolhost version and the argv tried. A second host on the same cache reuses the
 * help of an unchanged tool and captures it again when a grant changed.
 */
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { helpCacheNamespace } from '../../src/introspect/capture.ts';
import { packageVersion } from '../../src/package-root.ts';
import { createExtHost, fixture, tempRoot, type TempRoot } from './helpers.ts';

let root: TempRoot;
beforeEach(() => {
  root = tempRoot();
});
afterEach(() => root.remove());

async function optionsWith(extraOption: string): Promise<string[]> {
  const tools = root.folder('tools');
  const data = root.folder('data');
  writeFileSync(join(data, 'option.txt'), 'from-folder\n');
  writeFileSync(join(tools, 'grants.policy.json'), JSON.stringify({ fs: [{ host: data, guest: '/data', mode: 'ro' }], env: { EXTRA_OPTION: extraOption } }));
  copyFileSync(fixture('help-grants'), join(tools, 'grants.wasm'));
  const ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
  try {
    const tool = ext.host.registry.get('grants');
    return Object.keys((tool?.inputSchema as { properties: object }).properties).sort();
  } finally {
    await ext.close();
  }
}

it('captures help again when a grant the help runs with changed, and files it under the toolhost version', async () => {
  expect(await optionsWith('alpha')).toEqual(['alpha', 'from_folder']);
  const helpFolder = join(root.folder('cache'), 'help', helpCacheNamespace(packageVersion()));
  expect(existsSync(helpFolder)).toBe(true);
  expect(readdirSync(helpFolder)).toHaveLength(1);
  expect(await optionsWith('beta')).toEqual(['beta', 'from_folder']);
  expect(readdirSync(helpFolder)).toHaveLength(2);
  // Unchanged grants: the entry is reused, nothing new is written.
  expect(await optionsWith('alpha')).toEqual(['alpha', 'from_folder']);
  expect(readdirSync(helpFolder)).toHaveLength(2);
}, 120_000);

it('names the namespace after the version and the argv tried', () => {
  expect(helpCacheNamespace('1.2.3')).toMatch(/^v1\.2\.3-[0-9a-f]{12}$/);
  expect(helpCacheNamespace('1.2.3')).not.toBe(helpCacheNamespace('1.2.4'));
});
