/**
 * Structured and rich results through real parts: a real daemon on loopback, the SDK's MCP client over
 * Streamable HTTP and the HTTP API, real wasm tools — the conformance C fixture printing real PNG and
 * WAV bytes and MCP content envelopes, and rt-behave printing what a test (an attacker) chooses:
 * `output_schema` → `outputSchema` + `structuredContent` (a mismatch is an error), `output_media_type`
 * and magic bytes → image/audio content, `"output": "mcp-content"` envelopes with resource links
 * confined to the workspace, and every way a tool can lie about its output refused with a clear error.
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { createExtHost, fixture, PROJECT_ROOT, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';
import { postJson, TEST_ADMIN_TOKEN } from './helpers.ts';

/** The bytes test/fixtures/c/mcp-conformance.c prints as test_image_content (a 1x1 red PNG). */
const RED_PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const CONFORMANCE_TOOLS = ['test_image_content', 'test_audio_content', 'test_embedded_resource', 'test_multiple_content_types'];

/** rt-behave: `print <text>` prints text verbatim, `stdin` copies stdin, `flood <n>` prints n bytes. */
const behaveSpec = (name: string) => ({
  name,
  description: 'Does what its mode says (rt-behave).',
  stdin: true,
  positionals: [
    { name: 'mode', required: true },
    { name: 'text', required: false },
  ],
});
const COUNT_SCHEMA = { type: 'object', properties: { count: { type: 'integer' }, label: { type: 'string' } }, required: ['count'], additionalProperties: false };

let root: TempRoot;
let workspace: string;
let ext: ExtHost;
let server: RunningServer;

const SECRET = 'sk-live-rich-7c1e9a3f5b';

beforeAll(async () => {
  process.env['TOOLHOST_SECRET_RICH_TEST_KEY'] = SECRET;
  root = tempRoot('toolhost-rich-results-');
  const tools = root.folder('tools');
  workspace = root.folder('workspace');
  mkdirSync(join(workspace, 'out'));
  writeFileSync(join(workspace, 'out', 'report.txt'), 'twelve bytes');
  writeFileSync(join(root.path, 'outside.txt'), 'not for the client');
  symlinkSync(join(root.path, 'outside.txt'), join(workspace, 'escape.txt'));
  for (const name of CONFORMANCE_TOOLS) {
    copyFileSync(fixture('mcp-conformance'), join(tools, `${name}.wasm`));
    copyFileSync(join(PROJECT_ROOT, 'test/conformance/tools', `${name}.tool.json`), join(tools, `${name}.tool.json`));
  }
  const behave = (name: string, sidecar: object, policy?: object) => {
    copyFileSync(fixture('rt-behave'), join(tools, `${name}.wasm`));
    writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify({ spec: behaveSpec(name), ...sidecar }));
    if (policy !== undefined) writeFileSync(join(tools, `${name}.policy.json`), JSON.stringify(policy));
  };
  behave('counter', { output_schema: COUNT_SCHEMA });
  behave('plain', {});
  behave('leaky', { secret_params: ['text'] });
  behave('fake_png', { output_media_type: 'image/png' });
  behave('big_png', { output_media_type: 'image/png' }, { output_bytes: 256 });
  behave('contents', { output: 'mcp-content' });
  behave('cut_contents', { output: 'mcp-content' }, { output_bytes: 64 });
  // rt-behave `write <path> <text>`: writes into the granted folder; .txt files written there are linked.
  behave('writer', { output_files: ['out/*.txt'] }, { fs: [{ host: 'out', guest: '/out', mode: 'rw' }] });
  writeFileSync(
    join(tools, 'writer.tool.json'),
    JSON.stringify({ spec: { name: 'writer', description: 'Writes a file (rt-behave).', positionals: [{ name: 'mode' }, { name: 'path' }, { name: 'text' }] }, output_files: ['out/*.txt'] }),
  );
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: workspace, permissionMode: 'write' });
  server = await startServer(ext.host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN, closeHost: false });
}, 180_000);

afterAll(async () => {
  delete process.env['TOOLHOST_SECRET_RICH_TEST_KEY'];
  await server?.close(2_000);
  await ext?.close();
  root?.remove();
});

async function withClient<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'toolhost-rich-results-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** An MCP call's result, as the SDK client returns it (it validates structuredContent against outputSchema). */
type McpResult = { content: Array<Record<string, any>>; isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, any> };

const mcpCall = (name: string, args: Record<string, unknown> = {}): Promise<McpResult> => withClient(async (client) => (await client.callTool({ name, arguments: args })) as McpResult);

const httpCall = async (name: string, args: Record<string, unknown> = {}): Promise<any> => {
  const response = await postJson(`${server.url}/v1/tools/${name}/call`, { arguments: args });
  expect(response.status).toBe(200);
  return response.json();
};

const envelope = (content: unknown[], extra: object = {}): string => JSON.stringify({ content, ...extra });

describe('structured output (output_schema)', () => {
  it('lists the declared schema as outputSchema, and a built-in zod output type too', async () => {
    await withClient(async (client) => {
      const { tools } = await client.listTools();
      const counter = tools.find((tool) => tool.name === 'counter');
      expect(counter?.outputSchema).toEqual(COUNT_SCHEMA);
      expect(tools.find((tool) => tool.name === 'plain')?.outputSchema).toBeUndefined();
      const search = tools.find((tool) => tool.name === 'search_tools');
      expect(search?.outputSchema).toMatchObject({ type: 'object', required: ['tools'] });
    });
  });

  it('returns JSON output as structuredContent alongside the same JSON as text, over MCP and HTTP', async () => {
    const output = '{"count": 3, "label": "apples"}';
    const result = await mcpCall('counter', { mode: 'print', text: output });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ count: 3, label: 'apples' });
    expect(result.content).toEqual([{ type: 'text', text: output }]);
    const http = await httpCall('counter', { mode: 'print', text: output });
    expect(http).toMatchObject({ is_error: false, content: output, structured_content: { count: 3, label: 'apples' } });
  });

  it('makes output that does not match the schema an error result saying why (no structuredContent a client would refuse)', async () => {
    const wrong = await mcpCall('counter', { mode: 'print', text: '{"count": "three"}' });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toBeUndefined();
    expect(wrong.content[0]?.text).toMatch(/^the tool's output does not match its output schema: .*count.*integer[\s\S]*\{"count": "three"\}/);
    expect(wrong._meta?.['toolhost/metadata']?.reason).toBe('output_schema_mismatch');
    const notJson = await httpCall('counter', { mode: 'print', text: 'three apples' });
    expect(notJson).toMatchObject({ is_error: true, metadata: { reason: 'output_schema_mismatch' } });
    expect(notJson.content).toContain('it is not JSON');
    const array = await httpCall('counter', { mode: 'print', text: '[1, 2]' });
    expect(array.content).toContain('it is not a JSON object');
  });

  it('refuses JSON nested deeper than the shape limits before validating it', async () => {
    const deep = `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`;
    const result = await httpCall('counter', { mode: 'stdin', stdin: deep });
    expect(result).toMatchObject({ is_error: true, metadata: { reason: 'output_schema_mismatch' } });
    expect(result.content).toContain('nested too deep');
  });
});

describe('image and audio output', () => {
  it('returns PNG bytes a tool prints (declared image/png) as MCP image content, byte for byte', async () => {
    const result = await mcpCall('test_image_content');
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' }]);
    expect(result._meta?.['toolhost/metadata']).toMatchObject({ media_type: 'image/png', media_bytes: 69 });
  });

  it('returns WAV bytes (declared audio/wav) as MCP audio content', async () => {
    const result = await mcpCall('test_audio_content');
    const audio = result.content.find((part) => part.type === 'audio');
    expect(audio?.mimeType).toBe('audio/wav');
    expect(Buffer.from(audio?.data as string, 'base64').subarray(0, 12).toString('latin1')).toBe('RIFF,\0\0\0WAVE');
  });

  it('carries images in the HTTP API as parts, the text content empty', async () => {
    const result = await httpCall('test_image_content');
    expect(result).toMatchObject({ is_error: false, content: '', parts: [{ type: 'image', mime_type: 'image/png', data: RED_PIXEL_PNG_BASE64 }] });
  });

  it('recognizes an undeclared image by its leading bytes (GIF89a), and leaves other output text', async () => {
    const gif = await httpCall('plain', { mode: 'print', text: 'GIF89a fake but signed' });
    expect(gif.parts).toEqual([{ type: 'image', mime_type: 'image/gif', data: Buffer.from('GIF89a fake but signed').toString('base64') }]);
    const text = await httpCall('plain', { mode: 'print', text: 'just words' });
    expect(text).toMatchObject({ content: 'just words', is_error: false });
    expect(text.parts).toBeUndefined();
  });

  it('refuses media that carry a secret of the call (media bytes cannot be redacted)', async () => {
    const result = await httpCall('leaky', { mode: 'print', text: 'GIF89a key=<secret_ref:RICH_TEST_KEY>' });
    expect(result).toMatchObject({ is_error: true, metadata: { reason: 'media_output_invalid' } });
    expect(result.content).toContain('holds a secret used in this call');
    expect(JSON.stringify(result)).not.toContain(SECRET);
    // The same text without the secret is an image.
    expect((await httpCall('leaky', { mode: 'print', text: 'GIF89a key=none' })).parts?.[0]?.mime_type).toBe('image/gif');
  });

  it('refuses a tool that declares image/png but prints something else', async () => {
    const result = await mcpCall('fake_png', { mode: 'print', text: '<html>not an image</html>' });
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.text).toMatch(/declares image\/png output \(output_media_type\), but its stdout is not image\/png data \(it starts with 3c 68 74 6d 6c 3e 6e 6f …\)/);
    expect(result._meta?.['toolhost/metadata']?.reason).toBe('media_output_invalid');
  });

  it('refuses an image cut at the output limit instead of returning a broken picture', async () => {
    const result = await httpCall('big_png', { mode: 'flood', text: '100000' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/printed more than its output limit: the image is cut/);
    expect(result.parts).toBeUndefined();
  });
});

describe('the mcp-content envelope', () => {
  it('returns embedded resources, and text + image + resource in order', async () => {
    const embedded = await mcpCall('test_embedded_resource');
    expect(embedded.content).toEqual([{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }]);
    const mixed = await mcpCall('test_multiple_content_types');
    expect(mixed.content.map((part) => part.type)).toEqual(['text', 'image', 'resource']);
    expect(mixed.content[2]?.resource).toEqual({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' });
  });

  it('links a workspace file as a resource_link with its size', async () => {
    const stdin = envelope([
      { type: 'text', text: 'wrote the report' },
      { type: 'resource_link', uri: 'file:///out/report.txt', name: 'report.txt', mimeType: 'text/plain' },
    ]);
    const result = await mcpCall('contents', { mode: 'stdin', stdin });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([
      { type: 'text', text: 'wrote the report' },
      { type: 'resource_link', uri: 'file:///out/report.txt', name: 'report.txt', mimeType: 'text/plain', size: 12 },
    ]);
  });

  it.each([
    ['a path out of the workspace', 'file:///../outside.txt', /content\.0\.uri: the path must be relative to the workspace/],
    ['an encoded way out', 'file:///out/%2e%2e/%2e%2e/outside.txt', /content\.0\.uri: the path must be relative to the workspace/],
    ['a symbolic link out of the workspace', 'file:///escape.txt', /content\.0\.uri: the path leads out of the workspace/],
    ['a host path', 'file:///etc/passwd', /content\.0\.uri: no such file in the workspace/],
    ['another scheme', 'https://attacker.example/x', /content\.0\.uri: a workspace file URI starts with file:\/\/\//],
  ])('refuses a resource_link to %s', async (_, uri, message) => {
    const result = await httpCall('contents', { mode: 'stdin', stdin: envelope([{ type: 'resource_link', uri, name: 'x' }]) });
    expect(result).toMatchObject({ is_error: true, metadata: { reason: 'mcp_content_invalid' } });
    expect(result.content).toMatch(/^the tool's mcp-content output was refused: /);
    expect(result.content).toMatch(message);
    expect(result.parts).toBeUndefined();
  });

  it('refuses an embedded resource whose file: URI leaves the workspace', async () => {
    const stdin = envelope([{ type: 'resource', resource: { uri: 'file:///a/../../etc/shadow', text: 'x' } }]);
    const result = await httpCall('contents', { mode: 'stdin', stdin });
    expect(result.content).toMatch(/content\.0\.resource\.uri: the path must be relative/);
  });

  it('refuses bad base64, an image that is not its type, unknown keys, and too many parts', async () => {
    const cases: Array<[unknown[], RegExp]> = [
      [[{ type: 'image', data: 'not base64!', mimeType: 'image/png' }], /content\.0\.data: must be base64/],
      [[{ type: 'image', data: Buffer.from('plain text').toString('base64'), mimeType: 'image/png' }], /content\.0: the data is not image\/png \(it starts with 70 6c 61 69/],
      [[{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'text/html' }], /content\.0\.mimeType: must be an image\/… media type/],
      [[{ type: 'text', text: 'x', extra: true }], /Unrecognized key/],
      [Array.from({ length: 33 }, () => ({ type: 'text', text: 'x' })), /content: must hold at most 32 parts/],
    ];
    for (const [content, message] of cases) {
      const result = await httpCall('contents', { mode: 'stdin', stdin: envelope(content) });
      expect(result.is_error, JSON.stringify(content).slice(0, 80)).toBe(true);
      expect(result.content).toMatch(message);
    }
  });

  it('refuses an envelope cut at the output limit, and stdout that is no envelope', async () => {
    const cut = await httpCall('cut_contents', { mode: 'stdin', stdin: envelope([{ type: 'text', text: 'x'.repeat(200) }]) });
    expect(cut).toMatchObject({ is_error: true, metadata: { reason: 'mcp_content_invalid', truncated: true } });
    expect(cut.content).toContain('cut at the output limit');
    const text = await httpCall('contents', { mode: 'print', text: 'hello' });
    expect(text.content).toMatch(/stdout is not one JSON object/);
  });

  it('passes isError and structuredContent through', async () => {
    const stdin = envelope([{ type: 'text', text: 'no luck' }], { isError: true });
    expect(await httpCall('contents', { mode: 'stdin', stdin })).toMatchObject({ is_error: true, content: 'no luck' });
    const structured = await mcpCall('contents', { mode: 'stdin', stdin: envelope([{ type: 'text', text: '{"n":1}' }], { structuredContent: { n: 1 } }) });
    expect(structured.structuredContent).toEqual({ n: 1 });
  });
});

describe('files a call wrote (output_files)', () => {
  it('links a file the call created or changed in its granted folder, and not the files it left alone', async () => {
    writeFileSync(join(workspace, 'out', 'untouched.txt'), 'old');
    const created = await mcpCall('writer', { mode: 'write', path: '/out/fresh.txt', text: 'new words' });
    expect(created.isError).toBe(false);
    expect(created.content).toEqual([
      { type: 'text', text: 'ok\n' },
      { type: 'resource_link', uri: 'file:///out/fresh.txt', name: 'fresh.txt', size: 9 },
    ]);
    // Written again with other contents: changed, so linked again; a file outside the globs is not linked.
    const changed = await httpCall('writer', { mode: 'write', path: '/out/fresh.txt', text: 'newer words!' });
    expect(changed.parts).toEqual([{ type: 'resource_link', uri: 'file:///out/fresh.txt', name: 'fresh.txt', size: 12 }]);
    const other = await httpCall('writer', { mode: 'write', path: '/out/data.json', text: '{}' });
    expect(other).toMatchObject({ is_error: false, content: 'ok\n' });
    expect(other.parts).toBeUndefined();
  });

  it('links nothing when the call fails', async () => {
    const failed = await httpCall('writer', { mode: 'write', path: '/nowhere/x.txt', text: 'x' });
    expect(failed.is_error).toBe(true);
    expect(failed.parts).toBeUndefined();
  });
});

describe('provider formats (POST /v1/dispatch)', () => {
  const dispatch = async (body: unknown, provider?: string): Promise<any> => {
    const response = await postJson(`${server.url}/v1/dispatch${provider ? `?provider=${provider}` : ''}`, body);
    expect(response.status).toBe(200);
    return response.json();
  };

  it('Anthropic: an image result is a tool_result with an image block (base64 source)', async () => {
    const body = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'test_multiple_content_types', input: {} }] };
    const answer = await dispatch(body);
    const block = answer.messages[0].content[0];
    expect(block).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: false });
    expect(block.content[0].type).toBe('text');
    expect(block.content[0].text).toBe('Multiple content types test:\n[resource: test://mixed-content-resource, application/json]\n{"test":"data","value":123}');
    expect(block.content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: RED_PIXEL_PNG_BASE64 } });
    // The raw results keep every part.
    expect(answer.results[0].result.parts.map((part: { type: string }) => part.type)).toEqual(['image', 'resource']);
  });

  it('OpenAI: function results are text, so each part is named in a line', async () => {
    const body = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'test_audio_content', arguments: '{}' } }] };
    const answer = await dispatch(body);
    expect(answer.messages).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: '[audio: audio/wav, 52 bytes]' }]);
  });

  it('Gemini: a structured result is the functionResponse output object', async () => {
    const body = { role: 'model', parts: [{ functionCall: { name: 'counter', args: { mode: 'print', text: '{"count": 7}' } } }] };
    const answer = await dispatch(body);
    expect(answer.messages[0].parts[0].functionResponse.response).toEqual({ output: { count: 7 } });
  });
});
