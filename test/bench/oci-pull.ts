/**
 * Pull + verify time of a 3 MB component (go-greet, a wasip1 Go command module of 3.2 MB) from a real
 * registry on loopback (Debian's docker-registry), against oras pulling the same artifact in the same
 * run (prints a markdown table, asserts nothing):
 * - `pull+verify (library)`: manifest, digest checks, layer fetch and sha256 check, no cache, in process;
 * - `toolhost add (CLI)`: the whole command through the shipped entry (node start-up, pull, verify,
 *   policy check, atomic install, lockfile), fresh cache and folder each run;
 * - `oras pull (peer)`: the reference Go client fetching the same layers to a folder.
 *
 *   node --import tsx test/bench/oci-pull.ts       (OCI_PULL_RUNS, default 9; build dist first)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistryClient } from '../../src/distribution/oci/client.ts';
import { pullOciTool } from '../../src/distribution/pull.ts';
import { cliCommand, PROJECT_ROOT, cliEnvironment } from '../cli/run-cli.ts';
import { startRegistry } from '../distribution/registry-server.ts';

const runs = Number(process.env['OCI_PULL_RUNS'] ?? 9);
const oras = process.env['TOOLHOST_TEST_ORAS'] ?? join(homedir(), '.cache', 'toolhost-ci', 'go-bin', 'oras');
const registry = await startRegistry();
const work = mkdtempSync(join(tmpdir(), 'toolhost-oci-bench-'));
try {
  copyFileSync(join(PROJECT_ROOT, 'test/fixtures/build/go-greet.core.wasm'), join(work, 'greet.wasm'));
  const [node, prefix] = cliCommand('dist');
  const ref = `oci://${registry.host}/bench/greet:1`;
  const pushed = spawnSync(node, [...prefix, 'push', 'greet.wasm', ref], { cwd: work, env: cliEnvironment(), encoding: 'utf8' });
  if (pushed.status !== 0) throw new Error(pushed.stderr);

  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const time = async (body: () => Promise<void> | void): Promise<number[]> => {
    await body(); // warm-up, untimed
    const samples: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await body();
      samples.push(performance.now() - started);
    }
    return samples;
  };
  const rows: [string, number[]][] = [];
  rows.push([
    'pull+verify (library)',
    await time(async () => {
      await pullOciTool({ registry: registry.host, repository: 'bench/greet', tag: '1' }, { client: createRegistryClient(), verify: { allowUnsigned: true } });
    }),
  ]);
  let counter = 0;
  rows.push([
    'toolhost add (CLI, dist)',
    await time(() => {
      const dir = join(work, `add-${counter++}`);
      const result = spawnSync(node, [...prefix, 'add', ref, '--insecure-allow-unsigned', '--extensions', join(dir, 'ext'), '--lock', join(work, `lock-${counter}`), '--cache-dir', join(dir, 'cache')], { cwd: work, env: cliEnvironment(), encoding: 'utf8' });
      if (result.status !== 0) throw new Error(result.stderr);
    }),
  ]);
  rows.push([
    'oras pull (peer)',
    await time(() => {
      const out = join(work, `oras-${counter++}`);
      const result = spawnSync(oras, ['pull', '--plain-http', `${registry.host}/bench/greet:1`, '-o', out], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(result.stderr);
    }),
  ]);
  console.log(`3.2 MB component (go-greet.core.wasm), docker-registry on loopback, ${runs} runs, load ${loadavg()[0]!.toFixed(2)}\n`);
  console.log('| what | median ms | min | max |\n| --- | --- | --- | --- |');
  for (const [label, samples] of rows) console.log(`| ${label} | ${median(samples).toFixed(1)} | ${Math.min(...samples).toFixed(1)} | ${Math.max(...samples).toFixed(1)} |`);
} finally {
  await registry.stop();
  rmSync(work, { recursive: true, force: true });
}
