/**
 * CPU profile of the daemon's HTTP or MCP call path under load (prints the top self-time entries,
 * asserts nothing): starts `node --cpu-prof dist/src/cli/bin.js serve` with rt-echo, warms up, drives
 * PROFILE_CONNECTIONS callers (default 16 for HTTP keep-alive connections, 1 for MCP sessions of the
 * SDK client over Streamable HTTP) for PROFILE_SECONDS (default 15), stops the daemon with SIGTERM so
 * V8 writes its profiles (main thread and workers), and ranks each profile's functions by self time.
 * The profiles also cover start-up and warm-up (well under a second of CPU). The calling side (this
 * process) is profiled too when it runs under `node --cpu-prof` itself.
 *
 *   npm run fixtures && npm run build && node --import tsx test/bench/profile-http.ts
 *
 * Env: PROFILE_DOOR (http, the default, or mcp), PROFILE_SECONDS, PROFILE_CONNECTIONS, PROFILE_TOP (rows per profile, default 10),
 * PROFILE_KEEP=1 (keep the .cpuprofile files and print their folder; open them in Chrome DevTools).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeConcurrent } from './bench-table.ts';
import { renderTop, summarizeProfile } from './cpu-profile-top.ts';
import { benchContext, DIST_BIN, EXPECTED_STDOUT, extensionsFolder, PROJECT_ROOT } from './peers/context.ts';
import { timeSpawns } from './peers/spawn.ts';
import { httpCaller, mcpCaller, startDaemon, stopDaemon } from './peers/toolhost-daemon.ts';

const seconds = Number(process.env['PROFILE_SECONDS'] ?? 15);
const door = process.env['PROFILE_DOOR'] === 'mcp' ? 'mcp' : 'http';
const connections = Number(process.env['PROFILE_CONNECTIONS'] ?? (door === 'mcp' ? 1 : 16));
const top = Number(process.env['PROFILE_TOP'] ?? 10);
const scratch = mkdtempSync(join(tmpdir(), 'toolhost-profile-'));
const profileDir = join(scratch, 'profiles');
const context = benchContext(scratch);

// A one-shot call first fills the transpile cache, so the profile holds no transpilation (jco's
// transpiler is itself wasm and would otherwise show up as seconds of wasm on the main thread).
await timeSpawns({ command: process.execPath, args: [DIST_BIN, 'call', 'rt-echo', '{}', '--extensions', extensionsFolder(context), '--workspace', scratch, '--cache-dir', join(scratch, 'cli-cache')], cwd: scratch, expect: EXPECTED_STDOUT }, { warmup: 0, calls: 1, maxSeconds: 60 });
const daemon = await startDaemon(context, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
let calls = 0;
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const sessions = door === 'mcp' ? await Promise.all(Array.from({ length: connections }, () => mcpCaller(daemon.url))) : [];
try {
  // Each MCP caller is one session used one call at a time; HTTP callers share the keep-alive agent.
  let next = 0;
  const call = door === 'mcp' ? () => sessions[next++ % sessions.length]!.call() : httpCaller(daemon.url, agent);
  const timings = await timeConcurrent(call, connections, { warmup: 500, calls: Number.MAX_SAFE_INTEGER, maxSeconds: seconds });
  calls = timings.times.length + 500;
  console.log(`${timings.times.length} ${door.toUpperCase()} calls in ${timings.seconds.toFixed(1)} s over ${connections} ${door === 'mcp' ? 'sessions' : 'connections'}: ${(timings.times.length / timings.seconds).toFixed(0)} calls/s\n`);
} finally {
  await Promise.all(sessions.map((session) => session.close()));
  agent.destroy();
  await stopDaemon(daemon);
}

const files = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(profileDir, name))
  .sort((a, b) => statSync(b).size - statSync(a).size);
for (const file of files) {
  const summary = summarizeProfile(file, PROJECT_ROOT);
  if (summary.busyMs < 200) continue;
  // Node names profiles CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the main thread.
  const thread = file.split('.').at(-3);
  console.log(`thread ${thread === '0' ? '0 (main)' : `${thread} (worker)`}: busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms`);
  console.log(`${renderTop(summary, top, calls)}\n`);
}
if (process.env['PROFILE_KEEP'] === '1') console.log(`profiles kept in ${profileDir}`);
else rmSync(scratch, { recursive: true, force: true });
