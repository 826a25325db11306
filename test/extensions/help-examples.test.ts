/**
 * Example calls from a help's EXAMPLES section, through real parts: a real C component whose --help
 * has an `Examples:` section (test/fixtures/c/shrink.c: `#` comments over `$ shrink …` lines, a
 * trailing `# …`, and lines that must be dropped: a pipe, an unknown option, a value outside the
 * choices), loaded by a real host, served by a real daemon on loopback. The examples reach the MCP
 * tools/list (the SDK's client, `inputSchema.examples`), the HTTP API's Anthropic format
 * (`input_examples`), the inspection (`examples`, with descriptions and argv), and calling the tool
 * with an example's arguments runs the program with exactly the example's argv. `.tool.json` and
 * `--help-json`-style specs give examples of their own; what does not fit the schema is dropped.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectWasmTool } from '../../src/extensions/tool-inspection.ts';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import { argvToInput } from '../../src/introspect/examples/index.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { runCli } from '../cli/run-cli.ts';
import { TEST_ADMIN_TOKEN } from '../server/helpers.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

/** The argument objects shrink's help gives, in order: the three lines that map exactly. */
const SHRINK_EXAMPLES = [
  { width: '800', input: 'photo.jpg' },
  { format: 'webp', quality: 70, strip: true, input: 'photo.png' },
  { tag: ['holiday', 'beach'], width: '1024', input: 'beach.jpg' },
];

let root: TempRoot;
let ext: ExtHost;
let server: RunningServer;

beforeAll(async () => {
  root = tempRoot('toolhost-help-examples-');
  const tools = root.folder('tools');
  copyFileSync(fixture('shrink'), join(tools, 'shrink.wasm'));
  // `.tool.json` examples replace the help's: an argv one, an input one, and two that must be dropped
  copyFileSync(fixture('shrink'), join(tools, 'shrink-own.wasm'));
  writeFileSync(
    join(tools, 'shrink-own.tool.json'),
    JSON.stringify({
      examples: [
        { description: 'Quality 50 as PNG', argv: ['--quality=50', '-f', 'png', 'in.jpg'] },
        { description: 'Given as arguments', input: { input: 'x.jpg', strip: true } },
        { description: 'A quality that is no number', argv: ['-q', 'high', 'in.jpg'] },
        { description: 'An input the schema refuses', input: { input: 'x.jpg', format: 'gif' } },
      ],
    }),
  );
  // a whole spec (the `--help-json` shape) with its own examples
  copyFileSync(fixture('argv-list'), join(tools, 'lister.wasm'));
  writeFileSync(
    join(tools, 'lister.tool.json'),
    JSON.stringify({
      spec: {
        name: 'lister',
        description: 'Lists its arguments.',
        options: [{ long: 'tag', short: 't', takes_value: true, repeatable: true }],
        positionals: [{ name: 'pattern', required: true }],
        examples: [{ description: 'Two tags', argv: ['-t', 'a', '-tb', 'needle'] }],
      },
    }),
  );
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
  server = await startServer(ext.host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN, closeHost: false });
}, 120_000);

afterAll(async () => {
  await server?.close(2_000);
  await ext?.close();
  root?.remove();
});

/** The arguments the program printed, one `[arg]` a line. */
function printedArgv(content: string): string[] {
  return content
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^\[(.*)\]$/, '$1'));
}

describe('examples from a real help text', () => {
  it("puts the help's examples in the tool's JSON Schema (top-level examples), dropping what does not map", () => {
    const schema = ext.host.registry.get('shrink')?.inputSchema as Record<string, unknown>;
    expect(schema['examples']).toEqual(SHRINK_EXAMPLES);
  });

  it('shows them in the inspection with their descriptions and the argv they were read as', () => {
    const tool = ext.host.registry.get('shrink');
    if (tool === undefined) throw new Error('shrink did not load');
    const report = inspectWasmTool(tool, (policy) => policy);
    expect(report.examples).toEqual([
      { description: 'Shrink a photo to 800 pixels wide', input: SHRINK_EXAMPLES[0], argv: ['--width', '800', 'photo.jpg'] },
      { description: 'Convert to WebP at quality 70, removing metadata', input: SHRINK_EXAMPLES[1], argv: ['-f', 'webp', '-q70', '-s', 'photo.png'] },
      { description: 'Tag a beach photo twice', input: SHRINK_EXAMPLES[2], argv: ['-t', 'holiday', '-t', 'beach', '--width=1024', 'beach.jpg'] },
    ]);
    // the spec records what was read and where from (unmapped lines included: they are the help's)
    expect(report.spec.sources?.['examples']).toBe('help:examples');
    expect(report.spec.examples).toHaveLength(5);
  });

  it('runs each example as the program call it was read from', async () => {
    const tool = ext.host.registry.get('shrink');
    if (tool === undefined) throw new Error('shrink did not load');
    const spec = (tool.details as WasmToolDetails).spec;
    const examples = inspectWasmTool(tool, (policy) => policy).examples ?? [];
    expect(examples).toHaveLength(3);
    for (const example of examples) {
      const result = await ext.host.callTool('shrink', example.input);
      expect(result.is_error).toBe(false);
      // the argv the program got reads back as the example's arguments, and so does the example's own argv
      expect(argvToInput(spec, printedArgv(result.content))).toEqual(example.input);
      expect(argvToInput(spec, example.argv ?? [])).toEqual(example.input);
    }
    // written the way the spec writes options (long spellings, spec order), same meaning as `-f webp -q70 -s`
    expect(printedArgv((await ext.host.callTool('shrink', SHRINK_EXAMPLES[1]!)).content)).toEqual(['--quality', '70', '--format', 'webp', '--strip', 'photo.png']);
  }, 60_000);

  it('offers them in MCP tools/list as inputSchema.examples (SDK client over Streamable HTTP)', async () => {
    const client = new Client({ name: 'toolhost-examples-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const shrink = tools.find((tool) => tool.name === 'shrink');
      expect(shrink?.inputSchema['examples']).toEqual(SHRINK_EXAMPLES);
      // a tool without examples has none
      expect(tools.find((tool) => tool.name === 'read_file')?.inputSchema['examples']).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("offers them in the HTTP API's Anthropic format as input_examples", async () => {
    const response = await fetch(`${server.url}/v1/tools?format=anthropic`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { tools: { name: string; input_examples?: unknown[]; input_schema: Record<string, unknown> }[] };
    const shrink = body.tools.find((tool) => tool.name === 'shrink');
    expect(shrink?.input_examples).toEqual(SHRINK_EXAMPLES);
    expect(body.tools.find((tool) => tool.name === 'read_file')).not.toHaveProperty('input_examples');
    const one = (await (await fetch(`${server.url}/v1/tools/shrink?format=anthropic`)).json()) as { input_examples?: unknown[] };
    expect(one.input_examples).toEqual(SHRINK_EXAMPLES);
  });

  it('shows them in GET /v1/tools/{name}/inspect', async () => {
    const body = (await (await fetch(`${server.url}/v1/tools/shrink/inspect`)).json()) as { examples?: { input: unknown }[] };
    expect(body.examples?.map((example) => example.input)).toEqual(SHRINK_EXAMPLES);
  });
});

describe('toolhost inspect (a real CLI process)', () => {
  it('--json carries the examples; the text report lists them with how many of those read were kept', async () => {
    const work = root.folder('inspect');
    copyFileSync(fixture('shrink'), join(work, 'shrink.wasm'));
    const env = { TOOLHOST_CACHE_DIR: root.folder('inspect-cache') };
    const json = await runCli(['inspect', 'shrink.wasm', '--json'], { cwd: work, env, timeoutMs: 120_000 });
    expect(json.exitCode, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { examples?: { input: unknown }[]; schema: { examples?: unknown[] } };
    expect(report.examples?.map((example) => example.input)).toEqual(SHRINK_EXAMPLES);
    expect(report.schema.examples).toEqual(SHRINK_EXAMPLES);
    const text = await runCli(['inspect', 'shrink.wasm'], { cwd: work, env, timeoutMs: 120_000 });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toContain('examples  3 of 5 map exactly onto the schema');
    expect(text.stdout).toContain('{"width":"800","input":"photo.jpg"}  Shrink a photo to 800 pixels wide');
  }, 240_000);
});

describe('toolhost check (a real CLI process)', () => {
  it('counts the examples offered, and warns about examples its author wrote that do not map', async () => {
    const work = root.folder('check');
    copyFileSync(fixture('shrink'), join(work, 'shrink.wasm'));
    copyFileSync(fixture('shrink'), join(work, 'authored.wasm'));
    writeFileSync(join(work, 'authored.tool.json'), JSON.stringify({ examples: [{ argv: ['-q', '5', 'a.jpg'] }, { argv: ['--format', 'gif', 'a.jpg'] }] }));
    const env = { TOOLHOST_CACHE_DIR: root.folder('check-cache') };
    type Report = { findings: { level: string; code: string; message: string }[] };
    const run = async (file: string): Promise<Report> => {
      const result = await runCli(['check', file, '--json'], { cwd: work, env, timeoutMs: 120_000 });
      expect(result.stdout, result.stderr).toMatch(/^\{/);
      return JSON.parse(result.stdout) as Report;
    };
    const fromHelp = await run('shrink.wasm');
    expect(fromHelp.findings).toContainEqual(expect.objectContaining({ level: 'ok', code: 'examples', message: expect.stringContaining("3 of 5 example(s) from the help's EXAMPLES section map exactly") }));
    expect(fromHelp.findings.map((finding) => finding.code)).not.toContain('examples-dropped');
    const authored = await run('authored.wasm');
    expect(authored.findings).toContainEqual(expect.objectContaining({ level: 'ok', code: 'examples', message: expect.stringContaining('1 of 2 example(s) map exactly') }));
    expect(authored.findings).toContainEqual(expect.objectContaining({ level: 'warning', code: 'examples-dropped', message: expect.stringContaining('example(s) 1 (counting from 0)') }));
  }, 240_000);
});

describe('examples given by .tool.json and by a whole spec', () => {
  it(".tool.json examples replace the help's; argv and input forms; ones the schema refuses are dropped", () => {
    const schema = ext.host.registry.get('shrink-own')?.inputSchema as Record<string, unknown>;
    expect(schema['examples']).toEqual([
      { quality: 50, format: 'png', input: 'in.jpg' },
      { input: 'x.jpg', strip: true },
    ]);
    const report = inspectWasmTool(ext.host.registry.get('shrink-own')!, (policy) => policy);
    expect(report.examples?.map((example) => example.description)).toEqual(['Quality 50 as PNG', 'Given as arguments']);
    expect(report.spec.sources?.['examples']).toBe('override');
  });

  it("a spec's own examples (the --help-json shape) map through it: repeated and glued short options", () => {
    const schema = ext.host.registry.get('lister')?.inputSchema as Record<string, unknown>;
    expect(schema['examples']).toEqual([{ tag: ['a', 'b'], pattern: 'needle' }]);
  });
});
