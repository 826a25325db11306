/**
 * Help capture through the host with a real C component (test/fixtures/c/help-grants.c): help runs
 * with the tool's own policy grants, and a run that trapped, timed out or exited non-zero without
 * printing help is not taken as help: the tool loads without parameters, named after its file, and
 * says why in its details.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  const data = root.folder('data');
  writeFileSync(join(data, 'option.txt'), 'from-folder\n');
  const tool = (name: string, policy?: object) => {
    if (policy !== undefined) writeFileSync(join(tools, `${name}.policy.json`), JSON.stringify(policy));
    copyFileSync(fixture('help-grants'), join(tools, `${name}.wasm`));
  };
  tool('granted', { fs: [{ host: data, guest: '/data', mode: 'ro' }], env: { EXTRA_OPTION: 'from-env' } });
  tool('ungranted');
  tool('trapping', { env: { HELP_MODE: 'trap' } });
  tool('exiting', { env: { HELP_MODE: 'exit' } });
  tool('hanging', { env: { HELP_MODE: 'hang' }, timeout_ms: 300 });
  tool('go-usage', { env: { HELP_MODE: 'usage' } });
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

function details(name: string): WasmToolDetails {
  const tool = ext.host.registry.get(name);
  expect(tool, `tool ${name} is loaded`).toBeDefined();
  return tool?.details as WasmToolDetails;
}

describe('help capture with real components', () => {
  it('runs --help with the tool’s granted folder and environment', () => {
    const tool = ext.host.registry.get('granted');
    expect(details('granted')).toMatchObject({ helpFlag: '--help' });
    expect(details('granted').helpProblem).toBeUndefined();
    expect(Object.keys((tool?.inputSchema as { properties: object }).properties).sort()).toEqual(['from_env', 'from_folder']);
  });

  it('takes a non-zero exit whose output reads like help (Go flag style usage, exit 2)', () => {
    const tool = ext.host.registry.get('go-usage');
    expect(details('go-usage')).toMatchObject({ helpFlag: '--help' });
    expect(Object.keys((tool?.inputSchema as { properties: object }).properties).sort()).toEqual(['limit', 'quiet']);
  });

  it.each([
    ['ungranted', /--help: exit 1/],
    ['trapping', /--help: exit null/],
    ['exiting', /--help: exit 3/],
    ['hanging', /--help: exit null/],
  ])('%s: help that failed is not taken; the tool loads without parameters, named after its file, and says why', async (name, reason) => {
    const tool = ext.host.registry.get(name);
    expect(tool?.inputSchema).toMatchObject({ type: 'object' });
    expect((tool?.inputSchema as { properties?: object }).properties ?? {}).toEqual({});
    expect(details(name)).toMatchObject({ helpFlag: 'none', spec: { name, options: [] } });
    expect(details(name).helpProblem).toMatch(reason);
    // Nothing of the failed output became the description or a name.
    expect(tool?.description).not.toMatch(/assertion|error|configuration|starting/i);
    expect(ext.host.listTools().map((listed) => listed.name)).not.toContain('assertion');
    // The tool still runs.
    expect(await ext.host.callTool(name, {})).toMatchObject({ content: 'ran\n', is_error: false });
  }, 60_000);
});
