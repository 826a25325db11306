// Times one-process-per-call peers from a small, fresh node process: spawning from the bench's own
// process would charge every call for forking a big heap (the runtime rows load the wasm runtime
// and a worker pool) and for the event loop's pipe and exit bookkeeping (an async spawn of the
// native binary measured ~6 ms p50 against ~1.5 ms for spawnSync here). spawnSync, stdout captured
// and checked, stdin closed.
// Usage: node spawn-series-child.mjs '<json: {command, args, cwd?, env?, expect, warmup, calls, maxSeconds}>'
// Prints one JSON line: {"times_ms": [...], "seconds": n, "stdout": "<first call's stdout>"}.
import { spawnSync } from 'node:child_process';

const spec = JSON.parse(process.argv[2]);
let first;
const call = () => {
  const result = spawnSync(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 20 });
  if (result.error) throw result.error;
  if (result.status !== 0 || !result.stdout.includes(spec.expect)) {
    throw new Error(`${spec.command} ${spec.args.join(' ')} exited ${result.status ?? result.signal}; stdout ${JSON.stringify(result.stdout.slice(0, 200))}; stderr ${JSON.stringify(result.stderr.slice(0, 400))}`);
  }
  first ??= result.stdout;
};
for (let index = 0; index < spec.warmup; index += 1) call();
const times = [];
const started = performance.now();
const deadline = started + spec.maxSeconds * 1000;
while (times.length < spec.calls && (times.length < 3 || performance.now() < deadline)) {
  const begin = performance.now();
  call();
  times.push(performance.now() - begin);
}
console.log(JSON.stringify({ times_ms: times, seconds: (performance.now() - started) / 1000, stdout: first ?? '' }));
