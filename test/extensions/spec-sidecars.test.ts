/**
 * Specs the author ships, end to end: the real argv-list component (test/fixtures/c/argv-list.c: it
 * prints the argv it gets; its --help describes `[OPTIONS] <PATTERN> [TEMPLATE]`) dropped into an
 * extensions folder next to a usage spec, an oclif manifest, a bad or oversized spec, or with a usage
 * spec in a custom section appended to the component, then loaded by a real host:
 * - the spec, not the help, makes the schema; a call reaches the program as the argv the spec says;
 * - the declared effect raises the permission level and sets the MCP hints;
 * - a bad or oversized sidecar is a load warning and the help parse is used;
 * - `toolhost inspect --json` (the real CLI) shows `sidecar:usage` sources; `toolhost check` reports.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentFileFor } from '../../src/extensions/extension-set.ts';
import { inspectWasmTool } from '../../src/extensions/tool-inspection.ts';
import { probeWasmToolVersion } from '../../src/extensions/wasm-tool.ts';
import { toMcpTool } from '../../src/schema/providers/mcp.ts';
import { checkComponent } from '../../src/cli/commands/check.ts';
import { createWasmRuntime } from '../../src/wasm/runtime.ts';
import { runCli } from '../cli/run-cli.ts';
import { createExtHost, fixture, PROJECT_ROOT, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';
import { customSection } from '../helpers/wasm-sections.ts';

const SAMPLES = join(PROJECT_ROOT, 'test', 'fixtures', 'spec-sidecars');

let root: TempRoot;
let tools: string;
let ext: ExtHost;

/** The component with a custom section `name` holding `text` appended at its top level. */
function withSection(component: Uint8Array, name: string, text: string): Uint8Array {
  return new Uint8Array([...component, ...customSection(name, new TextEncoder().encode(text))]);
}

/** The arguments the program printed, one `[arg]` a line after `argc=N`. */
function printedArgv(content: string): string[] {
  const lines = content.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^argc=\d+$/);
  return lines.slice(1).map((line) => line.replace(/^\[(.*)\]$/, '$1'));
}

function schemaOf(name: string): { properties: Record<string, { enum?: string[] }>; required?: string[] } {
  const tool = ext.host.registry.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}: ${JSON.stringify(ext.events)}`);
  return tool.inputSchema as { properties: Record<string, { enum?: string[] }>; required?: string[] };
}

beforeAll(async () => {
  root = tempRoot();
  tools = root.folder('tools');
  const drop = (name: string, sidecars: Record<string, string | Uint8Array> = {}) => {
    copyFileSync(fixture('argv-list'), join(tools, `${name}.wasm`));
    for (const [suffix, content] of Object.entries(sidecars)) writeFileSync(join(tools, `${name}${suffix}`), content);
  };
  drop('deployctl', { '.usage.kdl': readFileSync(join(SAMPLES, 'deployctl.usage.kdl')) });
  drop('notes', { '.oclif.manifest.json': readFileSync(join(SAMPLES, 'notes.oclif.manifest.json')) });
  drop('broken', { '.usage.kdl': 'flag "--unterminated' });
  drop('oversized', { '.usage.kdl': `bin "x"\n// ${'a'.repeat(1024 * 1024)}\n` });
  drop('corrected', { '.usage.kdl': 'bin "corrected"\nflag "--mode <MODE>" help="Mode" { choices fast slow }\narg "<input>"', '.tool.json': JSON.stringify({ options: { mode: { default: 'slow' } } }) });
  writeFileSync(join(tools, 'sectioned.wasm'), withSection(readFileSync(fixture('argv-list')), 'toolhost:spec-usage', 'bin "sectioned"\nabout "Sectioned tool"\neffect "read"\nflag "--fast" help="Go fast"\narg "<target>"'));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 240_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

describe('a usage sidecar next to a real component', () => {
  it('makes the schema from the spec, not from the help', () => {
    const schema = schemaOf('deployctl');
    expect(schema.properties['command']?.enum).toEqual(['list', 'push', 'prune', 'config get', 'config set']);
    expect(schema.properties['format']?.enum).toEqual(['table', 'json', 'yaml']);
    expect(schema.properties['pattern']).toBeUndefined();
    expect(schema.required).toEqual(['command']);
    const details = ext.host.registry.get('deployctl')?.details as { helpFlag: string; specSidecar?: unknown; warnings: unknown[] };
    expect(details.helpFlag).toBe('sidecar:usage');
    expect(details.specSidecar).toEqual({ format: 'usage', origin: 'deployctl.usage.kdl' });
    expect(details.warnings).toEqual([]);
  });

  it('maps calls to the argv the spec says, nested commands as their words', async () => {
    const push = await ext.host.callTool('deployctl', { command: 'push', tag: 'v1.2', label: ['a', 'b'], file: ['dist.tar'] });
    expect(push.is_error, push.content).toBe(false);
    expect(printedArgv(push.content)).toEqual(['push', '--tag', 'v1.2', '--label', 'a', '--label', 'b', 'dist.tar']);
    const set = await ext.host.callTool('deployctl', { command: 'config set', profile: 'ci', key: 'region', value: 'eu' });
    expect(printedArgv(set.content)).toEqual(['config', 'set', '--profile', 'ci', 'region', 'eu']);
    const bad = await ext.host.callTool('deployctl', { command: 'list', format: 'xml' });
    expect(bad.is_error).toBe(true);
  });

  it('takes the declared effect: permission write (no grants), destructive MCP hint', () => {
    const tool = ext.host.registry.get('deployctl');
    expect(tool?.permission).toBe('write');
    expect(tool?.effect).toBe('destructive');
    expect(tool && toMcpTool(tool).annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
  });

  it('shows sidecar:usage sources in the inspection', () => {
    const tool = ext.host.registry.get('deployctl');
    if (tool === undefined) throw new Error('no tool');
    const report = inspectWasmTool(tool, (policy) => policy);
    expect(report.spec.sources?.['description']).toBe('sidecar:usage');
    expect(report.spec.options[1]?.sources?.['choices']).toBe('sidecar:usage');
    expect(report.spec.subcommands[3]).toMatchObject({ name: 'config get', path: ['config', 'get'], effect: 'read' });
  });

  it('keeps .tool.json on top of the sidecar', async () => {
    const tool = ext.host.registry.get('corrected');
    const report = tool && inspectWasmTool(tool, (policy) => policy);
    expect(report?.spec.options[0]).toMatchObject({ long: 'mode', choices: ['fast', 'slow'], default: 'slow' });
    const result = await ext.host.callTool('corrected', { input: 'in.txt', mode: 'fast' });
    expect(printedArgv(result.content)).toEqual(['--mode', 'fast', 'in.txt']);
  });
});

describe('an oclif manifest next to a real component', () => {
  it('serves its commands; no effect is declared, so the grants decide the level', async () => {
    expect(schemaOf('notes').properties['command']?.enum).toEqual(['notes:add', 'notes:list']);
    const result = await ext.host.callTool('notes', { command: 'notes:add', text: 'buy milk', format: 'txt' });
    expect(printedArgv(result.content)).toEqual(['notes:add', '--format', 'txt', 'buy milk']);
    const tool = ext.host.registry.get('notes');
    expect(tool?.permission).toBe('none');
    expect(tool?.effect).toBeUndefined();
  });
});

describe('a usage spec in a custom section of the component', () => {
  it('is read when no sidecar file is present, with its effect', async () => {
    const schema = schemaOf('sectioned');
    expect(Object.keys(schema.properties).sort()).toEqual(['fast', 'target']);
    const result = await ext.host.callTool('sectioned', { target: 'x', fast: true });
    expect(printedArgv(result.content)).toEqual(['--fast', 'x']);
    const tool = ext.host.registry.get('sectioned');
    expect((tool?.details as { specSidecar?: unknown }).specSidecar).toEqual({ format: 'usage', origin: 'custom section toolhost:spec-usage' });
    expect(tool?.effect).toBe('read');
    expect(tool?.permission).toBe('none');
    expect(tool?.description).toBe('Sectioned tool');
  });
});

describe('bad and oversized sidecars', () => {
  it.each([
    ['broken', /broken\.usage\.kdl is not used \(.*Unexpected EOF/],
    ['oversized', /oversized\.usage\.kdl is not used \(\d+ bytes, over the 1048576-byte limit\)/],
  ])('%s: the tool loads from its help, with a spec-sidecar-invalid warning saying why', async (name, message) => {
    expect(Object.keys(schemaOf(name).properties).sort(), JSON.stringify(ext.host.registry.get(name)?.details)).toEqual(['exit_code', 'pattern', 'tag', 'template']);
    expect(Object.keys(schemaOf(name).properties).sort()).toEqual(['exit_code', 'pattern', 'tag', 'template']);
    const tool = ext.host.registry.get(name);
    const details = tool?.details as { helpFlag: string; warnings: { code: string; message: string }[] };
    expect(details.helpFlag).toBe('--help');
    expect(details.warnings).toEqual([expect.objectContaining({ code: 'spec-sidecar-invalid', message: expect.stringMatching(message) })]);
    const result = await ext.host.callTool(name, { pattern: 'p', tag: 't' });
    expect(printedArgv(result.content)).toEqual(['--tag', 't', 'p']);
  });
});

describe('the CLI', () => {
  it('`toolhost inspect --json` shows the sidecar:usage sources and the effect', async () => {
    const run = await runCli(['inspect', join(tools, 'deployctl.wasm'), '--json'], { cwd: root.path, env: { TOOLHOST_CACHE_DIR: join(root.path, 'cache') }, timeoutMs: 180_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      help_flag: string;
      permission: string;
      spec: { sources: Record<string, string>; subcommands: { name: string; effect?: string; options?: { long: string; sources: Record<string, string> }[] }[] };
    };
    expect(report.help_flag).toBe('sidecar:usage');
    expect(report.permission).toBe('write');
    expect(report.spec.sources['options']).toBe('sidecar:usage');
    const prune = report.spec.subcommands.find((command) => command.name === 'prune');
    expect(prune?.effect).toBe('destructive');
    expect(prune?.options?.[0]?.sources['long']).toBe('sidecar:usage');
  }, 240_000);

  it('`toolhost check` reports the sidecar used, and a bad one as a warning', async () => {
    const runtime = createWasmRuntime({ cacheDirectory: join(root.path, 'cache'), threads: 1 });
    try {
      const good = await checkComponent(join(tools, 'deployctl.wasm'), runtime, root.path);
      expect(good.findings.find((finding) => finding.code === 'help')?.message).toMatch(/^the usage spec the author ships \(deployctl\.usage\.kdl\): 2 option\(s\), 0 positional\(s\), 5 subcommand\(s\)/);
      const bad = await checkComponent(join(tools, 'broken.wasm'), runtime, root.path);
      expect(bad.ok).toBe(true);
      expect(bad.findings).toContainEqual(expect.objectContaining({ level: 'warning', code: 'spec-sidecar-invalid', message: expect.stringMatching(/broken\.usage\.kdl is not used/) }));
      expect(bad.findings.find((finding) => finding.code === 'help')?.message).toMatch(/^--help parsed/);
    } finally {
      await runtime.close();
    }
  }, 240_000);
});

describe('reloading', () => {
  it('a spec sidecar belongs to its component for the watcher, and changing it changes the version', async () => {
    expect(componentFileFor(join(tools, 'deployctl.usage.kdl'))).toBe(join(tools, 'deployctl.wasm'));
    expect(componentFileFor(join(tools, 'notes.oclif.manifest.json'))).toBe(join(tools, 'notes.wasm'));
    expect(componentFileFor(join(tools, 'x.carapace.yaml'))).toBe(join(tools, 'x.wasm'));
    const other = root.folder('not-watched');
    const file = join(other, 'reversion.wasm');
    copyFileSync(fixture('argv-list'), file);
    const before = await probeWasmToolVersion(file);
    writeFileSync(join(other, 'reversion.carapace.yaml'), 'name: reversion\n');
    const withSidecar = await probeWasmToolVersion(file);
    writeFileSync(join(other, 'reversion.carapace.yaml'), 'name: reversion\nflags:\n  --x: x\n');
    expect(new Set([before, withSidecar, await probeWasmToolVersion(file)]).size).toBe(3);
  });
});
