/**
 * `?format=union`: the assistant-turn schema over every built-in and a real wasm tool (ext-greet in a
 * temp extensions folder), checked with ajv (strict: an unknown keyword fails compilation), walked
 * for the xgrammar keyword subset, and served over HTTP; `POST /v1/dispatch?provider=union` runs a
 * valid turn and refuses an invalid one whole, with the reasons, before anything runs.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateArguments } from '../../src/bridge/call-tool.ts';
import type { Host } from '../../src/host-types.ts';
import { toGuidedSchema, toUnionSchema, XGRAMMAR_FORMATS, XGRAMMAR_KEYWORDS } from '../../src/schema/providers/union.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import type { AnyTool } from '../../src/tool.ts';
import { runCli } from '../cli/run-cli.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';

type Schema = Record<string, unknown>;

/** Keywords whose values are maps of names to schemas (the names are data, not keywords). */
const NAME_MAPS = new Set(['properties']);

/** Every keyword used anywhere in `schema` (property names excluded), and every `$ref`. */
function keywordsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) keywordsOf(item, found);
    return found;
  }
  if (typeof schema !== 'object' || schema === null) return found;
  for (const [keyword, value] of Object.entries(schema)) {
    found.add(keyword);
    if (keyword === 'const' || keyword === 'enum' || keyword === 'required' || keyword === 'description') continue;
    if (NAME_MAPS.has(keyword) && typeof value === 'object' && value !== null) for (const sub of Object.values(value)) keywordsOf(sub, found);
    else keywordsOf(value, found);
  }
  return found;
}

/** The smallest value `schema` accepts, built from its keywords (never from a tool's name). */
function minimalValue(schema: Schema): unknown {
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  if (Array.isArray(schema['anyOf'])) return minimalValue(schema['anyOf'][0] as Schema);
  switch (schema['type']) {
    case 'string':
      return 'a'.repeat(Math.max(1, Number(schema['minLength'] ?? 1)));
    case 'integer':
    case 'number': {
      const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] + 1 : 1;
      return Math.ceil(minimum);
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Number(schema['minItems'] ?? 0) }, () => minimalValue((schema['items'] ?? {}) as Schema));
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = (schema['required'] ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, minimalValue(properties[name] ?? {})]));
    }
    default:
      return 'a';
  }
}

let root: TempRoot;
let ext: ExtHost;
let host: Host;
let tools: AnyTool[];
let server: RunningServer;
let extensionsDir: string;

beforeAll(async () => {
  root = tempRoot('toolhost-union-');
  extensionsDir = root.folder('extensions');
  copyFileSync(fixture('ext-greet'), join(extensionsDir, 'ext-greet.wasm'));
  ext = await createExtHost({ workspaceRoot: root.folder('workspace'), extensionsDir, cacheDir: root.folder('cache') });
  host = ext.host;
  tools = host.listTools();
  server = await startServer(host, { port: 0, keepAliveMs: 0 });
}, 120_000);

afterAll(async () => {
  await server?.close(2_000);
  await ext?.close();
  root?.remove();
});

describe('the union schema over built-in and wasm tools', () => {
  it('has one anyOf branch per tool, in list order, with the name as a const', () => {
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_file', 'shell', 'ext-greet']));
    const schema = toUnionSchema(tools) as any;
    const branches = schema.properties.tool_calls.items.anyOf as Schema[];
    expect(branches.map((branch: any) => branch.properties.name.const)).toEqual(tools.map((tool) => tool.name));
    expect(schema.required).toEqual(['content', 'tool_calls']);
  });

  it('uses only the xgrammar keyword subset and no $ref, and compiles under strict ajv', () => {
    const schema = toUnionSchema(tools);
    const used = keywordsOf(schema);
    expect([...used].filter((keyword) => !XGRAMMAR_KEYWORDS.has(keyword))).toEqual([]);
    expect(used.has('$ref')).toBe(false);
    expect(() => new Ajv2020({ strict: true, allErrors: true }).compile(schema)).not.toThrow();
  });

  it('accepts a turn calling each tool with arguments the tool itself accepts', () => {
    const validate = new Ajv2020({ strict: true }).compile(toUnionSchema(tools));
    for (const tool of tools) {
      const args = minimalValue(toGuidedSchema(tool.inputSchema)) as Record<string, unknown>;
      expect(validateArguments(tool, args), `${tool.name} refuses ${JSON.stringify(args)}`).toMatchObject({ ok: true });
      const turn = { content: '', tool_calls: [{ name: tool.name, arguments: args }] };
      expect(validate(turn), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const all = { content: 'Calling every tool.', tool_calls: tools.map((tool) => ({ name: tool.name, arguments: minimalValue(toGuidedSchema(tool.inputSchema)) })) };
    expect(validate(all)).toBe(true);
    expect(validate({ content: 'No tools this time.', tool_calls: [] })).toBe(true);
  });

  it('refuses unknown names, missing required arguments, wrong types and extra fields', () => {
    const validate = new Ajv2020({ strict: true }).compile(toUnionSchema(tools));
    const greet = tools.find((tool) => tool.name === 'ext-greet');
    expect(greet).toBeDefined();
    expect(validate({ content: '', tool_calls: [{ name: 'no_such_tool', arguments: {} }] })).toBe(false);
    expect(validate({ content: '', tool_calls: [{ name: 'read_file', arguments: {} }] })).toBe(false);
    expect(validate({ content: '', tool_calls: [{ name: 'read_file', arguments: { path: 42 } }] })).toBe(false);
    expect(validate({ content: '', tool_calls: [{ name: 'ext-greet', arguments: { name: 'Ada' }, id: 'x' }] })).toBe(false);
    expect(validate({ content: '', tool_calls: [{ name: 'ext-greet', arguments: { name: 'Ada', volume: 11 } }] })).toBe(false);
    expect(validate({ tool_calls: [] })).toBe(false);
    expect(validate({ content: '', tool_calls: [{ name: 'ext-greet', arguments: { name: 'Ada' } }] })).toBe(true);
  });

  it('rewrites what xgrammar cannot read: type lists, oneOf, tuple items, draft-04 bounds, unknown formats', () => {
    const converted = toGuidedSchema({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], minLength: 2 },
        b: { oneOf: [{ type: 'integer', minimum: 0, exclusiveMinimum: true }, { type: 'string', format: 'color' }] },
        c: { type: 'array', items: [{ type: 'string' }], additionalItems: false, uniqueItems: true },
        d: { type: 'string', default: 'x', examples: ['y'], format: 'date-time', pattern: '^[0-9]' },
      },
    });
    expect(converted).toEqual({
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'null', minLength: 2 }] },
        b: { anyOf: [{ type: 'integer', exclusiveMinimum: 0 }, { type: 'string' }] },
        c: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
        d: { type: 'string', pattern: '^[0-9]', format: 'date-time' },
      },
    });
    expect(XGRAMMAR_FORMATS.has('color')).toBe(false);
  });
});

describe('GET /v1/tools?format=union and POST /v1/dispatch?provider=union', () => {
  async function dispatch(body: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${server.url}/v1/dispatch?provider=union`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  }

  it('serves the schema as the body', async () => {
    const response = await fetch(`${server.url}/v1/tools?format=union`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(toUnionSchema(host.listTools()));
  });

  it('runs every call of a valid turn and answers one tool message per call', async () => {
    const { status, body } = await dispatch({
      content: 'Greeting, then listing.',
      tool_calls: [
        { name: 'ext-greet', arguments: { name: 'Ada' } },
        { name: 'write_file', arguments: { path: 'note.txt', content: 'hello' } },
      ],
    });
    expect(status).toBe(200);
    expect(body.provider).toBe('union');
    expect(body.results.map((entry: any) => [entry.name, entry.result.is_error])).toEqual([
      ['ext-greet', false],
      ['write_file', false],
    ]);
    expect(body.results[0].result.content).toContain('Ada');
    expect(body.messages).toEqual(body.results.map((entry: any) => ({ role: 'tool', name: entry.name, content: entry.result.content })));
    expect(readFileSync(join(host.workspaceRoot, 'note.txt'), 'utf8')).toBe('hello');
  });

  it('refuses an invalid turn whole, naming every problem, and runs none of its calls', async () => {
    const { status, body } = await dispatch({
      content: '',
      tool_calls: [
        { name: 'write_file', arguments: { path: 'must-not-exist.txt', content: 'x' } },
        { name: 'no_such_tool', arguments: {} },
        { name: 'ext-greet', arguments: { volume: 11 } },
      ],
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_body');
    expect(body.error.message).toContain('tool_calls[1].name: "no_such_tool" is not one of the tools');
    expect(body.error.message).toMatch(/tool_calls\[2\]\.arguments: Invalid arguments for tool "ext-greet"/);
    expect(existsSync(join(host.workspaceRoot, 'must-not-exist.txt'))).toBe(false);
  });

  it('refuses a malformed envelope with the field paths', async () => {
    const { status, body } = await dispatch({ tool_calls: [{ name: 'ext-greet', arguments: 'x', id: 1 }], extra: true });
    expect(status).toBe(400);
    for (const reason of ['content: must be a string', 'extra: unknown field', 'tool_calls[0].id: unknown field', 'tool_calls[0].arguments: must be an object']) {
      expect(body.error.message).toContain(reason);
    }
  });
});

describe('toolhost list --format union', () => {
  it('prints the same schema as the host builds', async () => {
    const run = await runCli(['list', '--format', 'union', '--workspace', host.workspaceRoot, '--extensions', extensionsDir], { timeoutMs: 60_000 });
    expect(run.stderr).toBe(`toolhost: extensions folder ${extensionsDir} (from --extensions)\n`);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(toUnionSchema(host.listTools()));
  }, 90_000);
});
