/**
 * What `provenance` costs per `GET /v1/tools/{name}/inspect`: the daemon's path (the digest its load
 * computed, the lockfile re-read only when its stat changes: src/distribution/lockfile-cache.ts)
 * next to its peer, hashing the component again per request (provenanceOf, what the one-shot
 * `toolhost inspect` does), on the largest component fixture. Best of BENCH_RUNS (3).
 * Run: node --import tsx test/bench/provenance.ts
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLockfileCache } from '../../src/distribution/lockfile-cache.ts';
import { writeLockfile } from '../../src/distribution/lockfile.ts';
import { provenanceFromLock, provenanceOf } from '../../src/distribution/provenance.ts';
import { PROJECT_ROOT } from '../cli/run-cli.ts';

const runs = Number(process.env['BENCH_RUNS'] ?? 3);
const SOURCE = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'go-yq.core.wasm');

function bestPerCall(calls: number, action: () => unknown): number {
  let fastest = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    for (let call = 0; call < calls; call++) action();
    fastest = Math.min(fastest, (performance.now() - started) / calls);
  }
  return fastest;
}

const directory = mkdtempSync(join(tmpdir(), 'toolhost-provenance-bench-'));
try {
  const file = join(directory, 'yq.wasm');
  copyFileSync(SOURCE, file);
  const hex = createHash('sha256').update(readFileSync(file)).digest('hex');
  const lockPath = join(directory, 'toolhost.lock');
  const digest = `sha256:${hex}`;
  writeLockfile(lockPath, { lockfileVersion: 1, tools: { yq: { reference: 'oci://127.0.0.1:5000/tools/yq:1', digest, signer: null, policy_digest: null, verified_at: new Date().toISOString(), files: { 'yq.wasm': digest } } } });
  const cache = createLockfileCache(lockPath);
  const daemon = bestPerCall(2000, () => provenanceFromLock('yq.wasm', hex, cache.current(), 'toolhost.lock'));
  const rehash = bestPerCall(10, () => provenanceOf(file, lockPath));
  const megabytes = (statSync(file).size / 1e6).toFixed(1);
  console.log(`provenance of a ${megabytes} MB component, per request (best of ${runs})`);
  console.log(`  daemon (load digest + stat-cached lockfile)  ${(daemon * 1000).toFixed(1)} µs`);
  console.log(`  peer: hash the file per request              ${(rehash * 1000).toFixed(1)} µs`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
