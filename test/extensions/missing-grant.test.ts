/**
 * A policy fs grant whose host folder does not exist, through a real host and real C components: the
 * tool loads with a `grant-folder-missing` warning (inspection, log), its help is captured with the
 * grants that exist (so it keeps its parameters), and calls run with the grants that exist at call
 * time, the result saying which guest paths the tool went without (`metadata.missing_grants`).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectWasmTool } from '../../src/extensions/tool-inspection.ts';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import { resolvePolicy, withPresentGrants } from '../../src/policy.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;
let data: string;
let later: string;

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  const workspace = root.folder('workspace');
  data = root.folder('data');
  later = join(workspace, 'later');
  writeFileSync(join(data, 'option.txt'), 'from-folder\n');
  // help-grants reads /data/option.txt and $EXTRA_OPTION to print its help; /out is granted but missing.
  copyFileSync(fixture('help-grants'), join(tools, 'partly-granted.wasm'));
  writeFileSync(
    join(tools, 'partly-granted.policy.json'),
    JSON.stringify({ fs: [{ host: data, guest: '/data', mode: 'ro' }, { host: 'out', guest: '/out', mode: 'rw' }], env: { EXTRA_OPTION: 'from-env' } }),
  );
  // rt-behave `read <path>` prints a file; `later` (relative to the workspace) does not exist yet.
  copyFileSync(fixture('rt-behave'), join(tools, 'reader.wasm'));
  writeFileSync(
    join(tools, 'reader.tool.json'),
    JSON.stringify({ spec: { name: 'reader', positionals: [{ name: 'what' }, { name: 'path' }] } }),
  );
  writeFileSync(join(tools, 'reader.policy.json'), JSON.stringify({ fs: [{ host: data, guest: '/data', mode: 'ro' }, { host: 'later', guest: '/later', mode: 'ro' }] }));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: workspace });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

describe('a granted folder that does not exist', () => {
  it('loads the tool with its parameters: help ran with the grants that exist', () => {
    const tool = ext.host.registry.get('partly-granted');
    expect(tool).toBeDefined();
    const details = tool?.details as WasmToolDetails;
    expect(details.helpProblem).toBeUndefined();
    expect(details.helpFlag).toBe('--help');
    expect(Object.keys((tool?.inputSchema as { properties: object }).properties).sort()).toEqual(['from_env', 'from_folder']);
    expect(ext.host.loadFailures()).toEqual([]);
  });

  it('is a load warning in the inspection and in the log, naming the grant and the host folder', () => {
    const tool = ext.host.registry.get('partly-granted');
    if (tool === undefined) throw new Error('not loaded');
    const inspection = inspectWasmTool(tool, (policy) => policy);
    expect(inspection.warnings).toHaveLength(1);
    expect(inspection.warnings[0]?.code).toBe('grant-folder-missing');
    expect(inspection.warnings[0]?.message).toContain(`the policy grants /out (rw) from ${join(root.path, 'workspace', 'out')}, which does not exist`);
    // The policy shown is the one declared (the grant stays; the folder may appear later).
    expect(inspection.policy.fs.map((grant) => grant.guest)).toEqual(['/data', '/out']);
    const logged = ext.logs.filter((record) => record['code'] === 'grant-folder-missing' && record['tool'] === 'partly-granted');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40 });
    expect(String(logged[0]?.['msg'])).toContain('/out (rw)');
  });

  it('runs calls with the grants that exist and lists the missing guest paths in the result', async () => {
    const result = await ext.host.callTool('reader', { what: 'read', path: '/data/option.txt' });
    expect(result).toMatchObject({ content: 'from-folder\n', is_error: false, metadata: { missing_grants: ['/later'] } });
  });

  it('says why when a call fails on the missing grant', async () => {
    const result = await ext.host.callTool('reader', { what: 'read', path: '/later/file.txt' });
    expect(result.is_error).toBe(true);
    // wasi-libc finds no preopen for the path ("Capabilities insufficient"): the note says why.
    expect(result.content).toMatch(/^the tool exited with code 2: error: /);
    expect(result.content).toContain('note: the tool ran without /later: the folder granted there is missing on the host');
    expect(result.metadata).toMatchObject({ missing_grants: ['/later'] });
    // The host path stays with the operator.
    expect(JSON.stringify(result)).not.toContain(root.path);
  });

  it('serves the folder once it exists, without a reload', async () => {
    mkdirSync(later);
    writeFileSync(join(later, 'file.txt'), 'there now');
    const result = await ext.host.callTool('reader', { what: 'read', path: '/later/file.txt' });
    expect(result).toMatchObject({ content: 'there now', is_error: false });
    expect(result.metadata?.['missing_grants']).toBeUndefined();
  });

  it('treats a file where a folder is granted as missing ("is not a folder")', () => {
    const file = join(data, 'option.txt');
    const { policy, missing } = withPresentGrants(resolvePolicy({ fs: [{ host: data, guest: '/data', mode: 'ro' }, { host: file, guest: '/file', mode: 'ro' }] }, root.path));
    expect(policy.fs.map((grant) => grant.guest)).toEqual(['/data']);
    expect(missing).toEqual([{ grant: { host: file, guest: '/file', mode: 'ro' }, reason: 'is not a folder' }]);
  });
});
