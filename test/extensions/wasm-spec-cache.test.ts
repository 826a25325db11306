/**
 * The wasm spec cache (src/extensions/wasm-spec-cache.ts): a one-shot `toolhost call` whose tool's
 * finished spec is cached imports no help parser (seen by a module-load hook in the real CLI process),
 * `inspect --json` shows the same spec, sources included, from the cache as from a parse; a changed
 * `.tool.json` or other parser code is another key; an entry that is corrupt, for another key, or
 * shaped wrong (as an attacker with write access to the cache folder would try) is a miss, the spec is
 * derived again, and the entry rewritten.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWasmSpecCache, decodeSpecEntry, encodeSpecEntry, wasmSpecCacheKey, type WasmSpecCacheKeyParts } from '../../src/extensions/wasm-spec-cache.ts';
import { computeParserVersion, PARSER_VERSION_FILE } from '../../src/introspect/parser-version.ts';
import { setSources } from '../../src/introspect/reader/claims.ts';
import type { CliSpec } from '../../src/introspect/spec.ts';
import { DIST_BIN, PROJECT_ROOT, runCli, temporaryDirectory } from '../cli/run-cli.ts';

const build = join(PROJECT_ROOT, 'test/fixtures/build');
const HOOK = join(PROJECT_ROOT, 'test/cli/record-module-loads.mjs');
/** Modules only the help → spec pipeline needs: none may load when the spec comes from the cache. */
const PARSER_MODULE = /\/src\/(?:introspect\/(?:parse-help|help-scan|usage|option-entry|subcommand-help|dialects\/|probe\/index|probe\/plan|examples\/help-examples)|extensions\/wasm-tool-derive)\.[jt]s$/;

describe('wasm spec cache: a one-shot call from a warm cache', () => {
  let root: { path: string; remove: () => void };
  let tools: string;
  let cache: string;
  let run = 0;
  beforeAll(() => {
    root = temporaryDirectory();
    tools = join(root.path, 'tools');
    cache = join(root.path, 'cache');
    mkdirSync(tools);
    copyFileSync(join(build, 'ext-greet.wasm'), join(tools, 'ext-greet.wasm'));
  });
  afterAll(() => root.remove());

  /** Runs the CLI with the module-load hook; returns the run and the URLs of the modules it loaded. */
  async function cli(args: string[]) {
    const loads = join(root.path, `loads-${run++}.txt`);
    const result = await runCli([...args, '--workspace', root.path, '--extensions', tools], {
      cwd: root.path,
      env: { TOOLHOST_CACHE_DIR: cache, NODE_DEBUG: 'toolhost', NODE_OPTIONS: `--import=${HOOK}`, RECORD_MODULE_LOADS: loads },
      timeoutMs: 120_000,
    });
    const modules = existsSync(loads) ? readFileSync(loads, 'utf8').split('\n').filter((line) => line !== '') : [];
    return { ...result, modules, parser: modules.filter((url) => PARSER_MODULE.test(url)) };
  }

  const specEntries = (): string[] => {
    const folder = join(cache, 'spec');
    if (!existsSync(folder)) return [];
    return readdirSync(folder).flatMap((namespace) => readdirSync(join(folder, namespace)).filter((name) => name.endsWith('.json')).map((name) => join(folder, namespace, name)));
  };

  it('the first call parses the help and keeps the spec; the second imports no parser module and answers the same', async () => {
    const first = await cli(['call', 'ext-greet', '{"name": "Ada", "times": 2}']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('Hello, Ada!');
    // The hook saw the process's modules, the parser among them (the control: a miss does load it).
    expect(first.modules.length).toBeGreaterThan(50);
    expect(first.parser.length).toBeGreaterThan(0);
    expect(first.stderr).toMatch(/spec cache miss/);
    expect(specEntries()).toHaveLength(1);

    const second = await cli(['call', 'ext-greet', '{"name": "Ada", "times": 2}']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/spec cache hit/);
    expect(second.stderr).not.toMatch(/help cache (hit|miss)/);
    expect(second.modules.length).toBeGreaterThan(50);
    expect(second.parser).toEqual([]);
  }, 300_000);

  it('inspect --json shows the same spec, with every field source, from the cache as from a parse', async () => {
    const fromCache = await cli(['inspect', 'ext-greet', '--json']);
    expect(fromCache.exitCode, fromCache.stderr).toBe(0);
    expect(fromCache.stderr).toMatch(/spec cache hit/);
    expect(fromCache.parser).toEqual([]);
    const cached = JSON.parse(fromCache.stdout) as { spec: { options: { sources?: Record<string, string> }[] } };
    expect(cached.spec.options[0]?.sources?.['long']).toMatch(/^help:/);

    // The same tool with an empty spec cache (the help cache stays warm): parsed again.
    for (const entry of specEntries()) writeFileSync(entry, '');
    const parsed = await cli(['inspect', 'ext-greet', '--json']);
    expect(parsed.exitCode, parsed.stderr).toBe(0);
    expect(parsed.stderr).toMatch(/spec cache entry unusable/);
    expect(parsed.parser.length).toBeGreaterThan(0);
    expect(JSON.parse(parsed.stdout)).toEqual(cached);
  }, 300_000);

  it('a changed .tool.json is another key: the call sees the change, and the old entry is not served', async () => {
    writeFileSync(join(tools, 'ext-greet.tool.json'), JSON.stringify({ description: 'Says hello, as configured' }));
    const changed = await cli(['inspect', 'ext-greet', '--json']);
    expect(changed.exitCode, changed.stderr).toBe(0);
    expect(changed.stderr).toMatch(/spec cache miss/);
    expect((JSON.parse(changed.stdout) as { description: string }).description).toBe('Says hello, as configured');
    const again = await cli(['inspect', 'ext-greet', '--json']);
    expect(again.stderr).toMatch(/spec cache hit/);
    expect((JSON.parse(again.stdout) as { description: string }).description).toBe('Says hello, as configured');
  }, 300_000);

  it('a corrupt, foreign or wrongly shaped entry is a miss: the call still answers, and the entry is written anew', async () => {
    const [entry] = specEntries().filter((file) => readFileSync(file, 'utf8').includes('Says hello, as configured'));
    expect(entry).toBeDefined();
    const good = readFileSync(entry as string, 'utf8');
    const valid = JSON.parse(good) as Record<string, unknown> & { spec: { options: Record<string, unknown>[] } };
    const attempts: Record<string, string> = {
      'not JSON': '{"format": 1, "key": ',
      'another key': JSON.stringify({ ...valid, key: 'f'.repeat(64) }),
      // A spec that would change the argv (an option the program does not have): fields outside the schema are refused.
      'unknown field': JSON.stringify({ ...valid, spec: { ...valid.spec, options: [{ ...valid.spec.options[0], shell: 'rm -rf /' }] } }),
      'sources of other parts': JSON.stringify({ ...valid, sources: { spec: null, options: [], positionals: [], subcommands: [] } }),
    };
    for (const [what, text] of Object.entries(attempts)) {
      writeFileSync(entry as string, text);
      const called = await cli(['call', 'ext-greet', '{"name": "Bo"}']);
      expect(called.exitCode, `${what}: ${called.stderr}`).toBe(0);
      expect(called.stdout, what).toContain('Hello, Bo!');
      expect(called.stderr, what).toMatch(/spec cache entry unusable/);
      expect(called.parser.length, what).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(entry as string, 'utf8')), what).toEqual(JSON.parse(good));
    }
  }, 600_000);
});

describe('wasm spec cache entries and keys', () => {
  const parts: WasmSpecCacheKeyParts = { version: 'a'.repeat(64), fileName: 'x.wasm', helpCacheKey: 'b'.repeat(64), policy: { fs: [] }, parserVersion: 'c'.repeat(64) };

  it('every part of the key changes it', () => {
    const key = wasmSpecCacheKey(parts);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const changed: Partial<WasmSpecCacheKeyParts>[] = [
      { version: 'd'.repeat(64) },
      { fileName: 'y.wasm' },
      { helpCacheKey: 'e'.repeat(64) },
      { policy: { fs: [], timeout_ms: 1 } },
      { probeBudgetMs: 60_000 },
      { parserVersion: 'f'.repeat(64) },
    ];
    for (const change of changed) expect(wasmSpecCacheKey({ ...parts, ...change }), JSON.stringify(change)).not.toBe(key);
  });

  it('an entry reads back as the spec it was written from, with the sources of every part', () => {
    const spec: CliSpec = {
      name: 'tool',
      description: 'd',
      options: [
        { long: 'colour', short: 'c', aliases: [], takes_value: true, value_name: 'WHEN', type: 'string', default: null, choices: ['auto', 'never'], repeatable: false, required: false, negation: null, description: null, suggestions: ['auto'] },
      ],
      positionals: [{ name: 'file', required: true, variadic: false }],
      subcommands: [{ name: 'run', description: null, options: [{ long: 'fast', short: null, aliases: [], takes_value: false, value_name: null, type: 'boolean', default: null, choices: null, repeatable: false, required: false, negation: null, description: null }] }],
    };
    setSources(spec, { description: 'help:description' });
    setSources(spec.options[0] as object, { choices: 'probe:cobra.complete' });
    setSources(spec.subcommands[0]?.options?.[0] as object, { long: 'help:subcommand' });
    const key = 'a'.repeat(64);
    const entry = JSON.parse(JSON.stringify(encodeSpecEntry(key, { spec, helpFlag: '--help', program: 'tool', warnings: [{ code: 'w', message: 'm' }] })));
    const decoded = decodeSpecEntry(key, entry);
    expect(decoded?.spec).toEqual(spec);
    expect(decoded?.spec.sources).toEqual({ description: 'help:description' });
    expect(decoded?.spec.options[0]?.sources).toEqual({ choices: 'probe:cobra.complete' });
    expect(decoded?.spec.subcommands[0]?.options?.[0]?.sources).toEqual({ long: 'help:subcommand' });
    expect(Object.keys(decoded?.spec ?? {})).not.toContain('sources');
    expect(decoded).toMatchObject({ helpFlag: '--help', program: 'tool', warnings: [{ code: 'w', message: 'm' }] });
    expect(decodeSpecEntry('b'.repeat(64), entry)).toBeUndefined();
    expect(decodeSpecEntry(key, { ...entry, format: 2 })).toBeUndefined();
    expect(decodeSpecEntry(key, { ...entry, spec: { ...entry.spec, name: '../x' } })).toBeUndefined();
  });

  it('keeps no spec whose help failed or that a time budget cut short; reads back the others', async () => {
    const root = temporaryDirectory();
    try {
      const cache = createWasmSpecCache(join(root.path, 'spec'), { namespace: 'v0-test' });
      const spec: CliSpec = { name: 'tool', description: '', options: [], positionals: [], subcommands: [] };
      const [failed, cut, whole] = ['1', '2', '3'].map((digit) => digit.repeat(64)) as [string, string, string];
      await cache.set(failed, { spec, helpFlag: 'none', program: 'tool', warnings: [], helpProblem: 'No usable help output (--help: exit null)' });
      await cache.set(cut, { spec, helpFlag: '--help', program: 'tool', warnings: [], incomplete: true });
      await cache.set(whole, { spec, helpFlag: '--help', program: 'tool', warnings: [] });
      expect(await cache.get(failed)).toBeUndefined();
      expect(await cache.get(cut)).toBeUndefined();
      expect((await cache.get(whole))?.spec).toEqual(spec);
      // A key that is no hex digest never names a file (no path out of the folder).
      expect(await cache.get('../../etc/passwd')).toBeUndefined();
    } finally {
      root.remove();
    }
  });
});

describe('parser version', () => {
  let root: { path: string; remove: () => void };
  beforeAll(() => {
    root = temporaryDirectory();
  });
  afterAll(() => root.remove());

  /** A copy of the sources the version covers, laid out as in src/. */
  function copyOfSources(name: string): string {
    const copy = join(root.path, name, 'src');
    cpSync(join(PROJECT_ROOT, 'src/introspect'), join(copy, 'introspect'), { recursive: true });
    mkdirSync(join(copy, 'extensions'));
    for (const file of ['wasm-tool.ts', 'wasm-tool-derive.ts', 'wasm-spec-cache.ts']) copyFileSync(join(PROJECT_ROOT, 'src/extensions', file), join(copy, 'extensions', file));
    return join(copy, 'introspect');
  }

  it('is the hash of the parser code: the same files give the same version, one edited byte another', () => {
    const version = computeParserVersion(join(PROJECT_ROOT, 'src/introspect'));
    expect(version).toMatch(/^[0-9a-f]{64}$/);
    const same = copyOfSources('same');
    expect(computeParserVersion(same)).toBe(version);
    const edited = copyOfSources('edited');
    const file = join(edited, 'parse-help.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    expect(computeParserVersion(edited)).not.toBe(version);
    const pipeline = copyOfSources('pipeline');
    writeFileSync(join(pipeline, '../extensions/wasm-tool-derive.ts'), '// other derivation\n', { flag: 'a' });
    expect(computeParserVersion(pipeline)).not.toBe(version);
  });

  it.skipIf(!existsSync(DIST_BIN))('the build records the version of the code it built', () => {
    const folder = join(PROJECT_ROOT, 'dist/src/introspect');
    const recorded = JSON.parse(readFileSync(join(folder, PARSER_VERSION_FILE), 'utf8')) as { version: string };
    expect(recorded.version).toBe(computeParserVersion(folder));
  });

  it.skipIf(!existsSync(DIST_BIN))('a recorded version older than the compiled module (a bare tsc over the build) is not trusted', async () => {
    const recordedAs = 'a'.repeat(64);
    const versionIn = async (name: string, age: 'newer' | 'older'): Promise<string> => {
      const folder = join(root.path, name, 'introspect');
      cpSync(join(PROJECT_ROOT, 'dist/src/introspect'), folder, { recursive: true });
      const file = join(folder, PARSER_VERSION_FILE);
      writeFileSync(file, JSON.stringify({ version: recordedAs }));
      const now = Date.now() / 1000;
      utimesSync(join(folder, 'parser-version.js'), now, now);
      utimesSync(file, now + (age === 'newer' ? 10 : -10), now + (age === 'newer' ? 10 : -10));
      const module = (await import(pathToFileURL(join(folder, 'parser-version.js')).href)) as { parserVersion: () => string; computeParserVersion: () => string };
      return module.parserVersion() === module.computeParserVersion() ? 'computed' : module.parserVersion();
    };
    expect(await versionIn('trusted', 'newer')).toBe(recordedAs);
    expect(await versionIn('stale', 'older')).toBe('computed');
  });
});
