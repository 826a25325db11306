/**
 * Runs agent-written JavaScript in QuickJS compiled to WebAssembly (quickjs-emscripten), not in Node's
 * `vm`: the code sees only the globals QuickJS defines plus `tools` and `console`, and cannot reach
 * Node, the file system or the network except through `tools.<name>(args)`, which the host answers.
 *
 * Each run gets a fresh WebAssembly instance of the engine (a few milliseconds): a run that exhausts
 * its memory or is interrupted cannot leave state or a grown heap behind for the next one, and the
 * instance's memory is freed with it. The synchronous build is used with promise pumping
 * (`executePendingJobs`) rather than the asyncify build, so several `tools.x()` calls can be in flight
 * at once (`Promise.all`). Guest code runs on the host's thread between awaits; the interrupt handler
 * stops it at the deadline.
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type CustomizeVariantOptions,
  type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle } from 'quickjs-emscripten';
import { BoundedConsole } from './quickjs-console.ts';

export interface SandboxLimits {
  /** Epoch milliseconds at which the run is stopped, awaiting or computing. */
  deadline: number;
  /**
   * Longest stretch of computing between two awaits, milliseconds. Guest code runs on the host's
   * thread, where nothing else (other calls, HTTP requests, cancellation) runs meanwhile, so a busy
   * loop is stopped after this rather than at the deadline.
   */
  sliceMs: number;
  /** QuickJS heap limit for the run, bytes. */
  memoryBytes: number;
  /** QuickJS stack limit, bytes (deep recursion becomes a RangeError rather than a crash). */
  stackBytes: number;
  /** Most characters of console output kept. */
  consoleChars: number;
  /** Most `tools.x()` calls one run may make. */
  maxToolCalls: number;
}

/** What the sandbox asks of its host. */
export interface SandboxHost {
  /** Names `tools` offers (others are a clear TypeError inside the code). */
  toolNames: readonly string[];
  /** Answers `await tools.<name>(args)`: the value is the tool's ToolResult, passed into the code as JSON. */
  callTool(name: string, args: unknown): Promise<unknown>;
  /** Aborted when the call is cancelled: the run stops. */
  signal: AbortSignal;
}

export type SandboxFailure = 'syntax' | 'exception' | 'timeout' | 'cancelled' | 'memory' | 'never_settles';

export type SandboxOutcome = { console: { text: string; truncated: boolean }; toolCalls: number } & (
  | { ok: true; /** The returned value, serialised as JSON inside the sandbox. */ json: string }
  | { ok: false; failure: SandboxFailure; message: string }
);

/** Start-up size of the engine's linear memory (its module declares 256 pages, 16 MiB). */
const ENGINE_INITIAL_PAGES = 256;
const WASM_PAGE_BYTES = 64 * 1024;
/** Within this of its maximum, the engine's memory counts as exhausted. */
const MEMORY_FULL_SLACK_BYTES = 1024 * 1024;
/** `WebAssembly.Memory`: the project's libs (ES2023, Node types) declare no WebAssembly namespace. */
const LinearMemory = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer } } }).WebAssembly.Memory;

/** The code is the body of an async function, so top-level `await` and `return` work. */
const SOURCE_NAME = 'run_code.js';
/** Frames of a guest stack shown in an error (deep recursion would otherwise fill the result). */
const MAX_STACK_FRAMES = 8;

/**
 * Installs `tools` and `console` from the two host functions, then removes those from the global
 * object so the code cannot call them with forged arguments.
 */
const PRELUDE = String.raw`
(function (call, print, names) {
  const known = new Set(names);
  const target = Object.create(null);
  for (const name of names) {
    target[name] = (args) => call(name, JSON.stringify(args === undefined ? {} : args)).then((json) => JSON.parse(json));
  }
  globalThis.tools = new Proxy(Object.freeze(target), {
    get(object, key) {
      if (typeof key !== 'string' || known.has(key) || key === 'then' || key === 'toJSON') return object[key];
      throw new TypeError('No tool named "' + key + '" is available here; the tools are: ' + names.join(', '));
    },
  });
  const show = (value) => {
    if (typeof value === 'string') return value;
    try { const json = JSON.stringify(value); return json === undefined ? String(value) : json; } catch { return String(value); }
  };
  const consoleObject = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    consoleObject[level] = (...values) => { print(level, values.map(show).join(' ')); };
  }
  globalThis.console = Object.freeze(consoleObject);
})(globalThis.__toolhost_call, globalThis.__toolhost_print, JSON.parse(globalThis.__toolhost_names));
delete globalThis.__toolhost_call;
delete globalThis.__toolhost_print;
delete globalThis.__toolhost_names;
`;

/** Wraps the code so its returned value arrives as a JSON string, with a clear error when it cannot be one. */
function wrap(code: string): string {
  return (
    `(async () => {${code}\n})().then((value) => {\n` +
    `  let json;\n` +
    `  try { json = JSON.stringify(value); } catch (error) { throw new TypeError('the returned value cannot be serialised as JSON: ' + (error && error.message)); }\n` +
    `  return json === undefined ? 'null' : json;\n` +
    `})`
  );
}

/** `Name: message` and the guest stack of an error value from inside the sandbox. */
function describeError(context: QuickJSContext, handle: QuickJSHandle): string {
  const dumped: unknown = context.dump(handle);
  if (typeof dumped === 'object' && dumped !== null) {
    const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    const head = `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : JSON.stringify(dumped)}`;
    const frames = typeof stack === 'string' ? stack.split('\n').filter((line) => line.includes(SOURCE_NAME)).slice(0, MAX_STACK_FRAMES).map((line) => line.trim()) : [];
    return frames.length > 0 ? `${head}\n${frames.join('\n')}` : head;
  }
  return `Uncaught: ${typeof dumped === 'string' ? dumped : JSON.stringify(dumped)}`;
}

function isTimeout(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

function classify(message: string): SandboxFailure {
  return /out of memory|\bOOM\b|Cannot enlarge memory/i.test(message) ? 'memory' : 'exception';
}

/**
 * Gives the guest its links to the host, then runs the prelude that builds `tools` and `console` on
 * them: `__toolhost_call` (a tool call, answered through a guest promise; counted with `countCall`
 * and refused past limits.maxToolCalls), `__toolhost_print` (console output) and `__toolhost_names`.
 * Throws when the prelude fails (the engine is then unusable for this run).
 */
function installHostBindings(
  context: QuickJSContext,
  host: SandboxHost,
  limits: SandboxLimits,
  printed: BoundedConsole,
  unsettled: Set<QuickJSDeferredPromise>,
  inFlight: Set<Promise<void>>,
  countCall: () => number,
): void {
  context
    .newFunction('__toolhost_call', (nameHandle, argsHandle) => {
      const name = context.getString(nameHandle);
      const argsJson = context.getString(argsHandle);
      const deferred = context.newPromise();
      if (countCall() > limits.maxToolCalls) {
        context.newError({ name: 'RangeError', message: `More than ${limits.maxToolCalls} tool calls in one run; do fewer per run.` }).consume((error) => deferred.reject(error));
        return deferred.handle;
      }
      unsettled.add(deferred);
      const settle = (json: string): void => {
        unsettled.delete(deferred);
        if (!context.alive || !deferred.alive) return;
        context.newString(json).consume((value) => deferred.resolve(value));
      };
      const call = Promise.resolve()
        .then(() => host.callTool(name, JSON.parse(argsJson) as unknown))
        .then(
          (result) => settle(JSON.stringify(result)),
          (error: unknown) => settle(JSON.stringify({ content: `The host failed to run ${name}: ${error instanceof Error ? error.message : String(error)}`, is_error: true })),
        );
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
      return deferred.handle;
    })
    .consume((fn) => context.setProp(context.global, '__toolhost_call', fn));
  context
    .newFunction('__toolhost_print', (levelHandle, textHandle) => {
      printed.write(context.getString(levelHandle), context.getString(textHandle));
    })
    .consume((fn) => context.setProp(context.global, '__toolhost_print', fn));
  context.newString(JSON.stringify(host.toolNames)).consume((names) => context.setProp(context.global, '__toolhost_names', names));
  const prelude = context.evalCode(PRELUDE, 'prelude.js');
  if (prelude.error) {
    const message = describeError(context, prelude.error);
    prelude.error.dispose();
    throw new Error(`run_code prelude failed: ${message}`);
  }
  prelude.value.dispose();
}

/** Runs `code` to completion, failure or the deadline; never throws for anything the code does. */
export async function runInSandbox(code: string, host: SandboxHost, limits: SandboxLimits): Promise<SandboxOutcome> {
  const printed = new BoundedConsole(limits.consoleChars);
  let toolCalls = 0;
  let stopped: 'timeout' | 'cancelled' | 'slice' | undefined;
  /** When the current stretch of guest computing began (reset whenever the pump resumes the guest). */
  let sliceStarted = Date.now();
  const outcome = (rest: { ok: true; json: string } | { ok: false; failure: SandboxFailure; message: string }): SandboxOutcome => ({
    ...rest,
    console: printed.snapshot(),
    toolCalls,
  });

  // QuickJS's own malloc limit misses most large allocations in this build (measured: 200 MB of strings
  // under a 64 MiB limit), so it is only a first line; the bound is the WebAssembly memory itself: the engine gets a linear
  // memory that cannot grow past its start-up size plus the limit, and an allocation beyond it fails
  // inside the engine as "out of memory", without the host's process ever holding more.
  const maximumPages = ENGINE_INITIAL_PAGES + Math.ceil(limits.memoryBytes / WASM_PAGE_BYTES);
  const memory = new LinearMemory({ initial: ENGINE_INITIAL_PAGES, maximum: maximumPages });
  /** Out of memory can leave no room even for the error object (the code then throws `null`): the full memory says why. */
  const failureOf = (message: string): SandboxFailure =>
    classify(message) === 'memory' || memory.buffer.byteLength + MEMORY_FULL_SLACK_BYTES >= maximumPages * WASM_PAGE_BYTES ? 'memory' : 'exception';
  const engine = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory as CustomizeVariantOptions['wasmMemory'] }));
  const runtime = engine.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const checkLimits = (): boolean => {
    const now = Date.now();
    // The call's signal also aborts at its deadline (a TimeoutError reason): that is a timeout, not a cancellation.
    if (host.signal.aborted) stopped = now >= limits.deadline || isTimeout(host.signal.reason) ? 'timeout' : 'cancelled';
    else if (now >= limits.deadline) stopped = 'timeout';
    else if (now - sliceStarted > limits.sliceMs) stopped = 'slice';
    return stopped !== undefined;
  };
  runtime.setInterruptHandler(checkLimits);
  const context = runtime.newContext();
  /** Guest promises of host calls not yet settled: freed before the context, which refuses to close over live handles. */
  const unsettled = new Set<QuickJSDeferredPromise>();
  /** Host calls in flight: the pump waits on them when the guest has nothing else to run. */
  const inFlight = new Set<Promise<void>>();
  let resultHandle: QuickJSHandle | undefined;
  let broken = false;
  let stopTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;

  const stoppedOutcome = (): SandboxOutcome => {
    if (stopped === 'cancelled') return outcome({ ok: false, failure: 'cancelled', message: 'The run was cancelled.' });
    if (stopped === 'slice') {
      return outcome({
        ok: false,
        failure: 'timeout',
        message: `The code computed for more than ${limits.sliceMs} ms without awaiting a tool call (an endless or very long loop?); it was stopped.`,
      });
    }
    return outcome({ ok: false, failure: 'timeout', message: `The code did not finish before its deadline (${new Date(limits.deadline).toISOString()}); it was stopped.` });
  };

  try {
    installHostBindings(context, host, limits, printed, unsettled, inFlight, () => (toolCalls += 1));

    sliceStarted = Date.now();
    const evaluated = context.evalCode(wrap(code), SOURCE_NAME);
    if (evaluated.error) {
      const message = describeError(context, evaluated.error);
      evaluated.error.dispose();
      if (stopped) return stoppedOutcome();
      return outcome({ ok: false, failure: message.startsWith('SyntaxError') ? 'syntax' : failureOf(message), message });
    }
    resultHandle = evaluated.value;

    // The pump's wake-ups besides a host call settling: the deadline and cancellation.
    const stop = new Promise<void>((resolve) => {
      stopTimer = setTimeout(resolve, Math.max(0, limits.deadline - Date.now()));
      onAbort = () => resolve();
      host.signal.addEventListener('abort', onAbort, { once: true });
    });
    for (;;) {
      sliceStarted = Date.now();
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const message = describeError(context, jobs.error);
        jobs.error.dispose();
        if (stopped) return stoppedOutcome();
        return outcome({ ok: false, failure: failureOf(message), message });
      }
      if (stopped) return stoppedOutcome();
      const state = context.getPromiseState(resultHandle);
      if (state.type === 'fulfilled') {
        const json = context.getString(state.value);
        state.value.dispose();
        return outcome({ ok: true, json });
      }
      if (state.type === 'rejected') {
        const message = describeError(context, state.error);
        state.error.dispose();
        return outcome({ ok: false, failure: failureOf(message), message });
      }
      if (runtime.hasPendingJob()) continue;
      if (checkLimits()) return stoppedOutcome();
      if (unsettled.size === 0) {
        return outcome({
          ok: false,
          failure: 'never_settles',
          message: 'The code awaits a promise that nothing will settle (only tools.<name>() calls are answered; there are no timers or I/O).',
        });
      }
      await Promise.race([stop, ...inFlight]);
    }
  } catch (error) {
    // The engine itself gave up (Node's stack ran out inside the wasm): this instance is unusable.
    broken = true;
    const message = `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`;
    return outcome({ ok: false, failure: failureOf(message), message });
  } finally {
    clearTimeout(stopTimer);
    if (onAbort) host.signal.removeEventListener('abort', onAbort);
    // A stopped or broken run may leave the engine holding objects it would assert on while freeing;
    // its whole instance is dropped instead (it belongs to this run alone), and the GC reclaims it.
    if (!stopped && !broken) {
      try {
        resultHandle?.dispose();
        for (const deferred of unsettled) deferred.dispose();
        context.dispose();
        runtime.dispose();
      } catch {
        // Same: nothing outlives the instance.
      }
    }
  }
}
