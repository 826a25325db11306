/**
 * Code mode's declaration tree over real HTTP on loopback: `GET /v1/tools/tree` lists a file per
 * visible tool, `GET /v1/tools/tree/tools/<name>.d.ts` serves it, and every served file is valid
 * TypeScript whose types accept the example call and reject wrong arguments (checked with the
 * TypeScript compiler, not by comparing text).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools } from '../../builtins/index.ts';
import { createHost } from '../../src/host.ts';
import type { HostOptions } from '../../src/host-types.ts';
import { textResult } from '../../src/result.ts';
import { exampleArguments, functionIdentifier, typeOf } from '../../src/schema/typescript-declaration.ts';
import { startServer } from '../../src/server/serve.ts';
import { defineTool, type AnyTool } from '../../src/tool.ts';
import { readJson, temporaryDirectory } from './helpers.ts';

/** A tool whose schema uses every shape the emitter handles, under a name that is not an identifier. */
const shapesTool = defineTool({
  name: 'csv-report',
  description: 'Summarise CSV rows.\nSecond line of the description.',
  permission: 'read_only',
  input: z.object({
    file: z.string().min(1).describe('CSV file to read */ with a comment closer'),
    columns: z.array(z.string()).max(20).describe('Columns to keep'),
    mode: z.enum(['sum', 'mean']).default('sum').describe('How to combine'),
    limit: z.number().int().min(1).optional(),
    filters: z.array(z.object({ column: z.string(), equals: z.union([z.string(), z.number(), z.null()]) })).optional(),
    labels: z.record(z.string()).optional(),
    pair: z.tuple([z.string(), z.boolean()]).optional(),
    'weird key': z.literal('fixed').optional(),
  }),
  secretParams: [],
  execute: async () => textResult('ok'),
});

interface Started {
  url: string;
  close(): Promise<void>;
}

const started: Started[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function serve(options: HostOptions = {}, tools: readonly AnyTool[] = [...builtinTools, shapesTool]): Promise<Started> {
  const host = await createHost({ workspaceRoot: temporaryDirectory('toolhost-tree-'), ...options }, { builtinTools: tools });
  const server = await startServer(host, { port: 0, keepAliveMs: 0 });
  const running = { url: server.url, close: () => server.close(2_000) };
  started.push(running);
  return running;
}

/** Type-checks `files` (relative path → text) as one strict program; returns the diagnostics as text. */
function typeCheck(files: Record<string, string>): string[] {
  const dir = temporaryDirectory('toolhost-tree-tsc-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const program = ts.createProgram(
    Object.keys(files).map((path) => join(dir, path)),
    { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], lib: ['lib.es2022.d.ts'] },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describe('GET /v1/tools/tree', () => {
  it('lists one declaration file per visible tool, sorted like the tool list', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/v1/tools/tree`);
    expect(response.status).toBe(200);
    const body = (await readJson(response)) as { files: { path: string }[] };
    const names = [...builtinTools, shapesTool].map((tool) => tool.name).sort();
    expect(body.files).toEqual(names.map((name) => ({ path: `tools/${name}.d.ts` })));
  });

  it('follows the permission mode: hidden tools are neither listed nor served', async () => {
    const server = await serve({ permissionMode: 'read_only' });
    const body = (await readJson(await fetch(`${server.url}/v1/tools/tree`))) as { files: { path: string }[] };
    const paths = body.files.map((file) => file.path);
    expect(paths).toContain('tools/read_file.d.ts');
    expect(paths).toContain('tools/run_code.d.ts');
    expect(paths).not.toContain('tools/write_file.d.ts');
    expect(paths).not.toContain('tools/shell.d.ts');
    const hidden = await fetch(`${server.url}/v1/tools/tree/tools/write_file.d.ts`);
    expect(hidden.status).toBe(404);
    expect(((await readJson(hidden)) as { error: { code: string } }).error.code).toBe('unknown_tool');
  });
});

describe('GET /v1/tools/tree/{path}', () => {
  it('serves a typed async function with JSDoc from the description and parameters, and an example', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/v1/tools/tree/tools/list_dir.d.ts`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/typescript/);
    const text = await response.text();
    expect(text).toMatch(/export declare function list_dir\(args: \{[\s\S]*path\?: string;[\s\S]*\}\): Promise<ToolResult>;/);
    expect(text).toContain(builtinTools.find((tool) => tool.name === 'list_dir')?.description.slice(0, 60));
    expect(text).toContain('@default "."');
    expect(text).toMatch(/@example\n \* const result = await tools\.list_dir\(\{"path":"\."\}\);/);
  });

  it('every served file is valid strict TypeScript; example calls type-check and wrong arguments do not', async () => {
    const server = await serve();
    const tree = (await readJson(await fetch(`${server.url}/v1/tools/tree`))) as { files: { path: string }[] };
    const files: Record<string, string> = {};
    for (const { path } of tree.files) {
      const response = await fetch(`${server.url}/v1/tools/tree/${path}`);
      expect(response.status, path).toBe(200);
      files[path] = await response.text();
    }
    // Each file's own example, called through its declared function.
    const usage = [...builtinTools, shapesTool].map((tool, index) => {
      const identifier = functionIdentifier(tool.name);
      return `import { ${identifier} as f${index} } from './tools/${tool.name}.js';\nexport const r${index} = f${index}(${JSON.stringify(exampleArguments(tool.inputSchema))});`;
    });
    expect(typeCheck({ ...files, 'usage.ts': usage.join('\n') })).toEqual([]);

    const wrong = [
      `import { list_dir } from './tools/list_dir.js';\nlist_dir({ path: 1 });`,
      `import { read_file } from './tools/read_file.js';\nread_file({});`,
      `import { csv_report } from './tools/csv-report.js';\ncsv_report({ file: "a.csv", columns: ["a"], mode: "median" });`,
      `import { process } from './tools/process.js';\nprocess({ action: "list", unknown_option: true });`,
    ];
    for (const [index, text] of wrong.entries()) {
      const diagnostics = typeCheck({ ...files, [`wrong${index}.ts`]: text });
      expect(diagnostics.length, text).toBeGreaterThan(0);
      expect(diagnostics.every((diagnostic) => diagnostic.includes(`wrong${index}.ts`)), diagnostics.join('\n')).toBe(true);
    }
  }, 60_000);

  it('names a tool whose name is not an identifier and calls it with brackets', async () => {
    const server = await serve();
    const text = await (await fetch(`${server.url}/v1/tools/tree/tools/csv-report.d.ts`)).text();
    expect(text).toContain('export declare function csv_report(args');
    expect(text).toContain('await tools["csv-report"]({"file":"<file>","columns":["<columns>"]})');
    expect(text).toContain('"weird key"?: "fixed";');
    // A description holding "*/" cannot end the comment early.
    expect(text).toContain('CSV file to read *\\/ with a comment closer');
  });

  it('answers 404 for paths outside the tree and for unknown tools', async () => {
    const server = await serve();
    const outside = await fetch(`${server.url}/v1/tools/tree/list_dir.d.ts`);
    expect(outside.status).toBe(404);
    expect(((await readJson(outside)) as { error: { code: string } }).error.code).toBe('not_found');
    const unknown = await fetch(`${server.url}/v1/tools/tree/tools/nope.d.ts`);
    expect(unknown.status).toBe(404);
    expect(((await readJson(unknown)) as { error: { code: string } }).error.code).toBe('unknown_tool');
  });

  it('is described in the OpenAPI document', async () => {
    const server = await serve();
    const document = (await readJson(await fetch(`${server.url}/openapi.json`))) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/tools/tree', '/v1/tools/tree/{path}']));
  });
});

describe('TypeScript types from normalized schemas', () => {
  it('covers unions, nullable type lists, tuples, records, consts and boolean schemas', () => {
    expect(typeOf({ type: ['string', 'null'] })).toBe('string | null');
    expect(typeOf({ anyOf: [{ type: 'integer' }, { const: 'auto' }] })).toBe('number | "auto"');
    expect(typeOf({ type: 'array', items: { enum: ['a', 'b'] } })).toBe('Array<"a" | "b">');
    expect(typeOf({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }] })).toBe('[string, boolean]');
    expect(typeOf({ type: 'object', properties: {}, additionalProperties: { type: 'number' } })).toBe('{\n  [key: string]: number;\n}');
    expect(typeOf({ allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, true] })).toBe('{\n  a: string;\n}');
    expect(typeOf(true)).toBe('unknown');
    expect(typeOf(false)).toBe('never');
    expect(typeOf({ not: {} })).toBe('unknown');
  });
});
