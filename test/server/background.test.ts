/**
 * Background processes and tool search over the real edges: a server on loopback with the real
 * built-ins, called over HTTP (`POST /v1/tools/<name>/call`) and MCP (Streamable HTTP); stopping the
 * server stops the host, which kills the background process groups.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { resolveConfig } from '../../src/config.ts';
import { TEST_XDG_RUNTIME_DIR } from '../cli/run-cli.ts';
import { silentLogger } from '../../src/logger.ts';
import { runServeCommand } from '../../src/server/commands.ts';
import type { RunningServer } from '../../src/server/serve.ts';
import { findProcessesWithArgument, uniqueSleepSeconds, waitUntil } from '../builtins/process-probes.ts';
import { postJson, readJson, temporaryDirectory } from './helpers.ts';

let server: RunningServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await server?.close(1_000);
  server = undefined;
});

async function serve(permissionMode: 'execute' | 'read_only' = 'execute'): Promise<RunningServer> {
  const workspace = temporaryDirectory();
  const config = resolveConfig({ env: { XDG_RUNTIME_DIR: TEST_XDG_RUNTIME_DIR }, flags: { workspace, port: 0, permissionMode } });
  const started = await runServeCommand({ config, logger: silentLogger(), watch: false, handleSignals: false, dependencies: { builtinTools } });
  server = started.server;
  return started.server;
}

async function call(url: string, tool: string, args: Record<string, unknown>): Promise<any> {
  const response = await postJson(`${url}/v1/tools/${tool}/call`, { arguments: args });
  expect(response.status).toBe(200);
  return readJson(response);
}

describe('background processes over HTTP and MCP', { timeout: 60_000 }, () => {
  it('starts, talks to, waits for and lists a background process over HTTP', async () => {
    const { url } = await serve();
    const started = await call(url, 'shell', { command: 'echo ready; read name; echo "hello $name"; exit 4', run_in_background: true });
    expect(started).toMatchObject({ is_error: false, metadata: { process_id: 'p1', running: true } });

    const sent = await call(url, 'process', { action: 'write_stdin', process_id: 'p1', input: 'http\n' });
    expect(sent).toMatchObject({ is_error: false, metadata: { bytes_written: 5 } });
    const done = await call(url, 'process', { action: 'wait', process_id: 'p1', timeout_ms: 20_000 });
    expect(done).toMatchObject({ is_error: false, content: 'ready\nhello http\n[process p1 exited with code 4]', metadata: { running: false, exit_code: 4 } });

    const listed = await call(url, 'process', { action: 'list' });
    expect(listed.metadata.processes).toMatchObject([{ process_id: 'p1', running: false, exit_code: 4, unread_bytes: 0 }]);
  });

  it('kills the process group when the server stops', async () => {
    const { url } = await serve();
    const marker = uniqueSleepSeconds();
    const started = await call(url, 'shell', { command: `sleep ${marker} & sleep ${marker}`, run_in_background: true });
    expect(started.metadata.running).toBe(true);
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length === 2)).toBe(true);
    await server?.close(1_000);
    server = undefined;
    expect(await waitUntil(async () => (await findProcessesWithArgument(marker)).length === 0)).toBe(true);
  });

  it('works over MCP, with metadata in _meta', async () => {
    const { url } = await serve();
    const client = new Client({ name: 'toolhost-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['shell', 'process', 'search_tools']));

    const started = await client.callTool({ name: 'shell', arguments: { command: 'echo over-mcp', run_in_background: true } });
    expect(started).toMatchObject({ isError: false, _meta: { 'toolhost/metadata': { process_id: 'p1', running: true } } });
    const done = await client.callTool({ name: 'process', arguments: { action: 'wait', process_id: 'p1', timeout_ms: 20_000 } });
    expect(done).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'over-mcp\n[process p1 exited with code 0]' }],
      _meta: { 'toolhost/metadata': { running: false, exit_code: 0 } },
    });

    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'background process output', limit: 2 } });
    expect(found.isError).toBe(false);
    const text = (found.content as { type: string; text: string }[])[0]?.text ?? '';
    expect(JSON.parse(text).tools.map((tool: { name: string }) => tool.name)).toEqual(['process', 'shell']);
  });
});

describe('search_tools over HTTP', () => {
  it('returns the matching tools with the schemas the server lists, only those the caller may use', async () => {
    const { url } = await serve('read_only');
    const found = await call(url, 'search_tools', { query: 'read a file', limit: 3 });
    expect(found.is_error).toBe(false);
    const names: string[] = found.metadata.names;
    expect(names[0]).toBe('read_file');
    expect(names).not.toContain('write_file');
    expect(names).not.toContain('edit_file');
    const listed = await readJson(await fetch(`${url}/v1/tools?format=mcp`));
    const readFile = listed.tools.find((tool: { name: string }) => tool.name === 'read_file');
    expect(JSON.parse(found.content).tools[0]).toEqual({ name: 'read_file', description: readFile.description, inputSchema: readFile.inputSchema });
    const hidden = await postJson(`${url}/v1/tools/process/call`, { arguments: { action: 'list' } });
    expect(hidden.status).toBe(404);
  });
});
