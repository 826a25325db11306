/**
 * Tool names of dropped files (tool-names.ts): a file's tool is named after its stem (or its
 * `.tool.json` name), the program its help names goes into the description and details, and clashes
 * are settled by a documented, deterministic rule and reported. Real C components
 * (test/fixtures/c/git-clone-like.c prints `Usage: git ...` whatever its file is called;
 * ext-greet.c prints argv[0]) copied under several names into real temp folders.
 */
import { copyFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseToolName, planFolderToolNames, planToolNames, registrationOrder, wantedToolName } from '../../src/extensions/index.ts';
import type { HostEvent } from '../../src/host-types.ts';
import type { ToolResult } from '../../src/result.ts';
import { sanitizeToolName, suffixedToolName } from '../../src/tool-name.ts';
import { createExtHost, fixture, tempRoot, waitFor, waitForEvent, type ExtHost, type TempRoot } from './helpers.ts';

const CLONE = fixture('git-clone-like');
const GREET = fixture('ext-greet');
const GREET2 = fixture('ext-greet2');

/** The call succeeded and its output holds `text` (the fixtures print a JSON result; how it is mapped is not under test here). */
function expectCallResult(result: ToolResult, text: string): void {
  expect(result.is_error).toBe(false);
  expect(result.content).toContain(text);
}

const collisions = (events: readonly HostEvent[]): Extract<HostEvent, { type: 'collision' }>[] =>
  events.filter((event): event is Extract<HostEvent, { type: 'collision' }> => event.type === 'collision');

describe('naming rules (pure)', () => {
  it('a stem that already is a valid name is kept verbatim; others are sanitized to [A-Za-z0-9_-]{1,64}', () => {
    expect(wantedToolName('/x/git-clone.wasm')).toBe('git-clone');
    expect(wantedToolName('/x/_private.wasm')).toBe('_private');
    expect(wantedToolName('/x/a b.wasm')).toBe('a_b');
    expect(wantedToolName('/x/json.tool.wasm')).toBe('json_tool');
    expect(wantedToolName('/x/a b.wasm', 'chosen')).toBe('chosen');
    expect(sanitizeToolName('z'.repeat(80))).toBe('z'.repeat(64));
  });

  it('suffixes stay within 64 characters and take the lowest free number', () => {
    const long = 'n'.repeat(64);
    expect(suffixedToolName(long, 2)).toBe(`${'n'.repeat(62)}_2`);
    expect(suffixedToolName(long, 12)).toHaveLength(64);
    const taken = new Set(['x', 'x_2', 'x_4']);
    expect(chooseToolName('x', (name) => taken.has(name))).toBe('x_3');
    expect(chooseToolName('y', (name) => taken.has(name))).toBe('y');
  });

  it('registration order: verbatim-valid stems first, then file names in code-unit order', () => {
    const files = ['/d/a b.wasm', '/d/b.wasm', '/d/a_b.wasm', '/d/a+b.wasm', '/d/A.wasm'];
    expect([...files].sort(registrationOrder)).toEqual(['/d/A.wasm', '/d/a_b.wasm', '/d/b.wasm', '/d/a b.wasm', '/d/a+b.wasm']);
  });

  it('plans are independent of input order: built-ins keep their names, the first file keeps a shared name', () => {
    const entries = [
      { file: '/d/a b.wasm', wanted: 'a_b' },
      { file: '/d/shell.wasm', wanted: 'shell' },
      { file: '/d/a_b.wasm', wanted: 'a_b' },
      { file: '/d/a+b.wasm', wanted: 'a_b' },
    ];
    const plan = (list: typeof entries) => Object.fromEntries(planToolNames(list, ['shell', 'read_file']).map((entry) => [entry.file, entry.name]));
    const expected = { '/d/a_b.wasm': 'a_b', '/d/a b.wasm': 'a_b_2', '/d/a+b.wasm': 'a_b_3', '/d/shell.wasm': 'shell_2' };
    expect(plan(entries)).toEqual(expected);
    expect(plan([...entries].reverse())).toEqual(expected);
    const shell = planToolNames(entries, ['shell']).find((entry) => entry.file === '/d/shell.wasm');
    expect(shell?.clash).toMatchObject({ wanted: 'shell', name: 'shell_2', holder: 'builtin' });
    expect(shell?.clash?.reason).toContain('built-ins keep their names');
    const spaced = planToolNames(entries, []).find((entry) => entry.file === '/d/a b.wasm');
    expect(spaced?.clash).toMatchObject({ holder: 'wasm', holderFile: '/d/a_b.wasm' });
  });
});

describe('tool names of files in an extensions folder', () => {
  let root: TempRoot;
  let cacheDir: string;
  const hosts: ExtHost[] = [];
  let counter = 0;

  /** A fresh folder holding `files` (target name → source component path, or an object written as JSON). */
  function folderWith(files: Record<string, string | object>): string {
    const folder = root.folder(`extensions-${counter++}`);
    for (const [name, content] of Object.entries(files)) {
      if (typeof content === 'string') copyFileSync(content, join(folder, name));
      else writeFileSync(join(folder, name), JSON.stringify(content));
    }
    return folder;
  }

  async function hostFor(extensionsDir: string, watch = false): Promise<ExtHost> {
    const created = await createExtHost({ workspaceRoot: root.path, extensionsDir, cacheDir, watch });
    hosts.push(created);
    return created;
  }

  const wasmNames = (host: ExtHost['host']): Record<string, unknown> =>
    Object.fromEntries(host.registry.all().filter((tool) => tool.source === 'wasm').map((tool) => [tool.name, tool.details?.['file']]));

  beforeAll(() => {
    root = tempRoot('toolhost-names-');
    cacheDir = root.folder('cache');
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((entry) => entry.close()));
  });
  afterAll(() => root.remove());

  it('two files whose help names the same program are both listed, under their stems, with the program in the description', async () => {
    const folder = folderWith({ 'git-clone.wasm': CLONE, 'git-commit.wasm': CLONE });
    const { host, events } = await hostFor(folder);
    expect(host.loadFailures()).toEqual([]);
    expect(collisions(events)).toEqual([]);
    expect(wasmNames(host)).toEqual({ 'git-clone': join(folder, 'git-clone.wasm'), 'git-commit': join(folder, 'git-commit.wasm') });
    for (const name of ['git-clone', 'git-commit']) {
      const tool = host.listTools().find((candidate) => candidate.name === name);
      expect(tool?.description).toBe('Clone a repository into a new directory (program: git)');
      expect(tool?.details?.['program']).toBe('git');
      expectCallResult(await host.callTool(name, { repo: 'r1', quiet: true }), 'clone r1 quietly');
    }
  }, 60_000);

  it('a tool whose help prints argv[0] gets no redundant program note', async () => {
    const { host } = await hostFor(folderWith({ 'hello-there.wasm': GREET }));
    const tool = host.registry.get('hello-there');
    expect(tool?.details?.['program']).toBe('hello-there');
    expect(tool?.description).toBe('Greets someone by name');
  }, 60_000);

  it('.tool.json name overrides the stem; the program stays in the description', async () => {
    const folder = folderWith({ 'git-clone.wasm': CLONE, 'git-clone.tool.json': { name: 'clone_repo' } });
    const { host } = await hostFor(folder);
    expect(wasmNames(host)).toEqual({ clone_repo: join(folder, 'git-clone.wasm') });
    expect(host.registry.get('clone_repo')?.description).toBe('Clone a repository into a new directory (program: git)');
    expectCallResult(await host.callTool('clone_repo', { repo: 'x' }), 'clone x');
  }, 60_000);

  it('real clashes are resolved by the documented rule, reported, and nothing is dropped', async () => {
    const folder = folderWith({ 'a b.wasm': CLONE, 'a_b.wasm': CLONE, 'shell.wasm': GREET, 'x.wasm': GREET, 'y.wasm': GREET2, 'y.tool.json': { name: 'x' } });
    const { host, events, logs } = await hostFor(folder);
    expect(host.loadFailures()).toEqual([]);
    const expected = {
      a_b: join(folder, 'a_b.wasm'),
      a_b_2: join(folder, 'a b.wasm'),
      shell_2: join(folder, 'shell.wasm'),
      x: join(folder, 'x.wasm'),
      x_2: join(folder, 'y.wasm'),
    };
    expect(wasmNames(host)).toEqual(expected);
    expect(host.registry.get('shell')?.source).toBe('builtin');

    // Events: one collision per renamed file. Files that may compete for a name register in
    // registration order (verbatim stems first, then by file name); files that cannot register as
    // each loads, so the events of different names come in load order.
    const reported = collisions(events).map((event) => ({ name: event.name, kept: event.kept, rejected: event.rejected, file: event.file }));
    expect(reported).toHaveLength(3);
    expect(reported).toEqual(
      expect.arrayContaining([
        { name: 'shell', kept: 'builtin', rejected: 'wasm', file: join(folder, 'shell.wasm') },
        { name: 'x', kept: 'wasm', rejected: 'wasm', file: join(folder, 'y.wasm') },
        { name: 'a_b', kept: 'wasm', rejected: 'wasm', file: join(folder, 'a b.wasm') },
      ]),
    );
    const shellEvent = collisions(events).find((event) => event.name === 'shell');
    expect(shellEvent?.reason).toBe('shell.wasm wants the tool name "shell", which a built-in tool already has (built-ins keep their names); it is served as "shell_2"');
    expect(collisions(events).find((event) => event.name === 'a_b')?.reason).toContain('which a_b.wasm already has');
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'tool name collision', name: 'shell', servedAs: 'shell_2', file: join(folder, 'shell.wasm') }));

    // What `list` can show: the renamed tools carry their clash in details.
    expect(host.registry.get('shell_2')?.details?.['name_clash']).toEqual({ wanted: 'shell', reason: shellEvent?.reason });
    expect(host.registry.get('a_b')?.details?.['name_clash']).toBeUndefined();
    // What `check` can show: the folder plan is the names the host gave.
    const builtins = host.registry.all().filter((tool) => tool.source === 'builtin').map((tool) => tool.name);
    const plan = await planFolderToolNames(folder, builtins);
    expect(Object.fromEntries(plan.map((entry) => [entry.name, entry.file]))).toEqual(expected);
    expect(plan.find((entry) => entry.name === 'shell_2')?.clash?.reason).toBe(shellEvent?.reason);

    // Every file serves under its name.
    expectCallResult(await host.callTool('a_b_2', { repo: 'r' }), 'clone r');
    expectCallResult(await host.callTool('shell_2', { name: 'Ada' }), 'Hello, Ada!');
    expectCallResult(await host.callTool('x_2', { name: 'Ada' }), 'Hello, Ada! (v2)');

    // Deterministic: a second host on the same folder gives the same names.
    await hosts.splice(0).reduce((done, entry) => done.then(() => entry.close()), Promise.resolve());
    const again = await hostFor(folder);
    expect(wasmNames(again.host)).toEqual(expected);
  }, 90_000);

  it('hot reload keeps names stable: a changed file keeps its name, a removed file frees its name', async () => {
    const folder = folderWith({ 'a_b.wasm': GREET, 'a b.wasm': GREET });
    const { host, events } = await hostFor(folder, true);
    expect(wasmNames(host)).toEqual({ a_b: join(folder, 'a_b.wasm'), a_b_2: join(folder, 'a b.wasm') });

    // A changed file keeps its (suffixed) name.
    let mark = events.length;
    copyFileSync(GREET2, join(folder, 'a b.wasm'));
    await waitForEvent(events, (event) => event.type === 'updated' && event.name === 'a_b_2', mark);
    expectCallResult(await host.callTool('a_b_2', { name: 'Ada' }), 'Hello, Ada! (v2)');
    expect(host.registry.get('a_b_2')?.details?.['name_clash']).toMatchObject({ wanted: 'a_b' });

    // Removing the holder frees a_b; the renamed file keeps a_b_2 (no name moves under its callers).
    mark = events.length;
    unlinkSync(join(folder, 'a_b.wasm'));
    await waitForEvent(events, (event) => event.type === 'removed' && event.name === 'a_b', mark);
    expect(wasmNames(host)).toEqual({ a_b_2: join(folder, 'a b.wasm') });

    // The freed name goes to the next file that wants it.
    mark = events.length;
    copyFileSync(GREET, join(folder, 'a+b.wasm'));
    await waitForEvent(events, (event) => event.type === 'added' && event.name === 'a_b', mark);
    expect(wasmNames(host)).toEqual({ a_b: join(folder, 'a+b.wasm'), a_b_2: join(folder, 'a b.wasm') });

    // A file dropped in under a built-in's name is served under a suffix, with a collision event.
    mark = events.length;
    copyFileSync(GREET, join(folder, 'shell.wasm'));
    const collision = await waitForEvent(events, (event) => event.type === 'collision' && event.name === 'shell', mark);
    expect(collision).toMatchObject({ kept: 'builtin', rejected: 'wasm', file: join(folder, 'shell.wasm') });
    await waitFor('shell_2 to be registered', () => host.registry.get('shell_2'));
    expect(host.registry.get('shell')?.source).toBe('builtin');
    expect(host.loadFailures()).toEqual([]);
  }, 90_000);
});
