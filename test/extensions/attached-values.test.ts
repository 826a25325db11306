/**
 * Issue 25 item 3, through a real host and a real C component that prints its argv
 * (test/fixtures/c/argv-list.c, one `[arg]` a line):
 * - an attached value reaches the program glued to its flag (`-B4`), an optional one with `=`
 *   (`--fast=3`), from a `.tool.json` spec and from per-option `attached` / `value_optional` overrides
 *   on the parsed help;
 * - send what the caller sent: a value equal to the default reaches the program; a property left out
 *   does not, and the JSON Schema still documents the default.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;

/** A zstd-like spec (`-B#`, `--fast[=#]`, `-w, --wrap=COLS (default 76)`), as `.tool.json` `spec`. */
const ZSTD_LIKE_SPEC = {
  name: 'zstd-like',
  description: 'Compress files',
  options: [
    { short: 'B', takes_value: true, value_name: '#', type: 'integer', default: 0, attached: true, description: 'Cut into blocks of # bytes' },
    { long: 'fast', takes_value: true, value_name: '#', type: 'integer', default: 1, value_optional: true, description: 'Fast levels' },
    { long: 'wrap', short: 'w', takes_value: true, value_name: 'COLS', type: 'integer', default: 76, description: 'Wrap lines after COLS characters' },
    { long: 'decode', short: 'd', description: 'Decode' },
  ],
  positionals: [{ name: 'files', required: false, variadic: true }],
  subcommands: [],
};

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  const tool = (name: string, toolJson: object) => {
    copyFileSync(fixture('argv-list'), join(tools, `${name}.wasm`));
    writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify(toolJson));
  };
  tool('zstd-like', { spec: ZSTD_LIKE_SPEC });
  // argv-list's own help: `-t, --tag <TAG>` and `-x, --exit-code <CODE>`, written apart
  tool('glued-tag', { options: { tag: { attached: true }, '-x': { value_optional: true } } });
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

/** The arguments the program printed, one `[arg]` a line after `argc=N`. */
async function argvSeen(tool: string, input: Record<string, unknown>): Promise<string[]> {
  const result = await ext.host.callTool(tool, input);
  expect(result.is_error, result.content).toBe(false);
  const lines = result.content.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^argc=\d+$/);
  return lines.slice(1).map((line) => line.replace(/^\[(.*)\]$/, '$1'));
}

describe('attached and optional values reach the program in the form the help shows', () => {
  it('-B4 and --fast=3, never `-B 4` (which the program would read as a file)', async () => {
    expect(await argvSeen('zstd-like', { b_upper: 4, fast: 3, files: ['in.txt'] })).toEqual(['-B4', '--fast=3', 'in.txt']);
  });

  it('per-option overrides on a parsed help: attached → --tag=v, value_optional → --exit-code=0', async () => {
    expect(await argvSeen('glued-tag', { tag: 'v', exit_code: 0, pattern: 'p' })).toEqual(['--tag=v', '--exit-code=0', 'p']);
  });
});

describe('send what the caller sent', () => {
  it('an explicit value equal to the default reaches the program (base64 {wrap: 76})', async () => {
    expect(await argvSeen('zstd-like', { decode: true, wrap: 76, files: ['in.txt'] })).toEqual(['--wrap', '76', '--decode', 'in.txt']);
    expect(await argvSeen('zstd-like', { b_upper: 0, fast: 1 })).toEqual(['-B0', '--fast=1']);
  });

  it('a property left out is not sent, and the schema documents the defaults without requiring them', async () => {
    expect(await argvSeen('zstd-like', { decode: true, files: ['in.txt'] })).toEqual(['--decode', 'in.txt']);
    const schema = ext.host.registry.get('zstd-like')?.inputSchema as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    expect(schema.properties.wrap).toMatchObject({ type: 'integer', default: 76 });
    expect(schema.properties.b_upper).toMatchObject({ type: 'integer', default: 0 });
    expect(schema.required ?? []).toEqual([]);
  });
});
