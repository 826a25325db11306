import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/mcp-stdio-server.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(): Promise<{ client: Client; stderr: () => string; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', script], cwd: projectRoot, stderr: 'pipe' });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString('utf8');
  });
  const errors: Error[] = [];
  const created = new Client({ name: 'toolhost-stdio-test', version: '1.0.0' });
  created.onerror = (error) => errors.push(error);
  await created.connect(transport);
  client = created;
  return {
    client: created,
    transport,
    stderr: () => {
      if (errors.length > 0) throw new Error(`client errors (non-JSON-RPC output on stdout?): ${errors.map((e) => e.message).join('; ')}`);
      return stderrText;
    },
  };
}

describe('MCP over stdio (serveMcpStdio)', () => {
  it('lists and calls tools; logs go to stderr only', async () => {
    const { client: connected, stderr } = await connect();
    const { tools } = await connected.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add_extra', 'echo', 'fail', 'slow', 'write_note']);
    const result = await connected.callTool({ name: 'echo', arguments: { text: 'stdio' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'stdio' }], isError: false });
    expect(stderr()).toContain('mcp server listening on stdio');
  }, 30_000);

  it('sends tools/list_changed when the tool set changes', async () => {
    const { client: connected } = await connect();
    const changed = new Promise<void>((resolve) => connected.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await connected.callTool({ name: 'add_extra', arguments: {} });
    await changed;
    expect((await connected.listTools()).tools.map((tool) => tool.name)).toContain('extra');
  }, 30_000);

  it('exits by itself, with code 0, when the client closes stdin', async () => {
    // A raw child process, not the SDK client: the SDK sends SIGTERM 2 s after closing stdin, which
    // would hide a server that does not notice the end of its input.
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const answered = new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', (chunk: string) => resolve(chunk)));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    expect(JSON.parse(await answered)).toMatchObject({ id: 1, result: { serverInfo: expect.any(Object) } });
    child.stdin.end();
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 30_000);
});
