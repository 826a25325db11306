/**
 * The worker pool: piscina generations that rotate. Piscina has no "max tasks per worker", so after
 * `recycleAfterCalls` calls per thread, or when the process RSS grew by `recycleAboveRssGrowthBytes`
 * since the generation started, a successor generation is started and warmed (its workers boot and
 * receive the modules and glue of the tools called lately) while the current one keeps serving;
 * then the successor takes new calls and the old one drains its running calls and closes. Without
 * the warm-up the calls right after a rotation waited for workers to boot (0.3–0.5 s measured).
 * A call's abort signal terminates (and piscina replaces) its worker. A call someone listens to carries
 * a MessagePort (worker-protocol.ts `TaskEvents`) for its stderr events; others carry nothing extra.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import type { PreparedTool, WorkerReply, WorkerStartData, WorkerTask, WorkerWarmTask } from './worker-protocol.ts';

export interface WorkerPoolOptions {
  threads: number;
  recycleAfterCalls: number;
  recycleAboveRssGrowthBytes: number;
  wasiHostModule: string | undefined;
}

export interface WorkerPoolStats {
  /** Generations started so far (1 after the first call). */
  generations: number;
  /** Calls sent to the current generation. */
  currentGenerationCalls: number;
  /** Generations draining or closed after rotation. */
  retired: number;
  /** Times a worker had to be sent a tool's modules at its call (`missing-modules`); warmed successors need none. */
  moduleHandovers: number;
  /** Worker threads that have exited so far (a cancelled or timed-out call's worker is terminated, and replaced). */
  workersExited: number;
}

interface Generation {
  piscina: Piscina<WorkerTask | WorkerWarmTask, WorkerReply>;
  calls: number;
  startRss: number;
}

/** The worker file next to this module: `.ts` run through tsx when this module is `.ts`. */
export function workerEntry(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  const isTypeScript = here.endsWith('.ts');
  const filename = fileURLToPath(new URL(isTypeScript ? './worker.ts' : './worker.js', here));
  return { filename, execArgv: isTypeScript ? ['--import', import.meta.resolve('tsx')] : [] };
}

const RSS_CHECK_INTERVAL = 256;
/** Tools a successor generation is warmed with: the most recently handed over. */
const WARM_TOOLS = 16;
/** A successor that is not warm by then takes over anyway (a worker that cannot boot is piscina's to replace). */
const WARM_TIMEOUT_MS = 10_000;

/**
 * piscina, required when the first generation starts rather than when this module loads: commands
 * that load tools but never call them through the pool (`list`, an `mcp` session that only lists)
 * do not pay for it. Its CommonJS entry is the one its ESM wrapper re-exports.
 */
let piscinaClass: typeof Piscina | undefined;
function loadPiscina(): typeof Piscina {
  piscinaClass ??= (createRequire(import.meta.url)('piscina') as typeof import('piscina')).Piscina;
  return piscinaClass;
}

export class WorkerPool {
  readonly #options: WorkerPoolOptions;
  #current: Generation | undefined;
  /** The generation being warmed to succeed `#current`. */
  #successor: Generation | undefined;
  #generations = 0;
  #retired = 0;
  #moduleHandovers = 0;
  #workersExited = 0;
  /** Tools whose modules were handed over lately, oldest first (a Map keeps insertion order). */
  readonly #recentTools = new Map<string, PreparedTool>();
  readonly #draining = new Set<Promise<void>>();
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  #startGeneration(): Generation {
    const { filename, execArgv } = workerEntry();
    const workerData: WorkerStartData = { wasiHostModule: this.#options.wasiHostModule };
    const PiscinaClass = loadPiscina();
    const piscina = new PiscinaClass<WorkerTask | WorkerWarmTask, WorkerReply>({
      filename,
      execArgv,
      workerData,
      minThreads: this.#options.threads,
      maxThreads: this.#options.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      atomics: 'sync',
      // The runtime's fair limiter bounds and orders the queue; piscina never holds more than it admits.
      maxQueue: Number.POSITIVE_INFINITY,
    });
    this.#generations += 1;
    piscina.on('workerDestroy', () => {
      this.#workersExited += 1;
    });
    return { piscina, calls: 0, startRss: process.memoryUsage.rss() };
  }

  #generation(): Generation {
    if (this.#closed) throw new Error('worker pool is closed');
    this.#current ??= this.#startGeneration();
    return this.#current;
  }

  /** Starts the workers now instead of at the first call (they take ~1 s to boot under tsx). */
  warmUp(): void {
    this.#generation();
  }

  /** Retires the current generation now: it finishes its running calls, then its workers exit. */
  rotate(): void {
    const old = this.#current;
    if (old === undefined) return;
    this.#current = undefined;
    this.#retire(old);
  }

  #retire(generation: Generation): void {
    this.#retired += 1;
    const draining = generation.piscina.close().catch(() => generation.piscina.destroy());
    this.#draining.add(draining);
    void draining.finally(() => this.#draining.delete(draining));
  }

  /** Starts a successor, warms it, then hands it the new calls; the current generation serves meanwhile. */
  #rotateWhenWarm(): void {
    if (this.#successor !== undefined || this.#closed) return;
    const successor = this.#startGeneration();
    this.#successor = successor;
    void this.#warm(successor).finally(() => {
      if (this.#successor !== successor) return; // closed meanwhile: close() retired it
      this.#successor = undefined;
      const old = this.#current;
      this.#current = successor;
      if (old !== undefined) this.#retire(old);
    });
  }

  /** One warm task per worker, held at a shared barrier so that each worker gets exactly one. */
  async #warm(generation: Generation): Promise<void> {
    const task: WorkerWarmTask = {
      kind: 'warm',
      tools: [...this.#recentTools.values()],
      barrier: new SharedArrayBuffer(4),
      parties: this.#options.threads,
      deadline: Date.now() + WARM_TIMEOUT_MS,
    };
    const signal = AbortSignal.timeout(WARM_TIMEOUT_MS + 1_000);
    await Promise.allSettled(Array.from({ length: this.#options.threads }, () => generation.piscina.run(task, { signal })));
  }

  #afterCall(generation: Generation): void {
    if (generation !== this.#current) return;
    if (generation.calls >= this.#options.recycleAfterCalls * this.#options.threads) {
      this.#rotateWhenWarm();
      return;
    }
    if (generation.calls % RSS_CHECK_INTERVAL === 0 && process.memoryUsage.rss() - generation.startRss > this.#options.recycleAboveRssGrowthBytes) {
      this.#rotateWhenWarm();
    }
  }

  #remember(task: WorkerTask): void {
    if (task.modules === undefined) return;
    this.#recentTools.delete(task.key);
    this.#recentTools.set(task.key, { key: task.key, execution: task.execution, gluePath: task.gluePath, glueSha256: task.glueSha256, modules: task.modules });
    if (this.#recentTools.size > WARM_TOOLS) this.#recentTools.delete(this.#recentTools.keys().next().value as string);
  }

  async run(task: WorkerTask, signal: AbortSignal): Promise<WorkerReply> {
    const generation = this.#generation();
    let counted = true;
    this.#remember(task);
    try {
      // A call's event port (worker-protocol.ts) moves to the worker with the task.
      const reply = await generation.piscina.run(task, task.events === undefined ? { signal } : { signal, transferList: [task.events.port] });
      // A `missing-modules` reply is a round trip of the module hand-over, not a call.
      counted = reply.kind === 'done';
      if (reply.kind === 'missing-modules') this.#moduleHandovers += 1;
      return reply;
    } finally {
      if (counted) {
        generation.calls += 1;
        this.#afterCall(generation);
      }
    }
  }

  stats(): WorkerPoolStats {
    return {
      generations: this.#generations,
      currentGenerationCalls: this.#current?.calls ?? 0,
      retired: this.#retired,
      moduleHandovers: this.#moduleHandovers,
      workersExited: this.#workersExited,
    };
  }

  /** Waits for running calls to finish, then stops every worker. */
  async close(): Promise<void> {
    this.#closed = true;
    const successor = this.#successor;
    this.#successor = undefined;
    if (successor !== undefined) {
      // Its workers may sit at the warm-up barrier, which close() would wait out: it runs no calls, so destroy it.
      this.#retired += 1;
      const destroyed = successor.piscina.destroy().catch(() => undefined);
      this.#draining.add(destroyed);
      void destroyed.finally(() => this.#draining.delete(destroyed));
    }
    this.rotate();
    await Promise.all([...this.#draining]);
  }
}
