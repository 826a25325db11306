/**
 * Real third-party Go CLIs, fetched from the Go module proxy at pinned versions and built unmodified as
 * standard `GOOS=wasip1` binaries by test/fixtures/build.mjs (sources: test/fixtures/go/go-<name>/), run
 * through the host as a user would drop them in: `<name>.wasm` plus a `<name>.policy.json` sidecar that
 * grants the folder holding 5 MB of real input. Each covers one command-line library:
 *   go-yq      cobra        github.com/mikefarah/yq/v4        YAML → JSON
 *   go-csvq    urfave/cli   github.com/mithrandie/csvq        SQL over a CSV file
 *   go-hclfmt  flag         github.com/hashicorp/hcl/v2       HCL formatter
 *   go-chroma  kong         github.com/alecthomas/chroma/v2   syntax highlighter (main package wrapper)
 * Expected results are computed from the generated inputs (go-cli-inputs.ts), not recorded.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import type { ToolPolicy } from '../../src/policy.ts';
import { createExtHost, FIXTURES, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';
import { csvInput, goSourceInput, hclInput, htmlText, yamlInput } from './go-cli-inputs.ts';

const MIB = 1024 * 1024;
const INPUT_BYTES = 5 * MIB;
const LOAD_TIMEOUT_MS = 900_000;
const CALL_TIMEOUT_MS = 300_000;

let root: TempRoot;
let ext: ExtHost;
const yaml = yamlInput(INPUT_BYTES);
const csv = csvInput(INPUT_BYTES);
const hcl = hclInput(INPUT_BYTES);
const goSource = goSourceInput(INPUT_BYTES);

/** One option of a `.tool.json` spec. */
const option = (long: string, short: string | null, type: 'string' | 'integer' | 'boolean') => ({
  long, short, aliases: [], takes_value: type !== 'boolean', value_name: type === 'boolean' ? null : long, type,
  default: null, choices: null, repeatable: false, required: false, negation: null, description: null,
});
const positional = (name: string, variadic = false) => ({ name, required: true, variadic });

/**
 * Each tool's command line, as its `.tool.json` declares it. Their own `--help` is not used: yq's lists
 * only its subcommands, not the expression and files it takes, and help capture has a 3 s budget that
 * chroma's start-up (it loads every lexer definition) can exceed on a busy machine, which would make
 * this test depend on the machine's load.
 */
const specs = {
  'go-yq': { options: [option('output-format', 'o', 'string'), option('indent', 'I', 'integer')], positionals: [positional('expression'), positional('files', true)] },
  'go-csvq': { options: [option('repository', 'r', 'string'), option('format', 'f', 'string'), option('quiet', 'q', 'boolean')], positionals: [positional('query')] },
  'go-hclfmt': { options: [], positionals: [positional('files', true)] },
  'go-chroma': { options: [option('formatter', 'f', 'string')], positionals: [positional('files', true)] },
} as const;

beforeAll(async () => {
  root = tempRoot('toolhost-go-cli-');
  const data = root.folder('data');
  writeFileSync(join(data, 'inventory.yaml'), yaml.text);
  writeFileSync(join(data, 'infra.hcl'), hcl.text);
  writeFileSync(join(data, 'big.go'), goSource);
  // csvq takes a lock file beside the table it reads (also for a SELECT), so its folder is granted rw.
  const sales = root.folder('sales');
  writeFileSync(join(sales, 'sales.csv'), csv.text);
  const tools = root.folder('tools');
  const budget = { timeout_ms: CALL_TIMEOUT_MS, memory_mb: 1024, output_bytes: 256 * MIB };
  const install = (name: keyof typeof specs, policy: ToolPolicy) => {
    copyFileSync(join(FIXTURES, `${name}.core.wasm`), join(tools, `${name}.wasm`));
    writeFileSync(join(tools, `${name}.policy.json`), JSON.stringify({ ...budget, ...policy }));
    writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify({ spec: { name, description: `${name} (test)`, subcommands: [], ...specs[name] } }));
  };
  install('go-yq', { fs: [{ host: data, guest: '/data', mode: 'ro' }] });
  // hclfmt keeps a token tree of the whole file: about 1 GiB for 5 MB (the same under wasmtime).
  install('go-hclfmt', { fs: [{ host: data, guest: '/data', mode: 'ro' }], memory_mb: 2048 });
  install('go-chroma', { fs: [{ host: data, guest: '/data', mode: 'ro' }] });
  install('go-csvq', { fs: [{ host: sales, guest: '/data', mode: 'rw' }] });
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, LOAD_TIMEOUT_MS);

afterAll(async () => {
  await ext?.close();
  root?.remove();
});

const details = (name: string) => ext.host.registry.get(name)?.details as WasmToolDetails | undefined;

describe('third-party Go CLIs built for wasip1, on 5 MB of input from a granted folder', () => {
  it('loads all four with the grants of their policy sidecars', () => {
    for (const name of Object.keys(specs)) {
      const tool = ext.host.registry.get(name);
      expect(tool?.permission, name).toBe(name === 'go-csvq' ? 'write' : 'read_only');
      expect(details(name)?.policy.fs, name).toMatchObject([{ guest: '/data', mode: name === 'go-csvq' ? 'rw' : 'ro' }]);
    }
  });

  it('cobra (yq): converts the whole 5 MB YAML file to JSON', async () => {
    const result = await ext.host.callTool('go-yq', { expression: '.', files: ['/data/inventory.yaml'], output_format: 'json', indent: 0 });
    expect(result.is_error, result.content.slice(0, 2000)).toBe(false);
    expect(JSON.parse(result.content)).toEqual(yaml.value);
  }, CALL_TIMEOUT_MS);

  it('urfave/cli (csvq): aggregates the 5 MB CSV file with SQL', async () => {
    const result = await ext.host.callTool('go-csvq', {
      repository: '/data',
      format: 'JSON',
      quiet: true,
      query: 'SELECT region, COUNT(*) AS n, SUM(amount) AS total FROM sales GROUP BY region ORDER BY region',
    });
    expect(result.is_error, result.content.slice(0, 2000)).toBe(false);
    const expected = [...csv.totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([region, { rows, amount }]) => ({ region, n: rows, total: amount }));
    expect(JSON.parse(result.content)).toEqual(expected);
  }, CALL_TIMEOUT_MS);

  it('flag (hclfmt): formats the 5 MB HCL file exactly as canonical HCL', async () => {
    const result = await ext.host.callTool('go-hclfmt', { files: ['/data/infra.hcl'] });
    expect(result.is_error, result.content.slice(0, 2000)).toBe(false);
    expect(result.content.length).toBe(hcl.formatted.length);
    expect(result.content === hcl.formatted).toBe(true);
  }, CALL_TIMEOUT_MS);

  it('kong (chroma): highlights the 5 MB Go file as HTML that shows exactly the source', async () => {
    const result = await ext.host.callTool('go-chroma', { formatter: 'html', files: ['/data/big.go'] });
    expect(result.is_error, result.content.slice(0, 2000)).toBe(false);
    expect(result.content).toMatch(/^<html>/);
    // Keywords were recognised as Go: a lexer ran over the whole file, not a plain-text fallback.
    expect(result.content.match(/>func</g)?.length).toBe(goSource.match(/^func /gm)?.length);
    expect(htmlText(result.content).includes(goSource)).toBe(true);
  }, CALL_TIMEOUT_MS);
});
