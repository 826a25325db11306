/**
 * The transpile cache holds code the daemon imports (the jco glue) and compiles (core modules). An
 * attacker who can write the cache folder tries to get code run: by editing an entry's glue, by
 * editing the manifest to match, and by swapping a file after the entry was read. Each edit is made to
 * run code that leaves a marker file when imported: the marker must never appear.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/policy.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const build = join(import.meta.dirname, '../fixtures/build');
const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('transpile cache integrity', { timeout: 120_000 }, () => {
  let work: string;
  let cache: string;
  let marker: string;
  const runtimes: WasmRuntime[] = [];
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);

  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'toolhost-cache-integrity-'));
    cache = join(work, 'cache');
    marker = join(work, 'pwned');
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(async () => {
    process.off('warning', onWarning);
    for (const runtime of runtimes.splice(0)) await runtime.close();
    await rm(work, { recursive: true, force: true });
  });

  /**
   * A fresh runtime (own process-level caches are per module, so each test also uses its own cache folder). It keeps
   * the adapter-wrapped C fixture a component (`preview1Adapter`), so the entry has jco glue to attack.
   */
  function runtime(): WasmRuntime {
    const created = createWasmRuntime({ cacheDirectory: cache, threads: 1, preview1Adapter: true });
    runtimes.push(created);
    return created;
  }

  async function entryDirectory(): Promise<string> {
    const names = (await readdir(cache)).filter((name) => /^[0-9a-f]{64}-/.test(name));
    expect(names.length).toBeGreaterThan(0);
    return join(cache, names[0] as string);
  }

  /** Glue that leaves the marker as soon as it is imported, then behaves as before. */
  async function plantPayload(directory: string): Promise<void> {
    const glue = join(directory, 'tool.mjs');
    const original = await readFile(glue, 'utf8');
    await writeFile(glue, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran');\n${original}`);
  }

  it('signs each entry: the key is 0600 and the manifest lists every file with its sha256', async () => {
    await runtime().load(join(build, 'rt-echo.wasm'));
    const key = await stat(join(cache, 'integrity.key'));
    expect(key.mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(await readFile(join(await entryDirectory(), 'manifest.json'), 'utf8')) as { format: number; files: Record<string, string>; mac: string };
    expect(manifest.format).toBe(2);
    expect(Object.keys(manifest.files)).toContain('tool.mjs');
    expect(manifest.mac).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an edited glue is a cache miss with a warning: transpiled again, the payload never runs', async () => {
    await runtime().load(join(build, 'rt-echo.wasm'));
    await plantPayload(await entryDirectory());
    const again = runtime();
    const component = await again.load(join(build, 'rt-echo.wasm'));
    expect(component.transpiled).toBe(true);
    expect(warnings.some((warning) => (warning as { code?: string }).code === 'TOOLHOST_CACHE_TAMPERED')).toBe(true);
    const outcome = await again.run(component, { args: ['rt-echo', 'hello'], policy: resolvePolicy({}, work) });
    expect(decode(outcome.stdout)).toContain('hello');
    expect(existsSync(marker)).toBe(false);
  });

  it('an edited glue with a manifest rewritten to match (without the key) is refused the same way', async () => {
    await runtime().load(join(build, 'rt-echo.wasm'));
    const directory = await entryDirectory();
    await plantPayload(directory);
    const manifestFile = join(directory, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { files: Record<string, string> };
    const { createHash } = await import('node:crypto');
    manifest.files['tool.mjs'] = createHash('sha256').update(await readFile(join(directory, 'tool.mjs'))).digest('hex');
    await writeFile(manifestFile, JSON.stringify(manifest));
    const again = runtime();
    const component = await again.load(join(build, 'rt-echo.wasm'));
    expect(component.transpiled).toBe(true);
    await again.run(component, { args: ['rt-echo', 'hi'], policy: resolvePolicy({}, work) });
    expect(existsSync(marker)).toBe(false);
  });

  it('a glue swapped after the entry was read is refused at import, in-process and in a worker', async () => {
    for (const where of ['in-process', 'worker'] as const) {
      await rm(cache, { recursive: true, force: true });
      const fresh = runtime();
      const component = await fresh.load(join(build, 'rt-echo.wasm'));
      await plantPayload(component.cacheEntry);
      const options = { args: ['rt-echo', 'hi'], policy: resolvePolicy({}, work) };
      const outcome = await (where === 'worker' ? fresh.run(component, options) : fresh.runInProcess(component, options)).catch((error: unknown) => error);
      expect(JSON.stringify(outcome, (_key, value: unknown) => (value instanceof Error ? value.message : value))).toMatch(/changed after it was cached/);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('a core module replaced on disk is a cache miss with a warning, and what runs is the real tool', async () => {
    const first = await runtime().load(join(build, 'rt-echo.wasm'));
    const other = await runtime().load(join(build, 'hello.wasm'));
    await writeFile(join(first.cacheEntry, first.coreModules[0] as string), await readFile(join(other.cacheEntry, other.coreModules[0] as string)));
    const again = runtime();
    const component = await again.load(join(build, 'rt-echo.wasm'));
    expect(component.transpiled).toBe(true);
    expect(warnings.some((warning) => (warning as { code?: string }).code === 'TOOLHOST_CACHE_TAMPERED')).toBe(true);
    const outcome = await again.run(component, { args: ['rt-echo', 'hi'], policy: resolvePolicy({}, work) });
    expect(decode(outcome.stdout)).toContain('hi');
  });
});
