/**
 * The workspace as MCP resources, through real parts: a real daemon on loopback (startServer) and the
 * SDK's Client over Streamable HTTP, and a real `toolhost mcp` process over stdio. list (paginated),
 * read (text, binary as base64), the `file:///{path}` template and its completion, subscribe → a file
 * change → `notifications/resources/updated`, a new file → `notifications/resources/list_changed`
 * (waited on as events, never slept on), and the attacks a client could try: `..`, `%2e%2e`, `%2F..`,
 * an absolute path, a host part, a symlink out of the workspace, a FIFO, a device (via a link), a huge
 * file; and a host in permission mode `none`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, appendFileSync, unlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COMPLETION_VALUES, RESOURCE_PAGE_SIZE } from '../../src/resources/workspace-source.ts';
import { RESOURCE_NOT_FOUND_CODE } from '../../src/server/mcp-resources.ts';
import { BIN, cliEnvironment } from '../cli/run-cli.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);

let scratch: string;
let workspace: string;
let outside: string;
let daemon: TestServer;
let denied: TestServer;
const clients: Client[] = [];

function makeWorkspace(root: string): void {
  mkdirSync(join(root, 'src/nested'), { recursive: true });
  writeFileSync(join(root, 'README.md'), '# hello\n');
  writeFileSync(join(root, 'src/index.ts'), 'export const answer = 42;\n');
  writeFileSync(join(root, 'src/nested/deep.txt'), 'deep\n');
  writeFileSync(join(root, 'logo.png'), PNG_BYTES);
  writeFileSync(join(root, 'name with space.txt'), 'spaced\n');
  mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
  writeFileSync(join(root, 'node_modules/pkg/index.js'), 'ignored\n');
  // Links: one inside (listed, readable), one to a file outside, one to a directory outside.
  symlinkSync('src/index.ts', join(root, 'inside-link.ts'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'escape-absolute'));
  symlinkSync('../outside/secret.txt', join(root, 'escape-relative'));
  symlinkSync(outside, join(root, 'outside-dir'));
  symlinkSync('/dev/zero', join(root, 'zero'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
}

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-mcp-resources-')));
  outside = join(scratch, 'outside');
  workspace = join(scratch, 'workspace');
  mkdirSync(outside);
  mkdirSync(workspace);
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  makeWorkspace(workspace);
  daemon = await startTestServer({}, { workspaceRoot: workspace });
  const deniedWorkspace = join(scratch, 'denied');
  mkdirSync(deniedWorkspace);
  writeFileSync(join(deniedWorkspace, 'a.txt'), 'a\n');
  denied = await startTestServer({}, { workspaceRoot: deniedWorkspace, permissionMode: 'none' });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await daemon?.close();
  await denied?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function connect(server: TestServer = daemon): Promise<Client> {
  const client = new Client({ name: 'toolhost-resources-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  clients.push(client);
  return client;
}

async function listAll(client: Client): Promise<string[]> {
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    uris.push(...page.resources.map((resource) => resource.uri));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return uris;
}

/** The JSON-RPC error a request is refused with. */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string; data?: any }> {
  try {
    await request;
  } catch (error) {
    return error as { code: number; message: string; data?: any };
  }
  throw new Error('the request was answered, not refused');
}

describe('MCP resources over Streamable HTTP', () => {
  it('declares resources (subscribe, listChanged) and completions', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, completions: {} });
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
  });

  it('lists workspace files as file:/// URIs, skipping node_modules, links out, FIFOs and devices', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'file:///README.md',
      'file:///inside-link.ts',
      'file:///logo.png',
      'file:///name%20with%20space.txt',
      'file:///src/index.ts',
      'file:///src/nested/deep.txt',
    ]);
    expect(resources.find((resource) => resource.uri === 'file:///logo.png')).toMatchObject({ name: 'logo.png', mimeType: 'image/png' });
  });

  it('reads a text file as text with a media type', async () => {
    const client = await connect();
    const { contents } = await client.readResource({ uri: 'file:///src/index.ts' });
    expect(contents).toEqual([{ uri: 'file:///src/index.ts', mimeType: 'text/x-typescript', text: 'export const answer = 42;\n' }]);
    const spaced = await client.readResource({ uri: 'file:///name%20with%20space.txt' });
    expect(spaced.contents[0]).toMatchObject({ text: 'spaced\n', mimeType: 'text/plain' });
    // A link that stays inside reads its target.
    expect((await client.readResource({ uri: 'file:///inside-link.ts' })).contents[0]).toMatchObject({ text: 'export const answer = 42;\n' });
  });

  it('reads a binary file as a base64 blob', async () => {
    const client = await connect();
    const { contents } = await client.readResource({ uri: 'file:///logo.png' });
    expect(contents).toHaveLength(1);
    const [content] = contents as [{ uri: string; mimeType: string; blob: string }];
    expect(content.mimeType).toBe('image/png');
    expect(Buffer.from(content.blob, 'base64').equals(PNG_BYTES)).toBe(true);
  });

  it('offers the file:///{path} template; a URI filled by RFC 6570 (%2F) reads the same file', async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'file:///{path}', name: 'workspace-file' })]);
    const { contents } = await client.readResource({ uri: 'file:///src%2Fnested%2Fdeep.txt' });
    expect(contents[0]).toMatchObject({ text: 'deep\n' });
  });

  it('completes the template path argument with workspace paths (prefix match)', async () => {
    const client = await connect();
    const ref = { type: 'ref/resource' as const, uri: 'file:///{path}' };
    const top = await client.complete({ ref, argument: { name: 'path', value: 's' } });
    expect(top.completion.values).toEqual(['src/']);
    const inside = await client.complete({ ref, argument: { name: 'path', value: 'src/' } });
    expect(inside.completion).toMatchObject({ values: ['src/index.ts', 'src/nested/'], total: 2, hasMore: false });
    const all = await client.complete({ ref, argument: { name: 'path', value: '' } });
    expect(all.completion.values).not.toContain('node_modules/');
    const climbing = await client.complete({ ref, argument: { name: 'path', value: '../' } });
    expect(climbing.completion.values).toEqual([]);
    const escaping = await client.complete({ ref, argument: { name: 'path', value: 'outside-dir/' } });
    expect(escaping.completion.values).toEqual([]);
    const prompt = await refusal(client.complete({ ref: { type: 'ref/prompt', name: 'anything' }, argument: { name: 'a', value: '' } }));
    expect(prompt.code).toBe(-32602);
    expect(prompt.message).toMatch(/no prompts/);
  });

  it('pages a large listing with cursors, every file once, in order', async () => {
    const bulk = join(workspace, 'bulk');
    mkdirSync(bulk);
    const count = RESOURCE_PAGE_SIZE + 37;
    for (let index = 0; index < count; index += 1) writeFileSync(join(bulk, `f${String(index).padStart(4, '0')}.txt`), `${index}\n`);
    try {
      const client = await connect();
      const first = await client.listResources();
      expect(first.resources).toHaveLength(RESOURCE_PAGE_SIZE);
      expect(first.nextCursor).toEqual(expect.any(String));
      const uris = await listAll(client);
      const bulkUris = uris.filter((uri) => uri.startsWith('file:///bulk/'));
      expect(bulkUris).toHaveLength(count);
      expect(new Set(uris).size).toBe(uris.length);
      expect([...bulkUris].sort()).toEqual(bulkUris);
      expect(uris).toContain('file:///src/nested/deep.txt');
      // Completion is bounded too: the first MAX_COMPLETION_VALUES names, with the total.
      const completed = await client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: 'bulk/f0' } });
      expect(completed.completion).toMatchObject({ total: count, hasMore: true });
      expect(completed.completion.values).toHaveLength(MAX_COMPLETION_VALUES);
      expect(completed.completion.values[0]).toBe('bulk/f0000.txt');
      const bad = await refusal(client.listResources({ cursor: 'not-a-cursor' }));
      expect(bad.code).toBe(-32602);
    } finally {
      rmSync(bulk, { recursive: true, force: true });
    }
  });

  it('refuses traversal, absolute paths, host parts, links out, FIFOs and devices', async () => {
    const client = await connect();
    const attacks: Array<[string, RegExp]> = [
      ['file:///../outside/secret.txt', /"\.\." segment/],
      ['file:///src/../../outside/secret.txt', /"\.\." segment/],
      ['file:///%2e%2e/outside/secret.txt', /"\.\." segment/],
      ['file:///%2E%2E%2Foutside%2Fsecret.txt', /"\.\." segment/],
      ['file:///src%2F..%2F..%2Foutside%2Fsecret.txt', /"\.\." segment/],
      [`file:///${join(outside, 'secret.txt')}`, /empty path segment|No workspace file/],
      [`file:////${join(outside, 'secret.txt').slice(1)}`, /empty path segment/],
      ['file://localhost/README.md', /names a host/],
      ['file://evil.example/etc/passwd', /names a host/],
      ['file:///escape-absolute', /outside the workspace/],
      ['file:///escape-relative', /outside the workspace/],
      ['file:///outside-dir/secret.txt', /outside the workspace/],
      ['file:///zero', /outside the workspace/],
      ['file:///pipe', /not a regular file/],
      ['file:///src', /is a directory/],
      ['file:///README.md%00.txt', /NUL/],
      ['file:///%zz', /malformed/],
      ['https://example.com/README.md', /No resource source serves/],
    ];
    for (const [uri, message] of attacks) {
      const error = await refusal(client.readResource({ uri }));
      expect.soft(error.message, uri).toMatch(message);
      expect.soft(error.message, uri).not.toContain('TOP SECRET');
    }
    const missing = await refusal(client.readResource({ uri: 'file:///no/such/file.txt' }));
    expect(missing.code).toBe(RESOURCE_NOT_FOUND_CODE);
    expect(missing.message).toBe(`MCP error ${RESOURCE_NOT_FOUND_CODE}: No workspace file at file:///no/such/file.txt.`);
    expect(missing.data).toEqual({ reason: 'NOT_FOUND', uri: 'file:///no/such/file.txt' });
  });

  it('refuses a file over the size cap with its size and the cap', async () => {
    const huge = join(workspace, 'huge.bin');
    // Sparse: 11 MiB of file without writing it.
    execFileSync('truncate', ['-s', String(11 * 1024 * 1024), huge]);
    try {
      const client = await connect();
      const error = await refusal(client.readResource({ uri: 'file:///huge.bin' }));
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/over the 10\.0 MB limit/);
      expect(error.data).toMatchObject({ reason: 'TOO_LARGE', size: 11 * 1024 * 1024, limit: 10 * 1024 * 1024 });
    } finally {
      unlinkSync(huge);
    }
  });

  it('subscribe: a change to the file sends notifications/resources/updated; unsubscribe stops them', async () => {
    const watched = join(workspace, 'watched.txt');
    const other = join(workspace, 'other.txt');
    writeFileSync(watched, 'v1\n');
    writeFileSync(other, 'o1\n');
    try {
      const client = await connect();
      const updates: string[] = [];
      let wake: () => void = () => undefined;
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updates.push(notification.params.uri);
        wake();
      });
      const next = () => new Promise<void>((resolve) => (wake = resolve));
      await client.subscribeResource({ uri: 'file:///watched.txt' });
      await client.subscribeResource({ uri: 'file:///other.txt' });
      let updated = next();
      appendFileSync(watched, 'v2\n');
      await updated;
      expect(updates).toContain('file:///watched.txt');
      expect((await client.readResource({ uri: 'file:///watched.txt' })).contents[0]).toMatchObject({ text: 'v1\nv2\n' });
      // After unsubscribing from watched.txt, a change to it is not sent; the other subscription still is.
      await client.unsubscribeResource({ uri: 'file:///watched.txt' });
      updates.length = 0;
      updated = next();
      appendFileSync(watched, 'v3\n');
      appendFileSync(other, 'o2\n');
      await updated;
      expect(updates).toContain('file:///other.txt');
      expect(updates).not.toContain('file:///watched.txt');
    } finally {
      rmSync(watched, { force: true });
      rmSync(other, { force: true });
    }
  });

  it('subscribing is confined like reading', async () => {
    const client = await connect();
    expect((await refusal(client.subscribeResource({ uri: 'file:///escape-relative' }))).message).toMatch(/outside the workspace/);
    expect((await refusal(client.subscribeResource({ uri: 'file:///%2e%2e/outside/secret.txt' }))).message).toMatch(/"\.\." segment/);
    expect((await refusal(client.subscribeResource({ uri: 'file:///no-such.txt' }))).code).toBe(RESOURCE_NOT_FOUND_CODE);
  });

  it('a new file sends notifications/resources/list_changed to a session that listed', async () => {
    const client = await connect();
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
    await client.listResources();
    const created = join(workspace, 'src/created.txt');
    writeFileSync(created, 'new\n');
    try {
      await changed;
      expect(await listAll(client)).toContain('file:///src/created.txt');
    } finally {
      rmSync(created, { force: true });
    }
  });
});

describe('MCP resources under permission mode none', () => {
  it('lists nothing, offers no template and refuses reads and subscriptions', async () => {
    const client = await connect(denied);
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    const read = await refusal(client.readResource({ uri: 'file:///a.txt' }));
    expect(read.message).toMatch(/permission mode "none"/);
    expect(read.data).toMatchObject({ reason: 'DENIED' });
    expect((await refusal(client.subscribeResource({ uri: 'file:///a.txt' }))).message).toMatch(/permission mode "none"/);
    const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: '' } });
    expect(completion.completion.values).toEqual([]);
  });
});

describe('MCP resources over stdio (toolhost mcp)', () => {
  it('lists, reads and refuses like the daemon', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', workspace, '--cache-dir', join(scratch, 'stdio-cache')],
      cwd: scratch,
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'toolhost-resources-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, completions: {} });
    expect(await listAll(client)).toContain('file:///src/index.ts');
    expect((await client.readResource({ uri: 'file:///README.md' })).contents[0]).toMatchObject({ text: '# hello\n', mimeType: 'text/markdown' });
    expect((await refusal(client.readResource({ uri: 'file:///escape-relative' }))).message).toMatch(/outside the workspace/);
    expect((await client.listResourceTemplates()).resourceTemplates[0]).toMatchObject({ uriTemplate: 'file:///{path}' });
    // Subscriptions work over stdio too: a change to the file arrives as notifications/resources/updated.
    const watched = join(workspace, 'stdio-watched.txt');
    writeFileSync(watched, 'v1\n');
    try {
      const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => resolve(notification.params.uri)));
      await client.subscribeResource({ uri: 'file:///stdio-watched.txt' });
      appendFileSync(watched, 'v2\n');
      expect(await updated).toBe('file:///stdio-watched.txt');
    } finally {
      rmSync(watched, { force: true });
    }
  }, 60_000);
});
