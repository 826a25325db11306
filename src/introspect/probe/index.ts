/**
 * Ask the program (issue 25 item 2): fingerprint the module, send the fingerprinted framework's
 * probes in the no-grant sandbox within the per-tool budget, and return the claims — cached by the
 * help cache key (component hash, argv[0], grants) plus what the probes were planned from, so a
 * later load of the same component sends nothing. The caller merges the claims (merge.ts).
 *
 * The cache is the help cache (capture.ts `HelpCache`): an entry `{ text: <ProbeResult JSON>, flag:
 * "probe" }` under its own key, so `toolhost cache` lists and clears it with the help. An entry that
 * does not read back as a ProbeResult is ignored (the probes run again).
 */
import { createHash } from 'node:crypto';
import { debuglog } from 'node:util';
import type { HelpCache } from '../capture.ts';
import type { CliSpec } from '../spec.ts';
import type { ProbeClaim, ProbeResult } from './claims.ts';
import { fingerprintModuleInTurns } from './fingerprint.ts';
import { runProbes } from './plan.ts';
import { probeResultSchema as resultSchema } from './result-schema.ts';
import { budgetedRunner, type BudgetOptions, type ProbeRunner } from './sandbox.ts';

export type { ProbeClaim, ProbeResult } from './claims.ts';
export { probeResultSchema } from './result-schema.ts';
export { mergeProbeClaims } from './merge.ts';
export { fingerprintModule, fingerprintModuleInTurns } from './fingerprint.ts';
export { probePolicy, PROBE_MAX_RUNS, PROBE_RUN_TIMEOUT_MS, PROBE_TOOL_BUDGET_MS } from './sandbox.ts';

/** Changes whenever the probes sent or their readers change: older cached results are not reused. */
export const PROBE_PROTOCOL_VERSION = '1';

const debug = debuglog('toolhost');

export interface ProbeProgramOptions {
  /** Runs the program in the probe sandbox (see createProbeRunner). */
  runner: ProbeRunner;
  /** The module's bytes, read only when the probes must run (a cache hit reads nothing). */
  moduleBytes: () => Promise<Uint8Array>;
  cache?: HelpCache;
  /** The help cache key of the component (hash, argv[0], grants). */
  cacheKey?: string;
  budget?: BudgetOptions;
}

/** What the probes are planned from: the spec's command and option shapes (a new reading of the help probes again). */
export function probePlanDigest(spec: CliSpec): string {
  const shape = (options: CliSpec['options']) => options.map((option) => [option.long, option.short, option.prefix ?? '--', option.takes_value, option.type, option.choices === null, option.value_count ?? 1]);
  const plan = { name: spec.name, options: shape(spec.options), positionals: spec.positionals.map((entry) => entry.name), commands: spec.subcommands.map((command) => [command.name, shape(command.options ?? [])]) };
  return createHash('sha256').update(JSON.stringify(plan)).digest('hex');
}

function probeCacheKey(cacheKey: string, spec: CliSpec): string {
  return createHash('sha256').update(cacheKey).update('\0probe\0').update(PROBE_PROTOCOL_VERSION).update('\0').update(probePlanDigest(spec)).digest('hex');
}

async function cached(cache: HelpCache, key: string): Promise<ProbeResult | undefined> {
  const entry = await cache.get(key).catch(() => undefined);
  if (entry === undefined || entry.flag !== 'probe') return undefined;
  try {
    const parsed = resultSchema.safeParse(JSON.parse(entry.text));
    return parsed.success ? (parsed.data as ProbeResult) : undefined;
  } catch {
    return undefined;
  }
}

/** Probes the program (or reads its cached result); never throws for what the program does. */
export async function probeProgram(spec: CliSpec, options: ProbeProgramOptions): Promise<ProbeResult> {
  const key = options.cache !== undefined && options.cacheKey !== undefined ? probeCacheKey(options.cacheKey, spec) : undefined;
  if (key !== undefined && options.cache !== undefined) {
    const hit = await cached(options.cache, key);
    if (hit !== undefined) {
      debug('probe cache hit: %s', key);
      return hit;
    }
  }
  debug('probe cache miss: probing %s', key ?? '(no cache key)');
  const started = performance.now();
  const { framework, matches } = await fingerprintModuleInTurns(await options.moduleBytes());
  let claims: ProbeClaim[] = [];
  let runs = 0;
  if (framework !== null) {
    const runner = budgetedRunner(options.runner, options.budget);
    claims = await runProbes(framework, spec, runner);
    runs = runner.budget.runs;
  }
  const result: ProbeResult = { framework, matches, runs, elapsed_ms: Math.round(performance.now() - started), claims };
  if (key !== undefined && options.cache !== undefined) await options.cache.set(key, { text: JSON.stringify(result), flag: 'probe' }).catch(() => undefined);
  return result;
}
