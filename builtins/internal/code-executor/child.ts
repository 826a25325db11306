/**
 * The entry of a `run_code` executor process (forked by executor.ts): loads the QuickJS engine, says
 * `ready`, then runs one program per `run` message in the sandbox (quickjs-sandbox.ts) and answers
 * with `done`. Each `tools.<name>()` the program awaits becomes a `tool_call` to the daemon, which runs
 * it through its own call path and sends back `tool_result`; nothing here can reach a tool otherwise.
 *
 * This process holds no secrets (the daemon starts it with an empty environment, in a neutral
 * directory) and is expendable: the daemon kills it at a run's deadline, on cancellation, past its
 * memory bound, and when it closes. It dies with the daemon in every case: on the IPC channel closing
 * and, since a busy main thread would not see that until its native work ends, from a watchdog thread
 * that kills the process as soon as its parent is gone (the parent pid changes).
 */
import { Worker } from 'node:worker_threads';
import { runInSandbox, type SandboxHost } from '../quickjs-sandbox.ts';
import { isDaemonMessage, type ExecutorMessage, type RunMessage } from './protocol.ts';

/** Limits of the warm-up run (it only returns 1). */
const WARM_UP_LIMITS = { deadline: Number.MAX_SAFE_INTEGER, memoryBytes: 16 << 20, stackBytes: 256 << 10, consoleChars: 0, maxToolCalls: 0 };

/** How often the watchdog looks for its parent. */
const WATCHDOG_INTERVAL_MS = 100;

/** Runs on its own thread, so it fires even while the main thread is inside the engine's native work. */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
setInterval(() => { if (process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL'); }, workerData.intervalMs);
`;

function startWatchdog(): void {
  const watchdog = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { parent: process.ppid, intervalMs: WATCHDOG_INTERVAL_MS },
    execArgv: [],
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  watchdog.unref();
}

function send(message: ExecutorMessage): void {
  // A closed channel means the daemon is gone; the disconnect handler exits.
  process.send?.(message, undefined, {}, () => undefined);
}

/** Answers of the current run's tool calls, by call number. */
let pendingCalls = new Map<number, (json: string) => void>();
let currentRun: number | undefined;

async function execute(message: RunMessage): Promise<void> {
  const calls = new Map<number, (json: string) => void>();
  pendingCalls = calls;
  currentRun = message.run;
  let nextCall = 0;
  let reportedCut = false;
  const host: SandboxHost = {
    toolNames: message.toolNames,
    // Cancellation is the daemon killing this process; nothing aborts from inside.
    signal: new AbortController().signal,
    callTool: (name, argsJson) =>
      new Promise<string>((resolve) => {
        const call = nextCall++;
        calls.set(call, resolve);
        send({ type: 'tool_call', run: message.run, call, name, argsJson });
      }),
    onConsole: (line, truncated) => {
      if (line === undefined && (!truncated || reportedCut)) return;
      reportedCut ||= truncated;
      send({ type: 'console', run: message.run, line: line ?? null, truncated });
    },
  };
  const outcome = await runInSandbox(message.code, host, message.limits);
  currentRun = undefined;
  const ending = outcome.ok ? { ok: true as const, json: outcome.json } : { ok: false as const, failure: outcome.failure, message: outcome.message };
  send({ type: 'done', run: message.run, toolCalls: outcome.toolCalls, ending });
}

process.on('disconnect', () => process.exit(0));
process.on('message', (raw: unknown) => {
  if (!isDaemonMessage(raw)) return;
  if (raw.type === 'run') {
    if (currentRun === undefined) void execute(raw);
    return;
  }
  if (raw.run !== currentRun) return;
  const resolve = pendingCalls.get(raw.call);
  pendingCalls.delete(raw.call);
  resolve?.(raw.json);
});

startWatchdog();
// One run before `ready` loads and compiles the engine and warms its glue, so a warm executor's first
// run costs what its later ones do (measured: ~140 ms first run, ~20 ms later, without this).
await runInSandbox('return 1', { toolNames: [], callTool: async () => '{}', signal: new AbortController().signal }, WARM_UP_LIMITS);
send({ type: 'ready' });
