/**
 * Subcommands' own positionals with a real C component shaped like a clap program
 * (test/fixtures/c/vcs-subcommands.c): at load toolhost runs `<sub> --help`, models `clone <REPO> [DIR]`
 * and `tag <NAMES>...` as properties allowed only with their command, refuses them with another
 * command or a missing required one, and writes them on the argv after the command and its options.
 * The fixture itself exits 2 on a positional in the wrong place or a wrong count.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';

let root: TempRoot;
let ext: ExtHost;

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  copyFileSync(fixture('vcs-subcommands'), join(tools, 'vcs.wasm'));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

function properties(): Record<string, { description?: string; type?: string; items?: unknown; minItems?: number }> {
  const tool = ext.host.registry.get('vcs');
  expect(tool, 'vcs is loaded').toBeDefined();
  return (tool?.inputSchema as { properties: Record<string, { description?: string }> }).properties;
}

describe('subcommand positionals from each subcommand’s --help', () => {
  it('models each command’s own positionals, in its usage order', () => {
    const spec = (ext.host.registry.get('vcs')?.details as WasmToolDetails).spec;
    expect(spec.positionals).toEqual([]);
    const own = Object.fromEntries(spec.subcommands.map((command) => [command.name, (command.positionals ?? []).map(({ name, required, variadic }) => ({ name, required, variadic }))]));
    expect(own).toEqual({
      clone: [
        { name: 'REPO', required: true, variadic: false },
        { name: 'DIR', required: false, variadic: false },
      ],
      tag: [{ name: 'NAMES', required: true, variadic: true }],
    });
    const props = properties();
    expect(Object.keys(props).sort()).toEqual(['command', 'depth', 'dir', 'force', 'names', 'quiet', 'repo']);
    expect(props.repo?.description).toBe('Repository to clone. Only with command clone (required with clone).');
    expect(props.dir?.description).toBe('Directory to clone into. Only with command clone.');
    expect(props.names?.type).toBe('array');
    expect(props.depth?.type).toBe('integer');
  });

  it('writes root options, the command, its options, then its positionals; `--` before a dash-leading one', async () => {
    const cloned = await ext.host.callTool('vcs', { quiet: true, command: 'clone', depth: 1, repo: 'https://example.test/r.git', dir: 'out' });
    expect(cloned.is_error, cloned.content).toBe(false);
    expect(cloned.content.trim()).toBe('argv: --quiet clone --depth 1 https://example.test/r.git out');
    const tagged = await ext.host.callTool('vcs', { command: 'tag', force: true, names: ['-rc1', 'v1'] });
    expect(tagged.is_error, tagged.content).toBe(false);
    expect(tagged.content.trim()).toBe('argv: tag --force -- -rc1 v1');
  });

  it('refuses a positional with another command, and a command without its required positional', async () => {
    const wrong = await ext.host.callTool('vcs', { command: 'tag', names: ['v1'], repo: 'r' });
    expect(wrong.is_error).toBe(true);
    expect(wrong.content).toMatch(/"repo" \(<REPO>\) is only valid with command clone; the command is "tag"/);
    const missing = await ext.host.callTool('vcs', { command: 'clone', dir: 'out' });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toMatch(/Command "clone" requires parameter "repo" \(<REPO>\)/);
    const empty = await ext.host.callTool('vcs', { command: 'tag', names: [] });
    expect(empty.is_error).toBe(true);
    // every command taking `names` requires it: the schema itself wants at least one item
    expect(empty.content).toMatch(/names/);
  });
});
