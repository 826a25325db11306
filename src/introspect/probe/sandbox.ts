/**
 * The sandbox a probe runs in, and the budget every probe of one tool shares. A probe may reach the
 * program's main (a bad value a parser accepts, a protocol the program does not speak), so it runs
 * with NO grants whatever the tool's policy says: no preopened folder, no network, no environment
 * beyond the protocol's own variables, empty stdin, output capped, each run a fresh instance (the
 * runtime instantiates per run). Budget: PROBE_RUN_TIMEOUT_MS a run, at most PROBE_MAX_RUNS runs and
 * PROBE_TOOL_BUDGET_MS of wall time per tool; a run that would start past the budget is not sent.
 */
import type { ResolvedToolPolicy } from '../../policy.ts';

export const PROBE_RUN_TIMEOUT_MS = 2_000;
export const PROBE_MAX_RUNS = 64;
export const PROBE_TOOL_BUDGET_MS = 15_000;
/** Bytes of stdout and of stderr a probe run keeps (the runtime drops the rest). */
export const PROBE_OUTPUT_BYTES = 64 * 1024;

/** What one probe run returned: text, capped; exitCode null when it trapped or timed out. */
export interface ProbeOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

/** One run of the program: argv after argv[0], and the protocol's environment (nothing else is set). */
export type ProbeRunner = (args: readonly string[], env?: Readonly<Record<string, string>>) => Promise<ProbeOutput>;

/** The policy of a probe run: the tool's memory cap, nothing else of its policy. */
export function probePolicy(toolPolicy: Pick<ResolvedToolPolicy, 'memory_mb'>, env: Readonly<Record<string, string>> = {}): ResolvedToolPolicy {
  return {
    fs: [],
    env: { ...env },
    network: { allow: [] },
    timeout_ms: PROBE_RUN_TIMEOUT_MS,
    memory_mb: toolPolicy.memory_mb,
    output_bytes: PROBE_OUTPUT_BYTES,
  };
}

export interface ProbeBudget {
  /** Runs sent so far. */
  readonly runs: number;
  /** Wall time spent so far (ms). */
  readonly elapsedMs: number;
  /** Whether budget is left for another run. */
  left(): boolean;
}

export interface BudgetedRunner {
  /** Runs one probe; undefined when the budget is spent (nothing is sent). */
  run(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<ProbeOutput | undefined>;
  budget: ProbeBudget;
}

export interface BudgetOptions {
  maxRuns?: number;
  budgetMs?: number;
  /** The clock (ms); tests pass their own. */
  now?: () => number;
}

/** Wraps a runner in the per-tool budget. A run that throws counts and reads as a trap. */
export function budgetedRunner(runner: ProbeRunner, options: BudgetOptions = {}): BudgetedRunner {
  const maxRuns = options.maxRuns ?? PROBE_MAX_RUNS;
  const budgetMs = options.budgetMs ?? PROBE_TOOL_BUDGET_MS;
  const now = options.now ?? (() => performance.now());
  const started = now();
  let runs = 0;
  const budget: ProbeBudget = {
    get runs() {
      return runs;
    },
    get elapsedMs() {
      return now() - started;
    },
    // a run may take PROBE_RUN_TIMEOUT_MS: one is started only when it cannot pass the tool's budget
    left: () => runs < maxRuns && now() - started + Math.min(PROBE_RUN_TIMEOUT_MS, budgetMs) <= budgetMs,
  };
  return {
    budget,
    async run(args, env) {
      if (!budget.left()) return undefined;
      runs += 1;
      try {
        return await runner(args, env);
      } catch {
        return { stdout: '', stderr: '', exitCode: null, timedOut: false };
      }
    },
  };
}
