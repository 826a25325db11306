import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  WASM_ENGINE_FEATURES,
  enableWasmFeature,
  isWasmFeatureSupported,
  type WasmEngineFeature,
} from '../../src/wasm/engine-features.ts';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const MODULE_URL = new URL('../../src/wasm/engine-features.ts', import.meta.url).href;

/**
 * Runs in a fresh process, since V8 flags are process-wide and cannot be unset: records what the engine
 * supports before, switches the features on, then compiles the probe in the main thread, and in a worker
 * both compiles it and instantiates the module the main thread compiled.
 */
const SCRIPT = `
import { Worker } from 'node:worker_threads';
import { WASM_ENGINE_FEATURES, enableWasmEngineFeatures, isWasmFeatureSupported } from ${JSON.stringify(MODULE_URL)};
const before = WASM_ENGINE_FEATURES.map(isWasmFeatureSupported);
const report = enableWasmEngineFeatures();
const same = enableWasmEngineFeatures() === report;
const outcome = (promise) => promise.then(() => 'ok', (error) => error.message);
const WORKER = \`
  import { parentPort, workerData } from 'node:worker_threads';
  const outcome = (promise) => promise.then(() => 'ok', (error) => error.message);
  const compile = await outcome(WebAssembly.compile(workerData.probe));
  const instantiate = await outcome(WebAssembly.instantiate(workerData.module));
  parentPort.postMessage({ compile, instantiate });
\`;
const results = [];
for (const { probe } of WASM_ENGINE_FEATURES) {
  const main = await outcome(WebAssembly.compile(probe));
  const module = await WebAssembly.compile(probe).catch(() => undefined);
  const worker = await new Promise((resolve, reject) => {
    const thread = new Worker(new URL('data:text/javascript,' + encodeURIComponent(WORKER)), { workerData: { probe, module } });
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  results.push({ main, worker });
}
console.log(JSON.stringify({ before, report, same, results }));
`;

describe('wasm engine features', () => {
  it('every feature is usable in the main thread and in workers after one call, with no V8 complaint', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const flagged = NODE_MAJOR < 22; // extended-const is on by default from Node 22 (V8 11.4+)
    expect(JSON.parse(run.stdout)).toEqual({
      before: [!flagged],
      report: [{ feature: 'extended-const', status: flagged ? 'enabled' : 'native' }],
      same: true,
      results: [{ main: 'ok', worker: { compile: 'ok', instantiate: 'ok' } }],
    });
  }, 60_000);

  it('sets no flag for a feature the engine already has', () => {
    const native: WasmEngineFeature = {
      name: 'mvp',
      v8Flag: '--never-set',
      probe: new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    };
    const set: string[] = [];
    expect(isWasmFeatureSupported(native)).toBe(true);
    expect(enableWasmFeature(native, (flags) => set.push(flags))).toBe('native');
    expect(set).toEqual([]);
  });

  it('reports a feature the engine lacks even with its flag as unavailable', () => {
    // Opcode 0xff is no instruction in any proposal: this module never validates.
    const missing: WasmEngineFeature = {
      name: 'none',
      v8Flag: '--experimental-wasm-none',
      probe: new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x06, 0x06, 0x01, 0x7f, 0x00, 0xff, 0x00, 0x0b]),
    };
    const set: string[] = [];
    expect(enableWasmFeature(missing, (flags) => set.push(flags))).toBe('unavailable');
    expect(set).toEqual(['--experimental-wasm-none']);
  });
});
