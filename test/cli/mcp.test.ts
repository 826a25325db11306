import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnvironment, temporaryDirectory } from './run-cli.ts';

describe('toolhost mcp', () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());

  it('serves tools/list and tools/call over stdio, logging only to stderr', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--workspace', workspace.path],
      cwd: workspace.path,
      env: cliEnvironment() as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    // Any non-JSON-RPC byte on stdout would make the client fail here or in the calls below.
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['edit_file', 'glob', 'grep', 'list_dir', 'process', 'read_file', 'run_code', 'search_tools', 'shell', 'write_file']);

      const write = await client.callTool({ name: 'write_file', arguments: { path: 'mcp.txt', content: 'over stdio' } });
      expect(write.isError).toBeFalsy();
      expect(readFileSync(join(workspace.path, 'mcp.txt'), 'utf8')).toBe('over stdio');

      const read = await client.callTool({ name: 'read_file', arguments: { path: 'mcp.txt' } });
      expect(read.content).toEqual([{ type: 'text', text: 'over stdio' }]);

      const missing = await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(stderr).toContain('mcp server listening on stdio');
  });
});
