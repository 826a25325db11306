/**
 * How long verifying a tool's signature takes, against the real cosign CLI in the same run: a 3 MB
 * component (plus policy and tool sidecars) pushed to a docker-registry on loopback and signed by
 * `cosign sign --key`; then `verifyTool` (in-process, key-based) and `cosign verify --key` (a process
 * per check, so its start-up is in its numbers) check it. Prints median and p90 of each.
 *
 * Run: `node --import tsx test/bench/trust-verify.ts` (needs /usr/bin/docker-registry and cosign in
 * ~/.cache/toolhost-ci/go-bin, as .ci/run installs them).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { verifyTool } from '../../src/distribution/trust/index.ts';
import { startRegistry } from '../distribution/registry-server.ts';
import { httpRegistryClient, pushToolArtifact } from '../distribution/trust/test-registry-client.ts';

const run = promisify(execFile);
const COSIGN = process.env['TOOLHOST_COSIGN'] ?? join(homedir(), '.cache', 'toolhost-ci', 'go-bin', 'cosign');

const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? Number.NaN;

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-trust-bench-'));
  const registry = await startRegistry();
  const env = { PATH: process.env['PATH'] ?? '', HOME: folder, TUF_ROOT: join(folder, 'tuf'), COSIGN_PASSWORD: 'bench' };
  try {
    const client = httpRegistryClient();
    const ref = { registry: registry.host, repository: 'tools/bench' };
    const digest = await pushToolArtifact(client, ref, { wasm: randomBytes(3 * 1024 * 1024), policy: '{"fs":[]}', tool: '{"description":"bench"}' });
    await run(COSIGN, ['generate-key-pair', '--output-key-prefix', 'bench'], { cwd: folder, env });
    const name = `${ref.registry}/${ref.repository}@${digest}`;
    await run(COSIGN, ['sign', '--yes', '--key', 'bench.key', '--tlog-upload=false', '--allow-http-registry', name], { cwd: folder, env });
    const key = join(folder, 'bench.pub');

    const ours: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const start = performance.now();
      const result = await verifyTool(client, ref, digest, { key });
      ours.push(performance.now() - start);
      if (!result.ok) throw new Error(result.message);
    }
    const theirs: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const start = performance.now();
      await run(COSIGN, ['verify', '--key', 'bench.pub', '--insecure-ignore-tlog=true', '--allow-http-registry', name], { cwd: folder, env });
      theirs.push(performance.now() - start);
    }
    console.log('| path | runs | median ms | p90 ms |');
    console.log('| --- | --- | --- | --- |');
    console.log(`| toolhost verifyTool (in-process, key) | ${ours.length} | ${quantile(ours, 0.5).toFixed(1)} | ${quantile(ours, 0.9).toFixed(1)} |`);
    console.log(`| cosign verify --key (process) | ${theirs.length} | ${quantile(theirs, 0.5).toFixed(1)} | ${quantile(theirs, 0.9).toFixed(1)} |`);
  } finally {
    await registry.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
