/**
 * Wasm tools through the host: a real C component (test/fixtures/c/ext-greet.c) in a temp
 * extensions folder, loaded by `createHost(..., { extensions: wasmExtensions() })`: listing, schema,
 * calls through the bridge, sidecars, and how bad files and name collisions are reported.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExtHost, ENVELOPE_SIDECAR, FIXTURES, fixture, printsEnvelope, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

describe('wasm tools in an extensions folder', () => {
  let root: TempRoot;
  let cacheDir: string;
  const hosts: ExtHost[] = [];
  let counter = 0;

  /** A fresh extensions folder holding `files` (target name → source path or bytes/text). */
  function extensionsWith(files: Record<string, string | Uint8Array | object>): string {
    const folder = root.folder(`extensions-${counter++}`);
    // Fixtures that print the envelope opt in to it, as their authors would (a given sidecar keeps its fields).
    files = { ...files };
    for (const [name, content] of Object.entries(files)) {
      if (!name.endsWith('.wasm') || typeof content !== 'string' || !printsEnvelope(content)) continue;
      const sidecar = name.replace(/\.wasm$/, '.tool.json');
      const given = files[sidecar];
      if (given === undefined || (typeof given === 'object' && !(given instanceof Uint8Array))) files[sidecar] = { ...ENVELOPE_SIDECAR, ...(given as object | undefined) };
    }
    for (const [name, content] of Object.entries(files)) {
      const target = join(folder, name);
      if (typeof content === 'string') copyFileSync(content, target);
      else if (content instanceof Uint8Array) writeFileSync(target, content);
      else writeFileSync(target, JSON.stringify(content));
    }
    return folder;
  }

  async function hostFor(extensionsDir: string): Promise<ExtHost> {
    const created = await createExtHost({ workspaceRoot: root.path, extensionsDir, cacheDir });
    hosts.push(created);
    return created;
  }

  beforeAll(() => {
    root = tempRoot();
    cacheDir = root.folder('cache');
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((entry) => entry.close()));
  });
  afterAll(() => root.remove());

  /** `metadata.timing`: the call's time split into instantiating (fresh WASI host and instance) and running, both within the call's duration. */
  function expectTimingSplit(metadata: Record<string, unknown> | undefined): void {
    const timing = metadata?.['timing'] as { instantiate_ms: number; run_ms: number } | undefined;
    expect(timing).toEqual({ instantiate_ms: expect.any(Number), run_ms: expect.any(Number) });
    expect(timing!.instantiate_ms).toBeGreaterThan(0);
    expect(timing!.run_ms).toBeGreaterThan(0);
    expect(timing!.instantiate_ms + timing!.run_ms).toBeLessThanOrEqual(metadata?.['duration_ms'] as number);
  }

  it('loads a component that ignores --help (prints its JSON result) as a tool without parameters', async () => {
    const { host } = await hostFor(extensionsWith({ 'rt-echo.wasm': fixture('rt-echo') }));
    expect(host.loadFailures()).toEqual([]);
    const tool = host.listTools().find((candidate) => candidate.name === 'rt-echo');
    expect(tool?.description).toBe('Runs the rt-echo command-line tool (wasm).');
    expect(tool?.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    const result = await host.callTool('rt-echo', {});
    expect(result).toMatchObject({ content: '', is_error: false, metadata: { exit_code: 0 } });
    expectTimingSplit(result.metadata);
  }, 60_000);

  it('loads a standard Go wasip1 binary (duplicate imports, Go flag help) and maps JSON to its argv', async () => {
    const { host } = await hostFor(extensionsWith({ 'go-greet.wasm': join(FIXTURES, 'go-greet.core.wasm') }));
    expect(host.loadFailures()).toEqual([]);
    const tool = host.listTools().find((candidate) => candidate.name === 'go-greet');
    expect(tool?.description).toBe('go-greet greets someone, written in Go.');
    const schema = tool?.inputSchema as { properties: Record<string, { type: string }>; required: string[] };
    expect(Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, value.type]))).toEqual({
      greeting: 'string',
      times: 'integer',
      shout: 'boolean',
      name: 'string',
    });
    expect(schema.required).toEqual(['name']);
    // A bare wasip1 module runs on toolhost's preview1 host: no adapter pages share Go's heap.
    const result = await host.callTool('go-greet', { name: 'Ada', shout: false });
    expect(result).toMatchObject({ content: 'Hello, Ada!', is_error: false, metadata: { language: 'go', times: 1, exit_code: 0 } });
    expectTimingSplit(result.metadata);
  }, 60_000);

  it('runs an adapter-wrapped C component without the adapter: an argument past the adapter\'s 59 KB arena arrives intact', async () => {
    const { host } = await hostFor(extensionsWith({ 'ext-greet.wasm': fixture('ext-greet') }));
    const large = await host.callTool('ext-greet', { name: 'a'.repeat(100_000) });
    expect(large.is_error).toBe(false);
    expect(large.content).toContain(`Hello, ${'a'.repeat(100_000)}!`);
    expect(large.content).not.toContain('adapter line');
  }, 60_000);

  it('cancels a running wasm call when the host closes after its grace period', async () => {
    const { host } = await hostFor(extensionsWith({ 'ext-greet.wasm': fixture('ext-greet') }));
    const call = host.callTool('ext-greet', { name: 'Ada', delay_ms: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await host.close({ graceMs: 100 });
    expect(await call).toMatchObject({ content: 'the call was cancelled before the tool finished', is_error: true, metadata: { cancelled: true } });
  }, 30_000);

  it('lists the component as a wasm tool with a schema derived from its --help', async () => {
    const { host } = await hostFor(extensionsWith({ 'ext-greet.wasm': fixture('ext-greet') }));
    expect(host.loadFailures()).toEqual([]);
    const tool = host.listTools().find((candidate) => candidate.name === 'ext-greet');
    expect(tool).toBeDefined();
    expect(tool?.source).toBe('wasm');
    expect(tool?.description).toBe('Greets someone by name');
    expect(tool?.permission).toBe('none');
    const schema = tool?.inputSchema as { type: string; properties: Record<string, { type: string; description?: string }>; required: string[]; additionalProperties: boolean };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties).sort()).toEqual(['delay_ms', 'greeting', 'name', 'shout', 'times']);
    expect(schema.properties['name']).toMatchObject({ type: 'string', description: 'Who to greet' });
    expect(schema.properties['greeting']).toMatchObject({ type: 'string', description: 'Greeting word (default: Hello)' });
    expect(schema.properties['times']).toMatchObject({ type: 'integer', description: 'Repeat count (default: 1)' });
    expect(schema.properties['shout']).toMatchObject({ type: 'boolean', description: 'Upper-case the output' });
    expect(schema.required).toEqual(['name']);
    expect(schema.additionalProperties).toBe(false);
    // The built-ins are still there beside it.
    expect(host.listTools().filter((candidate) => candidate.source === 'builtin').length).toBeGreaterThan(0);
  }, 60_000);

  it('runs a call: JSON arguments become argv, the JSON answer becomes content + metadata', async () => {
    const { host } = await hostFor(extensionsWith({ 'ext-greet.wasm': fixture('ext-greet') }));
    const shouted = await host.callTool('ext-greet', { name: 'Ada', times: '2', shout: true });
    expect(shouted.is_error).toBe(false);
    expect(shouted.content).toBe('HELLO, ADA! HELLO, ADA!');
    expect(shouted.metadata).toMatchObject({ times: 2, version: 1, exit_code: 0 });
    expect(typeof shouted.metadata?.['duration_ms']).toBe('number');

    const plain = await host.callTool('ext-greet', { name: 'Grace', greeting: 'Hi' });
    expect(plain).toMatchObject({ is_error: false, content: 'Hi, Grace!', metadata: { times: 1 } });

    // A positional starting with "-" is passed after "--", so the program does not read it as an option.
    const dashed = await host.callTool('ext-greet', { name: '-x' });
    expect(dashed).toMatchObject({ is_error: false, content: 'Hello, -x!' });
  }, 60_000);

  it('reports bad arguments before running (the bridge), and the tool\'s own errors after', async () => {
    const { host } = await hostFor(extensionsWith({ 'ext-greet.wasm': fixture('ext-greet') }));
    const badType = await host.callTool('ext-greet', { name: 'Ada', times: 'x' });
    expect(badType.is_error).toBe(true);
    expect(badType.content).toContain('times');
    expect(badType.metadata?.['exit_code']).toBeUndefined();

    const missing = await host.callTool('ext-greet', { times: 2 });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toContain('name');

    const unknown = await host.callTool('ext-greet', { name: 'Ada', volume: 11 });
    expect(unknown.is_error).toBe(true);
    expect(unknown.content).toContain('volume');

    // Valid for the schema, refused by the program: it exits 2 with {"error": ...}, and the exact code
    // survives the preview1 command adapter the fixtures are built with.
    const refused = await host.callTool('ext-greet', { name: 'Ada', times: 500 });
    expect(refused.is_error).toBe(true);
    expect(refused.content).toBe('the tool exited with code 2: --times must be between 1 and 100');
    expect(refused.metadata).toMatchObject({ exit_code: 2 });
  }, 60_000);

  it('applies a .tool.json sidecar: another name and description', async () => {
    const folder = extensionsWith({
      'ext-greet.wasm': fixture('ext-greet'),
      'ext-greet.tool.json': { name: 'greeter', description: 'Says hello to someone', options: { times: { description: 'How many greetings' } } },
    });
    const { host } = await hostFor(folder);
    expect(host.loadFailures()).toEqual([]);
    const names = host.listTools().map((tool) => tool.name);
    expect(names).toContain('greeter');
    expect(names).not.toContain('ext-greet');
    const tool = host.registry.get('greeter');
    expect(tool?.description).toBe('Says hello to someone');
    expect((tool?.inputSchema as { properties: Record<string, { description?: string }> }).properties['times']?.description).toBe('How many greetings (default: 1)');
    expect(tool?.details?.['file']).toBe(join(folder, 'ext-greet.wasm'));
    expect(await host.callTool('greeter', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
  }, 60_000);

  it('refuses a tool whose .policy.json is invalid, naming the field; the other tools still serve', async () => {
    const folder = extensionsWith({
      'ext-greet.wasm': fixture('ext-greet'),
      'ext-greet.policy.json': { timeout_ms: 'soon' },
      'other.wasm': fixture('ext-greet'),
    });
    const { host, events } = await hostFor(folder);
    const failures = host.loadFailures();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ file: join(folder, 'ext-greet.wasm'), code: 'POLICY_INVALID' });
    expect(failures[0]?.error).toContain('timeout_ms');
    expect(failures[0]?.error).toContain('ext-greet.policy.json');
    expect(events).toContainEqual({ type: 'load_failed', ...failures[0] });
    const names = host.listTools().map((tool) => tool.name);
    expect(names).not.toContain('ext-greet');
    expect(names).toContain('other');
    expect(names).toContain('read_file');
    expect(await host.callTool('other', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: true });
  }, 60_000);

  it('applies a valid .policy.json: a granted folder makes the tool read_only', async () => {
    const folder = extensionsWith({
      'ext-greet.wasm': fixture('ext-greet'),
      'ext-greet.policy.json': { fs: [{ host: '.', guest: '/work', mode: 'ro' }], timeout_ms: 4000 },
    });
    const { host } = await hostFor(folder);
    expect(host.loadFailures()).toEqual([]);
    const tool = host.registry.get('ext-greet');
    expect(tool?.permission).toBe('read_only');
    expect(tool?.details?.['policy']).toMatchObject({ timeout_ms: 4000, fs: [{ host: root.path, guest: '/work', mode: 'ro' }] });
  }, 60_000);

  it('reports a broken .wasm (garbage bytes) as load_failed and still loads the good one next to it', async () => {
    const folder = extensionsWith({
      'aaa-broken.wasm': new TextEncoder().encode('this is not a wasm file at all\n'.repeat(20)),
      'ext-greet.wasm': fixture('ext-greet'),
      'zzz-truncated.wasm': new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00, 0x01, 0x02]),
    });
    const { host, events } = await hostFor(folder);
    const failures = host.loadFailures();
    expect(failures.map((failure) => failure.file).sort()).toEqual([join(folder, 'aaa-broken.wasm'), join(folder, 'zzz-truncated.wasm')]);
    for (const failure of failures) {
      expect(failure.code).toEqual(expect.any(String));
      expect(failure.error.length).toBeGreaterThan(0);
    }
    expect(events.filter((event) => event.type === 'load_failed')).toHaveLength(2);
    expect(host.listTools().map((tool) => tool.name)).toContain('ext-greet');
    expect(await host.callTool('ext-greet', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
  }, 60_000);

  it('names the tool after its file: a copy named read_file.wasm is served as read_file_2 and the built-in keeps its name', async () => {
    const folder = extensionsWith({ 'read_file.wasm': fixture('ext-greet'), 'ext-greet.wasm': fixture('ext-greet') });
    const { host, logs, events } = await hostFor(folder);
    const readFile = host.registry.get('read_file');
    expect(readFile?.source).toBe('builtin');
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'tool name collision', name: 'read_file', servedAs: 'read_file_2', file: join(folder, 'read_file.wasm') }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'collision', name: 'read_file', kept: 'builtin', rejected: 'wasm', file: join(folder, 'read_file.wasm') }));
    // Nothing is dropped: the file serves under the suffixed name.
    expect(host.loadFailures()).toEqual([]);
    expect(host.registry.get('read_file_2')?.details?.['file']).toBe(join(folder, 'read_file.wasm'));
    expect(host.registry.get('read_file_2')?.details?.['name_clash']).toMatchObject({ wanted: 'read_file', reason: expect.stringContaining('built-ins keep their names') });
    // The same bytes under their own name load too.
    expect(host.registry.get('ext-greet')?.source).toBe('wasm');
    // read_file is still the built-in: it wants a path, not a name.
    const call = await host.callTool('read_file', { name: 'Ada' });
    expect(call.is_error).toBe(true);
    expect(call.content).not.toContain('Hello');
  }, 60_000);

  it('names copies of one component after their files, also when the help cache already has the bytes', async () => {
    const first = await hostFor(extensionsWith({ 'ext-greet.wasm': fixture('ext-greet') }));
    expect(first.host.registry.get('ext-greet')?.source).toBe('wasm');
    await first.close();
    // Same bytes, same cache folder, another file name: the tool is named after the new file.
    const { host } = await hostFor(extensionsWith({ 'hello-there.wasm': fixture('ext-greet') }));
    expect(host.loadFailures()).toEqual([]);
    expect(host.listTools().filter((tool) => tool.source === 'wasm').map((tool) => tool.name)).toEqual(['hello-there']);
    expect(await host.callTool('hello-there', { name: 'Ada' })).toMatchObject({ is_error: false, content: 'Hello, Ada!' });
  }, 60_000);

  it('a .tool.json naming the tool after a built-in collides too: the built-in keeps the name, the file gets a suffix', async () => {
    const folder = extensionsWith({ 'ext-greet.wasm': fixture('ext-greet'), 'ext-greet.tool.json': { name: 'list_dir' } });
    const { host, logs } = await hostFor(folder);
    expect(host.registry.get('list_dir')?.source).toBe('builtin');
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'tool name collision', name: 'list_dir', servedAs: 'list_dir_2', reason: expect.stringContaining('built-ins keep their names') }));
    expect(host.loadFailures()).toEqual([]);
    expect(host.listTools().filter((tool) => tool.source === 'wasm').map((tool) => tool.name)).toEqual(['list_dir_2']);
  }, 60_000);

  it('two files that resolve to the same tool name: the first by file name keeps it, the other gets a suffix and is reported', async () => {
    const folder = extensionsWith({
      'a.wasm': fixture('ext-greet'),
      'a.tool.json': { name: 'greeter' },
      'b.wasm': fixture('ext-greet2'),
      'b.tool.json': { name: 'greeter' },
    });
    const { host, events } = await hostFor(folder);
    // The initial scan registers in file-name order: the first file keeps the name.
    expect(host.registry.get('greeter')?.details?.['file']).toBe(join(folder, 'a.wasm'));
    expect(host.registry.get('greeter_2')?.details?.['file']).toBe(join(folder, 'b.wasm'));
    expect(host.loadFailures()).toEqual([]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'collision', name: 'greeter', kept: 'wasm', rejected: 'wasm', file: join(folder, 'b.wasm') }));
  }, 60_000);
});
