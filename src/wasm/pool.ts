/**
 * The worker pool: piscina generations that rotate. Piscina has no "max tasks per worker", so after
 * `recycleAfterCalls` calls per thread, or when the process RSS grew by `recycleAboveRssGrowthBytes`
 * since the generation started, a fresh generation takes new calls and the old one drains its
 * running calls and closes. A call's abort signal terminates (and piscina replaces) its worker.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import type { WorkerReply, WorkerStartData, WorkerTask } from './worker-protocol.ts';

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
}

interface Generation {
  piscina: Piscina<WorkerTask, WorkerReply>;
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
  #generations = 0;
  #retired = 0;
  readonly #draining = new Set<Promise<void>>();
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  #startGeneration(): Generation {
    const { filename, execArgv } = workerEntry();
    const workerData: WorkerStartData = { wasiHostModule: this.#options.wasiHostModule };
    const PiscinaClass = loadPiscina();
    const piscina = new PiscinaClass<WorkerTask, WorkerReply>({
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

  /** Retires the current generation: it finishes its running calls, then its workers exit. */
  rotate(): void {
    const old = this.#current;
    if (old === undefined) return;
    this.#current = undefined;
    this.#retired += 1;
    const draining = old.piscina.close().catch(() => old.piscina.destroy());
    this.#draining.add(draining);
    void draining.finally(() => this.#draining.delete(draining));
  }

  #afterCall(generation: Generation): void {
    if (generation !== this.#current) return;
    if (generation.calls >= this.#options.recycleAfterCalls * this.#options.threads) {
      this.rotate();
      return;
    }
    if (generation.calls % RSS_CHECK_INTERVAL === 0 && process.memoryUsage.rss() - generation.startRss > this.#options.recycleAboveRssGrowthBytes) {
      this.rotate();
    }
  }

  async run(task: WorkerTask, signal: AbortSignal): Promise<WorkerReply> {
    const generation = this.#generation();
    let counted = true;
    try {
      const reply = await generation.piscina.run(task, { signal });
      // A `missing-modules` reply is a round trip of the module hand-over, not a call.
      counted = reply.kind === 'done';
      return reply;
    } finally {
      if (counted) {
        generation.calls += 1;
        this.#afterCall(generation);
      }
    }
  }

  stats(): WorkerPoolStats {
    return { generations: this.#generations, currentGenerationCalls: this.#current?.calls ?? 0, retired: this.#retired };
  }

  /** Waits for running calls to finish, then stops every worker. */
  async close(): Promise<void> {
    this.#closed = true;
    this.rotate();
    await Promise.all([...this.#draining]);
  }
}
