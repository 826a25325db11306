/**
 * Runs agent-written JavaScript in QuickJS compiled to WebAssembly (quickjs-emscripten), not in Node's
 * `vm`: the code sees only the globals QuickJS defines plus `tools` and `console`, and cannot reach
 * Node, the file system or the network except through `tools.<name>(args)`, which the host answers.
 *
 * Each run gets a fresh WebAssembly instance of the engine (a few milliseconds): a run that exhausts
 * its memory or is interrupted cannot leave state or a grown heap behind for the next one, and the
 * instance's memory is freed with it. The synchronous build is used with promise pumping
 * (`executePendingJobs`) rather than the asyncify build, so several `tools.x()` calls can be in flight
 * at once (`Promise.all`). The interrupt handler stops the guest at the deadline (and, when a slice is
 * set, after that long computing between awaits).
 *
 * The daemon never runs this module: `run_code` runs it in an executor process
 * (code-executor/child.ts), which the daemon can kill at any moment, even in the middle of native
 * work the interrupt handler cannot reach (a big-integer to text, a long regex match). The engine's
 * package is imported at the first run, so only a process that runs code loads it.
 */
import type { CustomizeVariantOptions, QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import { BoundedConsole } from './quickjs-console.ts';

export interface SandboxLimits {
  /** Epoch milliseconds at which the run is stopped, awaiting or computing. */
  deadline: number;
  /**
   * Longest stretch of computing between two awaits, milliseconds; none when undefined. Only for a
   * caller that runs the sandbox on a thread it needs back (the executor process does not: its thread
   * is its own, and the daemon kills it at the deadline).
   */
  sliceMs?: number;
  /** QuickJS heap limit for the run, bytes. */
  memoryBytes: number;
  /** QuickJS stack limit, bytes (deep recursion becomes a RangeError rather than a crash). */
  stackBytes: number;
  /** Most characters of console output kept. */
  consoleChars: number;
  /** Most `tools.x()` calls one run may make. */
  maxToolCalls: number;
  /**
   * Longest returned JSON, characters: a longer result ends the run as `result_too_large` without the
   * text leaving the engine (so a 60 MB return value never becomes a host string); none when undefined.
   */
  maxResultChars?: number;
  /** Longest JSON arguments of one `tools.x()` call, characters (a longer one is a RangeError in the guest); none when undefined. */
  maxCallArgsChars?: number;
}

/** What the sandbox asks of its host. */
export interface SandboxHost {
  /** Names `tools` offers (others are a clear TypeError inside the code). */
  toolNames: readonly string[];
  /** Answers `await tools.<name>(args)` (the arguments as JSON) with the tool's ToolResult as JSON, which the code receives parsed. */
  callTool(name: string, argsJson: string): Promise<string>;
  /** Aborted when the call is cancelled: the run stops. */
  signal: AbortSignal;
  /** Told each console line the run keeps (see BoundedConsole.write), as it is printed. */
  onConsole?: (line: string | undefined, truncated: boolean) => void;
}

export type SandboxFailure = 'syntax' | 'exception' | 'timeout' | 'cancelled' | 'memory' | 'never_settles' | 'result_too_large';

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

/** `WebAssembly.compile`, typed loosely for the same reason. */
const compileWasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly.compile;
/** The engine's wasm file (the release-sync variant quickjs-emscripten depends on). */
const ENGINE_WASM_SPECIFIER = '@jitl/quickjs-wasmfile-release-sync/wasm';
let engineModule: Promise<object | undefined> | undefined;

/**
 * The engine's compiled module, once per process: each run still gets its own instance and memory,
 * but does not compile the engine again (measured: about a third of a small run). Undefined when the
 * file cannot be found (a different package layout); each run then compiles it, as the package does.
 */
function compiledEngine(): Promise<object | undefined> {
  engineModule ??= (async () => {
    try {
      const { readFile } = await import('node:fs/promises');
      return await compileWasm(await readFile(new URL(import.meta.resolve(ENGINE_WASM_SPECIFIER))));
    } catch {
      return undefined;
    }
  })();
  return engineModule;
}

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
      if (limits.maxCallArgsChars !== undefined && argsJson.length > limits.maxCallArgsChars) {
        const message = `The arguments of tools.${name}() are ${argsJson.length} characters of JSON, more than the ${limits.maxCallArgsChars} allowed in one call.`;
        context.newError({ name: 'RangeError', message }).consume((error) => deferred.reject(error));
        return deferred.handle;
      }
      unsettled.add(deferred);
      const settle = (json: string): void => {
        unsettled.delete(deferred);
        if (!context.alive || !deferred.alive) return;
        context.newString(json).consume((value) => deferred.resolve(value));
      };
      const call = Promise.resolve()
        .then(() => host.callTool(name, argsJson))
        .then(
          (json) => settle(json),
          (error: unknown) => settle(JSON.stringify({ content: `The host failed to run ${name}: ${error instanceof Error ? error.message : String(error)}`, is_error: true })),
        );
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
      return deferred.handle;
    })
    .consume((fn) => context.setProp(context.global, '__toolhost_call', fn));
  context
    .newFunction('__toolhost_print', (levelHandle, textHandle) => {
      const kept = printed.write(context.getString(levelHandle), context.getString(textHandle));
      host.onConsole?.(kept, printed.truncated);
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
  const run = await SandboxRun.start(host, limits);
  try {
    run.installBindings();
    return run.evaluate(code) ?? (await run.pump());
  } catch (error) {
    return run.engineFailed(error);
  } finally {
    run.release();
  }
}

type Ending = { ok: true; json: string } | { ok: false; failure: SandboxFailure; message: string };

/**
 * One run on its own engine instance, in passes: start the engine under the limits, install the host
 * bindings, evaluate the code, pump its promise jobs until its result settles (or it is stopped), and
 * release the instance. The interrupt handler (`checkLimits`) records why a run was stopped.
 */
class SandboxRun {
  private readonly printed: BoundedConsole;
  private toolCalls = 0;
  private stopped: 'timeout' | 'cancelled' | 'slice' | undefined;
  /** When the current stretch of guest computing began (reset whenever the pump resumes the guest). */
  private sliceStarted = Date.now();
  private readonly context: QuickJSContext;
  /** Guest promises of host calls not yet settled: freed before the context, which refuses to close over live handles. */
  private readonly unsettled = new Set<QuickJSDeferredPromise>();
  /** Host calls in flight: the pump waits on them when the guest has nothing else to run. */
  private readonly inFlight = new Set<Promise<void>>();
  private resultHandle: QuickJSHandle | undefined;
  private broken = false;
  private stopTimer: NodeJS.Timeout | undefined;
  private onAbort: (() => void) | undefined;

  // Fields assigned in the constructor rather than parameter properties: the executor runs this module
  // with Node's own type stripping, which handles only erasable syntax.
  private readonly host: SandboxHost;
  private readonly limits: SandboxLimits;
  private readonly memory: { buffer: ArrayBuffer };
  private readonly maximumPages: number;
  private readonly runtime: QuickJSRuntime;

  private constructor(host: SandboxHost, limits: SandboxLimits, memory: { buffer: ArrayBuffer }, maximumPages: number, runtime: QuickJSRuntime) {
    this.host = host;
    this.limits = limits;
    this.memory = memory;
    this.maximumPages = maximumPages;
    this.runtime = runtime;
    this.printed = new BoundedConsole(limits.consoleChars);
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(() => this.checkLimits());
    this.context = runtime.newContext();
  }

  /** A fresh engine instance whose memory cannot grow past the run's limit. */
  static async start(host: SandboxHost, limits: SandboxLimits): Promise<SandboxRun> {
    // QuickJS's own malloc limit misses most large allocations in this build (measured: 200 MB of strings
    // under a 64 MiB limit), so it is only a first line; the bound is the WebAssembly memory itself: the engine gets a linear
    // memory that cannot grow past its start-up size plus the limit, and an allocation beyond it fails
    // inside the engine as "out of memory", without the host's process ever holding more.
    const maximumPages = ENGINE_INITIAL_PAGES + Math.ceil(limits.memoryBytes / WASM_PAGE_BYTES);
    const memory = new LinearMemory({ initial: ENGINE_INITIAL_PAGES, maximum: maximumPages });
    const { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } = await import('quickjs-emscripten');
    const wasmModule = await compiledEngine();
    const engine = await newQuickJSWASMModuleFromVariant(
      newVariant(RELEASE_SYNC, { wasmMemory: memory as CustomizeVariantOptions['wasmMemory'], ...(wasmModule ? { wasmModule: wasmModule as CustomizeVariantOptions['wasmModule'] } : {}) }),
    );
    return new SandboxRun(host, limits, memory, maximumPages, engine.newRuntime());
  }

  installBindings(): void {
    installHostBindings(this.context, this.host, this.limits, this.printed, this.unsettled, this.inFlight, () => (this.toolCalls += 1));
  }

  /** Evaluates the wrapped code: an outcome if that already failed, else undefined (the result promise is held). */
  evaluate(code: string): SandboxOutcome | undefined {
    this.sliceStarted = Date.now();
    const evaluated = this.context.evalCode(wrap(code), SOURCE_NAME);
    if (evaluated.error) {
      const message = this.takeError(evaluated.error);
      if (this.stopped) return this.stoppedOutcome();
      return this.outcome({ ok: false, failure: message.startsWith('SyntaxError') ? 'syntax' : this.failureOf(message), message });
    }
    this.resultHandle = evaluated.value;
    return undefined;
  }

  /**
   * Runs the guest's pending jobs until its result promise settles; when it has none left, waits for
   * a host call to settle, the deadline or cancellation.
   */
  async pump(): Promise<SandboxOutcome> {
    const stop = this.stopSignal();
    for (;;) {
      this.sliceStarted = Date.now();
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) {
        const message = this.takeError(jobs.error);
        if (this.stopped) return this.stoppedOutcome();
        return this.outcome({ ok: false, failure: this.failureOf(message), message });
      }
      if (this.stopped) return this.stoppedOutcome();
      const settled = this.settledResult();
      if (settled) return settled;
      if (this.runtime.hasPendingJob()) continue;
      if (this.checkLimits()) return this.stoppedOutcome();
      if (this.unsettled.size === 0) {
        return this.outcome({
          ok: false,
          failure: 'never_settles',
          message: 'The code awaits a promise that nothing will settle (only tools.<name>() calls are answered; there are no timers or I/O).',
        });
      }
      await Promise.race([stop, ...this.inFlight]);
    }
  }

  /** The engine itself gave up (Node's stack ran out inside the wasm): this instance is unusable. */
  engineFailed(error: unknown): SandboxOutcome {
    this.broken = true;
    const message = `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`;
    return this.outcome({ ok: false, failure: this.failureOf(message), message });
  }

  release(): void {
    clearTimeout(this.stopTimer);
    if (this.onAbort) this.host.signal.removeEventListener('abort', this.onAbort);
    // A stopped or broken run may leave the engine holding objects it would assert on while freeing;
    // its whole instance is dropped instead (it belongs to this run alone), and the GC reclaims it.
    if (this.stopped || this.broken) return;
    try {
      this.resultHandle?.dispose();
      for (const deferred of this.unsettled) deferred.dispose();
      this.context.dispose();
      this.runtime.dispose();
    } catch {
      // Same: nothing outlives the instance.
    }
  }

  /** The interrupt handler: true (stop the guest) past the deadline, on cancellation, or after a slice of computing. */
  private checkLimits(): boolean {
    const now = Date.now();
    // The call's signal also aborts at its deadline (a TimeoutError reason): that is a timeout, not a cancellation.
    if (this.host.signal.aborted) this.stopped = now >= this.limits.deadline || isTimeout(this.host.signal.reason) ? 'timeout' : 'cancelled';
    else if (now >= this.limits.deadline) this.stopped = 'timeout';
    else if (this.limits.sliceMs !== undefined && now - this.sliceStarted > this.limits.sliceMs) this.stopped = 'slice';
    return this.stopped !== undefined;
  }

  /** The pump's wake-ups besides a host call settling: the deadline and cancellation. */
  private stopSignal(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.stopTimer = setTimeout(resolve, Math.max(0, this.limits.deadline - Date.now()));
      this.onAbort = () => resolve();
      this.host.signal.addEventListener('abort', this.onAbort, { once: true });
    });
  }

  /** The outcome once the code's result promise has settled; undefined while it is pending. */
  private settledResult(): SandboxOutcome | undefined {
    const state = this.context.getPromiseState(this.resultHandle as QuickJSHandle);
    if (state.type === 'fulfilled') {
      const length = this.context.getProp(state.value, 'length').consume((handle) => this.context.getNumber(handle));
      const maxChars = this.limits.maxResultChars;
      if (maxChars !== undefined && length > maxChars) {
        state.value.dispose();
        return this.outcome({
          ok: false,
          failure: 'result_too_large',
          message: `run_code returned ${length} characters of JSON, more than the ${maxChars} allowed; return a smaller value (a summary, a slice, counts).`,
        });
      }
      const json = this.context.getString(state.value);
      state.value.dispose();
      return this.outcome({ ok: true, json });
    }
    if (state.type === 'rejected') {
      const message = this.takeError(state.error);
      return this.outcome({ ok: false, failure: this.failureOf(message), message });
    }
    return undefined;
  }

  /** Describes a guest error value and frees its handle. */
  private takeError(handle: QuickJSHandle): string {
    const message = describeError(this.context, handle);
    handle.dispose();
    return message;
  }

  /** Out of memory can leave no room even for the error object (the code then throws `null`): the full memory says why. */
  private failureOf(message: string): SandboxFailure {
    return classify(message) === 'memory' || this.memory.buffer.byteLength + MEMORY_FULL_SLACK_BYTES >= this.maximumPages * WASM_PAGE_BYTES ? 'memory' : 'exception';
  }

  private stoppedOutcome(): SandboxOutcome {
    if (this.stopped === 'cancelled') return this.outcome({ ok: false, failure: 'cancelled', message: 'The run was cancelled.' });
    if (this.stopped === 'slice') {
      return this.outcome({
        ok: false,
        failure: 'timeout',
        message: `The code computed for more than ${this.limits.sliceMs ?? 0} ms without awaiting a tool call (an endless or very long loop?); it was stopped.`,
      });
    }
    return this.outcome({ ok: false, failure: 'timeout', message: `The code did not finish before its deadline (${new Date(this.limits.deadline).toISOString()}); it was stopped.` });
  }

  private outcome(ending: Ending): SandboxOutcome {
    return { ...ending, console: this.printed.snapshot(), toolCalls: this.toolCalls };
  }
}
