import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools } from '../../builtins/index.ts';
import { Bm25Index, tokenize } from '../../builtins/internal/bm25.ts';
import { parametersText, searchToolsTool } from '../../builtins/search-tools.ts';
import { createHost } from '../../src/host.ts';
import type { Host } from '../../src/host-types.ts';
import { textResult } from '../../src/result.ts';
import { defineTool, type AnyTool } from '../../src/tool.ts';
import { callTool, createToolContext } from './helpers.ts';

function fakeTool(name: string, description: string, shape: z.ZodRawShape = {}): AnyTool {
  return defineTool({
    name,
    description,
    permission: 'read_only',
    input: z.object(shape),
    secretParams: [],
    execute: async () => textResult(name),
  });
}

const catalog: AnyTool[] = [
  fakeTool('http_get', 'Fetch a URL over HTTP and return the response body.', { url: z.string().describe('The address to request') }),
  fakeTool('send_email', 'Send an email message to a recipient.', { to: z.string().describe('Recipient address'), body: z.string() }),
  fakeTool('resize_image', 'Scale a PNG or JPEG picture to a new width and height.', { width: z.number().describe('Pixels') }),
  fakeTool('git_commit', 'Record staged changes in the git repository with a message.', { message: z.string().describe('Commit message') }),
  fakeTool('weather', 'Current weather for a city.', { units: z.enum(['metric', 'imperial']).describe('Unit system') }),
];

describe('BM25 index', () => {
  it('tokenizes snake_case, camelCase, plurals and drops stop words', () => {
    expect(tokenize('read_file readFile the Files of HTTPServer class')).toEqual(['read', 'file', 'read', 'file', 'file', 'httpserver', 'class']);
  });

  it('ranks by matched terms, weighting rare terms over common ones and short documents over long ones', () => {
    const index = new Bm25Index(
      [
        { id: 'a', fields: { text: 'file file common' } },
        { id: 'b', fields: { text: 'rare common' } },
        { id: 'c', fields: { text: 'common' } },
        { id: 'd', fields: { text: 'nothing here' } },
      ],
      { text: 1 },
    );
    const hits = index.search('rare common', 10);
    // c and a both hold only "common"; c is shorter, so the term weighs more there.
    expect(hits.map((hit) => hit.id)).toEqual(['b', 'c', 'a']);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
    expect(index.search('absent', 10)).toEqual([]);
    expect(index.search('common', 2)).toHaveLength(2);
  });

  it('weights fields and matches prefixes of three or more letters at lower weight', () => {
    const index = new Bm25Index(
      [
        { id: 'in-name', fields: { name: 'process', body: 'other words' } },
        { id: 'in-body', fields: { name: 'other', body: 'process words' } },
      ],
      { name: 3, body: 1 },
    );
    expect(index.search('process', 5).map((hit) => hit.id)).toEqual(['in-name', 'in-body']);
    const exact = index.search('process', 5)[0]?.score ?? 0;
    const prefix = index.search('proc', 5)[0]?.score ?? 0;
    expect(prefix).toBeGreaterThan(0);
    expect(prefix).toBeLessThan(exact);
    expect(index.search('pr', 5)).toEqual([]);
  });
});

describe('search_tools', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  const search = (raw: Record<string, unknown>, tools: readonly AnyTool[] = catalog) =>
    callTool(searchToolsTool, raw, createToolContext('/', { listTools: () => tools }));

  it('searches names, descriptions and parameters and returns schemas ready to call', async () => {
    const byName = await search({ query: 'email' });
    const parsed = JSON.parse(byName.content) as { tools: { name: string; description: string; inputSchema: unknown }[] };
    expect(parsed.tools[0]).toEqual({ name: 'send_email', description: catalog[1]?.description, inputSchema: catalog[1]?.inputSchema });
    expect(byName.metadata).toMatchObject({ matches: 1, total_tools: 5, names: ['send_email'] });

    const byDescription = await search({ query: 'scale a picture' });
    expect(byDescription.metadata?.['names']).toEqual(['resize_image']);
    const byParameter = await search({ query: 'imperial units' });
    expect(byParameter.metadata?.['names']).toEqual(['weather']);
    const byParameterDescription = await search({ query: 'recipient' });
    expect(byParameterDescription.metadata?.['names']).toEqual(['send_email']);
  });

  it('honours limit and orders by score', async () => {
    const all = await search({ query: 'message address request' });
    expect(all.metadata?.['names']).toHaveLength(3);
    const scores = all.metadata?.['scores'] as number[];
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
    const limited = await search({ query: 'message address request', limit: 2 });
    expect(limited.metadata?.['names']).toEqual((all.metadata?.['names'] as string[]).slice(0, 2));
    expect(() => searchToolsTool.input.parse({ query: 'x', limit: 0 })).toThrow();
    expect(() => searchToolsTool.input.parse({ query: '' })).toThrow();
    expect(searchToolsTool.input.parse({ query: 'x' })).toEqual({ query: 'x', limit: 5 });
  });

  it('says when nothing matches and lists the tool names instead', async () => {
    const result = await search({ query: 'quantum teleport' });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe('No tool matches "quantum teleport". Try other words; the tools are: http_get, send_email, resize_image, git_commit, weather.');
    expect(result.metadata).toEqual({ matches: 0, total_tools: 5 });
  });

  it('describes parameters from the JSON Schema: names, descriptions, enum values', () => {
    expect(parametersText(catalog[4] as AnyTool)).toBe('units Unit system metric imperial');
  });

  it('needs a host to search', async () => {
    const result = await callTool(searchToolsTool, { query: 'x' }, createToolContext('/'));
    expect(result.is_error).toBe(true);
  });

  it('searches the real built-ins through a host, which leaves out itself and tools above its permission mode', async () => {
    host = await createHost({ workspaceRoot: '/tmp' }, { builtinTools: [...builtinTools, ...catalog] });
    const run = await host.callTool('search_tools', { query: 'run a shell command in the background' });
    expect((run.metadata?.['names'] as string[])[0]).toBe('shell');
    const files = await host.callTool('search_tools', { query: 'find files by name pattern', limit: 3 });
    expect(files.metadata?.['names']).toContain('glob');
    const self = await host.callTool('search_tools', { query: 'search tools' });
    expect(self.metadata?.['names'] ?? []).not.toContain('search_tools');
    await host.close();

    host = await createHost({ workspaceRoot: '/tmp', permissionMode: 'read_only', exclude: ['weather'] }, { builtinTools: [...builtinTools, ...catalog] });
    const readOnly = await host.callTool('search_tools', { query: 'shell command process weather', limit: 50 });
    const names = (readOnly.metadata?.['names'] as string[] | undefined) ?? [];
    expect(names).not.toContain('shell');
    expect(names).not.toContain('process');
    expect(names).not.toContain('weather');
    expect(readOnly.metadata?.['total_tools']).toBe(host.listTools().length - 1);
  });
});
