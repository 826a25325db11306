// node:wasi (preview1) on rt-echo's core module, run in its own process by node-wasi.ts because
// node:wasi has crashed this machine's Node 20 after ~2,000 calls in one process: a crash costs the
// row, not the table. A fresh WASI + instance per call, the module compiled once; stdout goes to a
// file whose content is checked at the end.
// Usage: node node-wasi-child.mjs <core.wasm> <calls> <warmup> <maxSeconds> <stdout file>
// Prints one JSON line: {"times_ms": [...], "seconds": n, "stdout": "..."}.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const [file, calls, warmup, maxSeconds, outFile] = process.argv.slice(2);
const module = new WebAssembly.Module(readFileSync(file));
const out = openSync(outFile, 'w');
const call = () => {
  const wasi = new WASI({ version: 'preview1', args: ['rt-echo'], env: {}, stdout: out, returnOnExit: true });
  const instance = new WebAssembly.Instance(module, wasi.getImportObject());
  const code = wasi.start(instance);
  if (code !== 0) throw new Error(`exit ${code}`);
};
for (let index = 0; index < Number(warmup); index += 1) call();
const times = [];
const started = performance.now();
const deadline = started + Number(maxSeconds) * 1000;
while (times.length < Number(calls) && (times.length < 3 || performance.now() < deadline)) {
  const begin = performance.now();
  call();
  times.push(performance.now() - begin);
}
const seconds = (performance.now() - started) / 1000;
closeSync(out);
console.log(JSON.stringify({ times_ms: times, seconds, stdout: readFileSync(outFile, 'utf8').split('\n')[0] }));
