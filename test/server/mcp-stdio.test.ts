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

  it('exits when the client closes stdin', async () => {
    const { client: connected, transport } = await connect();
    const pid = transport.pid;
    expect(pid).toBeTypeOf('number');
    const started = Date.now();
    await connected.close();
    client = undefined;
    // The SDK client sends SIGTERM only if the server is still running 2 s after stdin ends.
    expect(Date.now() - started).toBeLessThan(1_900);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        process.kill(pid as number, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the stdio server did not exit');
  }, 30_000);
});
