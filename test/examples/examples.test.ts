/**
 * The example tools under extensions/examples/, built from source by their build script (or reused from its
 * cache) and served by the real `toolhost serve` over loopback HTTP: each is listed, has the schema its --help
 * and sidecars describe, answers a valid call right, and answers an invalid call with a clear error and its exact
 * exit code.
 * The server runs as a user starts it, with no Node flags (on Node 20 toolhost switches on the wasm
 * extended-const feature componentize-py output needs by itself).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JS_TOOLCHAIN_VERSIONS } from '../../src/cli/templates/js.ts';
import { COMPONENTIZE_PY_VERSION } from '../../src/cli/templates/python.ts';
import { cliEnvironment, PROJECT_ROOT, SOURCE_BIN, temporaryDirectory } from '../cli/run-cli.ts';

const EXAMPLES_DIR = join(PROJECT_ROOT, 'extensions', 'examples');
const BUILD_SCRIPT = join(EXAMPLES_DIR, 'build.mjs');
const EXAMPLES = ['jsonq', 'textstats', 'hashenc', 'csv2json', 'units'] as const;

/** Text files the textstats example reads from its grant (workspace `data/`, guest `/data`). */
const DATA_FILES: Record<string, string> = {
  'notes.txt': 'The cat sat on the mat.\nThe dog did not.\n',
  'docs/more.md': '# Title\n\nthe end, the END\nno trailing newline',
};

interface ToolResult {
  content: string;
  is_error: boolean;
  metadata?: Record<string, any>;
}

interface ToolEntry {
  name: string;
  description: string;
  permission: string;
  inputSchema: { properties: Record<string, any>; required?: string[] };
}

let workspace: { path: string; remove: () => void };
let tools: string;
let buildOutput: string;
let server: ChildProcess | undefined;
let baseUrl: string;

/** Runs the build script with the real environment: its toolchain cache is ~/.cache/toolhost-examples. */
function runBuild(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUILD_SCRIPT, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 1_500_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `toolhost serve --port 0` and resolves with its URL once it has said it is ready (every example loaded). */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const args = [SOURCE_BIN, 'serve', '--port', '0', '--extensions', tools, '--workspace', workspace.path];
    const child = spawn(process.execPath, args, { cwd: workspace.path, env: cliEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolhost serve did not start\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 600_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      // The daemon listens before the extensions folder has loaded: these tests want every example loaded.
      if (match?.[1] !== undefined && /^toolhost ready: /m.test(stderr)) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      check();
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      check();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolhost serve exited with ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

async function getJson(path: string): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const response = await fetch(`${baseUrl}/v1/tools/${name}/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ arguments: args }),
  });
  expect(response.status, `${name} ${JSON.stringify(args)}`).toBe(200);
  return (await response.json()) as ToolResult;
}

async function tool(name: string): Promise<ToolEntry> {
  return (await getJson(`/v1/tools/${name}`)) as ToolEntry;
}

beforeAll(async () => {
  workspace = temporaryDirectory();
  tools = join(workspace.path, 'tools');
  for (const [file, text] of Object.entries(DATA_FILES)) {
    mkdirSync(join(workspace.path, 'data', file, '..'), { recursive: true });
    writeFileSync(join(workspace.path, 'data', file), text);
  }
  const built = runBuild(['--out', tools, '--jobs', '2']);
  buildOutput = built.stdout;
  expect(built.status, `${built.stdout}\n${built.stderr}`).toBe(0);
  const started = await startServer();
  server = started.child;
  baseUrl = started.url;
}, 1_800_000);

afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  workspace?.remove();
}, 30_000);

describe('the build script', { timeout: 120_000 }, () => {
  it('puts every example and its sidecars in --out and prints a summary table', () => {
    const files = readdirSync(tools).sort();
    for (const name of EXAMPLES) {
      expect(files).toContain(`${name}.wasm`);
      expect(files).toContain(`${name}.tool.json`);
      expect(buildOutput).toMatch(new RegExp(`^${name}\\s+\\S+\\s+[\\d.]+ [KM]iB\\s+[\\d.]+\\s+(built|cached|up to date)$`, 'm'));
    }
    expect(files).toContain('textstats.policy.json');
  });

  it('skips examples whose output is newer than their sources', () => {
    const again = runBuild(['--out', tools]);
    expect(again.status, again.stderr).toBe(0);
    for (const name of EXAMPLES) expect(again.stdout).toMatch(new RegExp(`^${name}\\s.*\\sup to date$`, 'm'));
  });

  it('refuses an unknown example by name', () => {
    const refused = runBuild(['--out', tools, '--only', 'jsonq,nosuch']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('unknown example nosuch');
  });

  it('pins the toolchains the toolhost new templates pin', () => {
    expect(readFileSync(BUILD_SCRIPT, 'utf8')).toContain(`COMPONENTIZE_PY_VERSION = '${COMPONENTIZE_PY_VERSION}'`);
    const manifest = JSON.parse(readFileSync(join(EXAMPLES_DIR, 'units', 'package.json'), 'utf8')) as { devDependencies: unknown };
    expect(manifest.devDependencies).toEqual(JS_TOOLCHAIN_VERSIONS);
  });
});

describe('every example through the real server over HTTP', { timeout: 180_000 }, () => {
  it('lists all five examples as wasm tools', async () => {
    const listed = (await getJson('/v1/tools')) as { tools: { name: string; source?: string }[] };
    const names = listed.tools.map((entry) => entry.name);
    for (const name of EXAMPLES) expect(names).toContain(name);
  });

  it('jsonq (Rust, clap): reads stdin, selects a path, errors name the problem', async () => {
    const entry = await tool('jsonq');
    expect(entry.description).toBe('Query and transform a JSON document read from stdin');
    expect(entry.permission).toBe('none');
    expect(entry.inputSchema.properties).toMatchObject({
      path: { type: 'string' },
      stdin: { type: 'string' },
      compact: { type: 'boolean' },
      raw: { type: 'boolean' },
      keys: { type: 'boolean' },
      sort_keys: { type: 'boolean' },
    });
    expect(entry.inputSchema.required ?? []).not.toContain('path');

    const document = { items: [{ name: 'ada', id: 1 }, { name: 'grace', id: 2 }, { name: '-dash', id: 3 }], total: 3 };
    const names = await call('jsonq', { stdin: JSON.stringify(document), path: '.items[].name', compact: true });
    expect(names).toMatchObject({ is_error: false, metadata: { type: 'array', count: 3, exit_code: 0 } });
    expect(JSON.parse(names.content)).toEqual(document.items.map((item) => item.name));
    const raw = await call('jsonq', { stdin: JSON.stringify(document), path: '.items[-1].name', raw: true });
    expect(raw).toMatchObject({ is_error: false, content: '-dash', metadata: { type: 'string' } });
    const keys = await call('jsonq', { stdin: JSON.stringify(document), keys: true, compact: true });
    expect(JSON.parse(keys.content)).toEqual(Object.keys(document));

    const broken = await call('jsonq', { stdin: '{"items": [1, 2', path: '.items' });
    expect(broken).toMatchObject({ is_error: true, metadata: { exit_code: 1 } });
    expect(broken.content).toContain('stdin is not valid JSON');
    const missing = await call('jsonq', { stdin: JSON.stringify(document), path: '.nothing' });
    expect(missing).toMatchObject({ is_error: true, metadata: { exit_code: 1 } });
    expect(missing.content).toContain('no key "nothing"');
    expect(missing.content).toContain('items, total');
  });

  it('textstats (Go, flag): reads files from its read-only /data grant, metadata has the counts', async () => {
    const entry = await tool('textstats');
    expect(entry.permission).toBe('read_only');
    expect(entry.inputSchema.properties).toMatchObject({
      file: { type: 'array', items: { type: 'string' } },
      top: { type: 'integer' },
      min_length: { type: 'integer' },
      case_sensitive: { type: 'boolean' },
    });
    expect(entry.inputSchema.required).toEqual(['file']);
    expect(entry.inputSchema.properties).not.toHaveProperty('stdin');

    const texts = Object.values(DATA_FILES);
    const expectedTotal = {
      lines: texts.reduce((sum, text) => sum + text.split('\n').length - (text.endsWith('\n') ? 1 : 0), 0),
      words: texts.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0),
      chars: texts.reduce((sum, text) => sum + [...text].length, 0),
      bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    };
    const everything = await call('textstats', { file: ['.'], top: 1 });
    expect(everything.is_error, everything.content).toBe(false);
    expect(everything.metadata?.['total']).toMatchObject(expectedTotal);
    const theCount = texts.join(' ').split(/\s+/).filter((word) => word.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase() === 'the').length;
    expect(everything.metadata?.['top_words']).toEqual([{ word: 'the', count: theCount }]);
    expect(everything.content).toContain('/data/notes.txt');
    expect(everything.content).toContain('/data/docs/more.md');

    const one = await call('textstats', { file: ['notes.txt'], top: 0 });
    const notes = DATA_FILES['notes.txt'] ?? '';
    expect(one).toMatchObject({ is_error: false, metadata: { files: [{ path: '/data/notes.txt', lines: 2, words: notes.split(/\s+/).filter(Boolean).length }], top_words: [] } });

    const outside = await call('textstats', { file: ['../etc/passwd'] });
    expect(outside).toMatchObject({ is_error: true, metadata: { exit_code: 1 } });
    expect(outside.content).toContain('outside /data');
    const absent = await call('textstats', { file: ['missing.txt'] });
    expect(absent.content).toContain('missing.txt does not exist under /data');
    const badTop = await call('textstats', { file: ['.'], top: 99 });
    expect(badTop).toMatchObject({ is_error: true, metadata: { exit_code: 2 } });
    expect(badTop.content).toContain('-top must be from 0 to 50');
    const noFile = await call('textstats', { top: 3 });
    expect(noFile.is_error).toBe(true);
    expect(noFile.content).toMatch(/file/);
  });

  it('hashenc (C, getopt_long): subcommands sha256, base64 and hex agree with node:crypto and Buffer', async () => {
    const entry = await tool('hashenc');
    expect(entry.description).toBe('Hash and encode text: SHA-256 digests, base64 and hex');
    expect(entry.inputSchema.properties).toMatchObject({
      command: { type: 'string', enum: ['sha256', 'base64', 'hex'] },
      text: { type: 'string' },
      decode: { type: 'boolean' },
      url: { type: 'boolean' },
    });
    expect(entry.inputSchema.required).toContain('text');

    const texts = ['', 'abc', '-starts with a dash', 'héllo wörld ✓', 'x'.repeat(1000)];
    for (const text of texts) {
      const digest = await call('hashenc', { command: 'sha256', text });
      expect(digest, text).toMatchObject({
        is_error: false,
        content: createHash('sha256').update(text).digest('hex'),
        metadata: { command: 'sha256', input_bytes: Buffer.byteLength(text), exit_code: 0 },
      });
      const base64 = await call('hashenc', { command: 'base64', text });
      expect(base64.content, text).toBe(Buffer.from(text).toString('base64'));
      const url = await call('hashenc', { command: 'base64', url: true, text });
      expect(url.content, text).toBe(Buffer.from(text).toString('base64url'));
      const hex = await call('hashenc', { command: 'hex', text });
      expect(hex.content, text).toBe(Buffer.from(text).toString('hex'));
      if (text !== '') {
        expect((await call('hashenc', { command: 'base64', decode: true, text: base64.content })).content, text).toBe(text);
        expect((await call('hashenc', { command: 'hex', decode: true, text: hex.content })).content, text).toBe(text);
      }
    }

    const badHex = await call('hashenc', { command: 'hex', decode: true, text: 'zz' });
    expect(badHex).toMatchObject({ is_error: true, metadata: { exit_code: 1 } });
    expect(badHex.content).toContain('"zz" is not a hex byte');
    const oneWay = await call('hashenc', { command: 'sha256', decode: true, text: 'abc' });
    expect(oneWay).toMatchObject({ is_error: true, metadata: { exit_code: 2 } });
    expect(oneWay.content).toContain('one-way');
    const unknownCommand = await call('hashenc', { command: 'md5', text: 'abc' });
    expect(unknownCommand.is_error).toBe(true);
    expect(unknownCommand.content).toContain('command');
  });

  it('csv2json (Python, argparse): converts CSV from stdin, metadata has rows and columns', async () => {
    const entry = await tool('csv2json');
    expect(entry.description).toMatch(/^Convert CSV text read from stdin to JSON/);
    expect(entry.inputSchema.properties).toMatchObject({
      stdin: { type: 'string' },
      delimiter: { type: 'string' },
      no_header: { type: 'boolean' },
      types: { type: 'boolean' },
      limit: { type: 'integer' },
      compact: { type: 'boolean' },
    });

    const csv = 'name,age,member,note\n"Lovelace, Ada",36,true,\nHopper,85,false,"said ""hi"""\n';
    const typed = await call('csv2json', { stdin: csv, types: true });
    expect(typed).toMatchObject({ is_error: false, metadata: { rows: 2, total_rows: 2, columns: ['name', 'age', 'member', 'note'], exit_code: 0 } });
    expect(JSON.parse(typed.content)).toEqual([
      { name: 'Lovelace, Ada', age: 36, member: true, note: null },
      { name: 'Hopper', age: 85, member: false, note: 'said "hi"' },
    ]);
    const plain = await call('csv2json', { stdin: 'a;b\n1;2\n3;4\n', delimiter: ';', limit: 1, compact: true });
    expect(plain).toMatchObject({ is_error: false, content: '[{"a":"1","b":"2"}]', metadata: { rows: 1, total_rows: 2 } });
    const rows = await call('csv2json', { stdin: 'x\ty\n-1\t2\n', delimiter: 'tab', no_header: true, types: true, compact: true });
    expect(rows).toMatchObject({ is_error: false, content: '[["x","y"],[-1,2]]' });

    const ragged = await call('csv2json', { stdin: 'a,b\n1,2,3\n' });
    expect(ragged).toMatchObject({ is_error: true, metadata: { exit_code: 1 } });
    expect(ragged.content).toContain('row 2 has 3 fields but the header has 2');
    const empty = await call('csv2json', {});
    expect(empty.is_error).toBe(true);
    expect(empty.content).toContain('pass the CSV text in the stdin parameter');
    const badDelimiter = await call('csv2json', { stdin: 'a\n', delimiter: '--' });
    expect(badDelimiter.is_error).toBe(true);
    expect(badDelimiter.content).toContain('--delimiter must be one character');
  });

  it('units (JavaScript, ComponentizeJS): converts between units, a negative value included', async () => {
    const entry = await tool('units');
    expect(entry.inputSchema.properties).toMatchObject({
      value: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      precision: { type: 'integer' },
    });
    expect(entry.inputSchema.required).toEqual(['value', 'from', 'to']);

    const cold = await call('units', { value: '-40', from: 'C', to: 'F' });
    expect(cold).toMatchObject({ is_error: false, content: '-40 C = -40 F', metadata: { kind: 'temperature', result: -40, exit_code: 0 } });
    const distance = await call('units', { value: '10', from: 'km', to: 'miles' });
    expect(distance).toMatchObject({ is_error: false, metadata: { kind: 'length', from: 'km', to: 'mi', result: Number((10_000 / 1609.344).toPrecision(6)) } });
    const data = await call('units', { value: '1', from: 'GiB', to: 'MB', precision: 10 });
    expect(data.metadata?.['result']).toBe(1024 ** 3 / 1e6);

    const mixed = await call('units', { value: '5', from: 'kg', to: 'm' });
    expect(mixed).toMatchObject({ is_error: true, metadata: { exit_code: 1 } });
    expect(mixed.content).toContain('cannot convert mass (kg) to length (m)');
    const unknown = await call('units', { value: '5', from: 'parsec', to: 'm' });
    expect(unknown.content).toContain('unknown unit "parsec"');
    const notNumber = await call('units', { value: 'five', from: 'm', to: 'ft' });
    expect(notNumber.content).toContain('VALUE must be a number');
    const missing = await call('units', { value: '5' });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toMatch(/from/);
  });
});
