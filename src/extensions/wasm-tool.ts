/**
 * Turns one `.wasm` file into a Tool: load the component, resolve its policy, take its finished spec
 * from the wasm spec cache (wasm-spec-cache.ts) when it is there, else capture and parse its
 * `--help` into a CLI spec (wasm-tool-derive.ts, imported only then) — or take the spec its author ships (a usage,
 * oclif or carapace sidecar or custom section, src/introspect/sidecars; ranked below `--help-json`,
 * above the help parse) — apply the `.tool.json` overrides, and derive
 * from that ONE spec both the zod input schema (so the bridge validates wasm tools like built-ins)
 * and the argv mapping used by `execute`. A policy fs grant whose host folder is missing does not stop
 * the load: it is a `grant-folder-missing` warning, and help capture and calls run with the grants that
 * exist (looked at again on every call).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, relative, sep } from 'node:path';
import type { CallEvents, CallProgress } from '../call-events.ts';
import type { HelpCache } from '../introspect/capture.ts';
import { inputExamplesOf, withInputExamples, type ToolInputExample } from '../introspect/examples/input-examples.ts';
import { commandOptionProblem } from '../introspect/command-options.ts';
import type { UnparsedLine } from '../introspect/help-scan.ts';
import { readToolOverrides, type ToolOverrides } from '../introspect/overrides.ts';
import { parserVersion } from '../introspect/parser-version.ts';
import type { FoundSidecarSpec } from '../introspect/sidecars/index.ts';
import type { CliSpec } from '../introspect/spec.ts';
import type { ProbeResult } from '../introspect/probe/claims.ts';
import { toolEffectOf } from '../introspect/tool-effect.ts';
import { STDIN_PROPERTY } from '../introspect/property-name.ts';
import { cliSpecToArgv } from '../introspect/to-argv.ts';
import { cliSpecToZod, commandOptionDefaults, withPropertyDefaults, withSuggestionExamples } from '../introspect/to-zod.ts';
import { permissionWithEffect, type PermissionLevel } from '../permission.ts';
import { parsePolicy, readPolicyFile, resolvePolicy, withPresentGrants, type MissingFsGrant, type ResolvedFsGrant, type ResolvedToolPolicy, type ToolPolicy } from '../policy.ts';
import { errorResult, type ResourceLinkPart, type ToolResult } from '../result.ts';
import { defineTool, type AnyTool } from '../tool.ts';
import { ToolHostError } from '../errors.ts';
import { fileSha256, type LoadedComponent } from '../wasm/load.ts';
import { argvLimitMessage, preview1ArgvViolation, readsArgvThroughAdapter } from '../wasm/argv-limit.ts';
import { resolveNetworkHeaders } from '../wasm/net/call-options.ts';
import { mapRunOutcome } from '../wasm/result-mapping.ts';
import { traceWasmPhases } from '../telemetry/wasm-spans.ts';
import { readMcpContent } from '../results/mcp-content.ts';
import { prepareOutputSchema } from '../results/output-schema.ts';
import { watchWrittenFiles } from '../results/written-files.ts';
import { redactSecrets, redactText, type CutEdges } from '../secrets.ts';
import type { RunOutcome } from '../wasm/run-types.ts';
import type { WasmRuntime } from '../wasm/runtime.ts';
import type { LoadedExtension, LoadWarning } from './extension-set.ts';
import { describeWasmTool, fileStem, sidecarPaths, wantedToolName } from './tool-names.ts';
import { wasmSpecCacheKey, type WasmSpecCache } from './wasm-spec-cache.ts';

/** The exit codes that end a call with a result when the spec lists none (`success_exit_codes`). */
export const DEFAULT_SUCCESS_EXIT_CODES: readonly number[] = Object.freeze([0]);

/** Budget of the sandboxed `--help` run. */
export const HELP_TIMEOUT_MS = 3_000;
/** The budget of the one retry after a help run timed out (capped by the tool's own timeout_ms). */
export const HELP_RETRY_TIMEOUT_MS = 15_000;

export interface WasmToolDefaults {
  timeoutMs?: number;
  memoryMb?: number;
  outputBytes?: number;
}

export interface WasmToolLoaderOptions {
  runtime: WasmRuntime;
  workspaceRoot: string;
  /** Policies from the host config, keyed by tool name or file base name; they win field by field over sidecars. */
  policies?: Readonly<Record<string, unknown>>;
  defaults?: WasmToolDefaults;
  helpCache?: HelpCache;
  /**
   * Where probe results are kept (src/introspect/probe/): a help cache of its own folder (`<cache>/probe`),
   * so help entries stay one per component. Absent: the program is probed again on every load.
   */
  probeCache?: HelpCache;
  /** Wall time all probes of one tool may take (default PROBE_TOOL_BUDGET_MS, 15 s); tests on a loaded machine raise it. */
  probeBudgetMs?: number;
  /**
   * Where finished specs are kept (wasm-spec-cache.ts, `<cache>/spec`): a load that finds its tool's
   * spec there runs no help and imports no parser. Absent: the spec is derived on every load.
   */
  specCache?: WasmSpecCache;
}

/** What toolhost knows about a loaded wasm tool (kept in `tool.details`, shown by `inspect`). */
export interface WasmToolDetails {
  file: string;
  sha256: string;
  imports: readonly string[];
  spec: CliSpec;
  policy: ResolvedToolPolicy;
  helpFlag: string;
  /** Why no help was taken (a trap, a timeout, an error exit): the tool loaded without parameters. */
  helpProblem?: string;
  /** The program the help's Usage line names (`git` for git-clone.wasm); the tool name is the file's. */
  program: string;
  /** Lines of the help's options sections the parser did not understand (present when text help was parsed). */
  unparsed?: UnparsedLine[];
  /** The spec the author ships that the spec came from (`{format: 'usage', origin: 'x.usage.kdl'}`), when one did. */
  specSidecar?: { format: string; origin: string };
  /** What is wrong with the tool though it loaded (a granted folder that is missing, a bad spec sidecar); empty when nothing is. */
  warnings: LoadWarning[];
  /** What asking the program added (src/introspect/probe/): absent when no probe was made (`"probes": false`, a `--help-json` or whole-spec tool). */
  probe?: ProbeResult;
  /** The spec's example calls that the schema accepts, as argument objects (src/introspect/examples/). */
  examples?: ToolInputExample[];
  [key: string]: unknown;
}

/** The version a load would produce: sha256 of the component bytes and of its sidecars. */
export async function probeWasmToolVersion(file: string): Promise<string> {
  // The component's own digest (hashed once per process, see fileSha256), then its sidecars.
  const hash = createHash('sha256').update((await fileSha256(file)).sha256);
  for (const sidecar of Object.values(sidecarPaths(file))) {
    hash.update('\0');
    if (existsSync(sidecar)) hash.update(readFileSync(sidecar));
  }
  return hash.digest('hex');
}

/** Permission of a wasm tool follows its grants: rw → write, ro → read_only, none → none. */
export function permissionForPolicy(policy: ResolvedToolPolicy): PermissionLevel {
  if (policy.fs.some((grant) => grant.mode === 'rw')) return 'write';
  if (policy.fs.length > 0) return 'read_only';
  return 'none';
}

/** The load warning of one grant whose host folder is missing (`grant-folder-missing`). */
export function missingGrantWarning({ grant, reason }: MissingFsGrant): LoadWarning {
  return {
    code: 'grant-folder-missing',
    message: `the policy grants ${grant.guest} (${grant.mode}) from ${grant.host}, which ${reason}: help capture and calls run without this grant until the folder exists`,
  };
}

/** The policy a wasm tool runs under: defaults, then its `.policy.json`, then the host config's entry, field by field. */
export async function resolveWasmToolPolicy(
  file: string,
  overrides: ToolOverrides | undefined,
  options: Pick<WasmToolLoaderOptions, 'workspaceRoot' | 'policies' | 'defaults'>,
): Promise<ResolvedToolPolicy> {
  const { policy: sidecar } = sidecarPaths(file);
  const fromSidecar: ToolPolicy = existsSync(sidecar) ? await readPolicyFile(sidecar) : {};
  const base = fileStem(file);
  const configured = options.policies?.[overrides?.name ?? base] ?? options.policies?.[base];
  const fromConfig: ToolPolicy = configured === undefined ? {} : parsePolicy(configured, `config policy of "${base}"`);
  const defaults = options.defaults ?? {};
  const merged: ToolPolicy = {
    ...(defaults.timeoutMs !== undefined ? { timeout_ms: defaults.timeoutMs } : {}),
    ...(defaults.memoryMb !== undefined ? { memory_mb: defaults.memoryMb } : {}),
    ...(defaults.outputBytes !== undefined ? { output_bytes: defaults.outputBytes } : {}),
    ...fromSidecar,
    ...fromConfig,
  };
  return resolvePolicy(merged, options.workspaceRoot);
}

/** How long a help run may take: the first budget, and the one retry's after a run timed out. */
export interface HelpRunBudget {
  timeoutMs: number;
  retryTimeoutMs: number;
}

export const HELP_RUN_BUDGET: Readonly<HelpRunBudget> = Object.freeze({ timeoutMs: HELP_TIMEOUT_MS, retryTimeoutMs: HELP_RETRY_TIMEOUT_MS });

/**
 * The one help-run policy, shared by a host's help capture and `toolhost check` (so check never calls
 * "timed out" a help a host takes): a run uses the tool's own grants (a tool that reads its data
 * files at start-up still prints help), `budget.timeoutMs` at most (never more than the tool's own
 * timeout_ms) and a 256 KiB output cap. The first run in a worker also compiles the component there,
 * which for tens of MiB (Python, JS, large Go binaries) can pass the budget on a busy machine: the
 * first run that times out is retried once with `budget.retryTimeoutMs` (capped by the tool's
 * timeout_ms) before its outcome stands.
 */
export function createHelpRunner(
  runtime: WasmRuntime,
  component: LoadedComponent,
  policy: ResolvedToolPolicy,
  programName: string,
  budget: Readonly<HelpRunBudget> = HELP_RUN_BUDGET,
): (args: string[]) => Promise<RunOutcome> {
  const helpPolicy: ResolvedToolPolicy = { ...policy, timeout_ms: Math.min(policy.timeout_ms, budget.timeoutMs), output_bytes: 256 * 1024 };
  let retried = false;
  return async (args) => {
    const outcome = await runtime.run(component, { args, policy: helpPolicy, programName });
    if (!outcome.timedOut || retried) return outcome;
    retried = true;
    const retryPolicy: ResolvedToolPolicy = { ...helpPolicy, timeout_ms: Math.max(helpPolicy.timeout_ms, Math.min(policy.timeout_ms, budget.retryTimeoutMs)) };
    return runtime.run(component, { args, policy: retryPolicy, programName });
  };
}

/** What the load pipeline made of a tool's help: the spec its schema and argv derive from, and how it got there. */
export interface WasmToolSpec {
  spec: CliSpec;
  /** `--help-json`, `--help`, `-h`, `help`, `tool.json`, `none`, or `sidecar:<format>` (a spec the author ships). */
  helpFlag: string;
  program: string;
  helpProblem?: string;
  unparsed?: UnparsedLine[];
  /** The spec sidecar the spec came from, when one did (`x.usage.kdl`, `custom section toolhost:spec-usage`). */
  sidecar?: Pick<FoundSidecarSpec, 'format' | 'origin'>;
  /** Spec sidecars that were invalid, shadowed or partly read (`spec-sidecar-*`): the tool still loads. */
  warnings: LoadWarning[];
  /** What the probes found (absent when none ran: opted out, a `--help-json` or whole-spec tool, no help). */
  probe?: ProbeResult;
  /** Set when a time budget cut the derivation short (subcommand helps not asked): the spec is not cached. */
  incomplete?: true;
}

/**
 * The one help → parse → subcommand helps → overrides pipeline: the loader and `toolhost check` both
 * call it, so what check reports is what a host will serve. The pipeline (wasm-tool-derive.ts, and
 * with it the help parser) is imported on first use: a load whose spec comes from the wasm spec cache
 * never loads it.
 */
export async function deriveWasmToolSpec(
  component: LoadedComponent,
  file: string,
  overrides: ToolOverrides | undefined,
  policy: ResolvedToolPolicy,
  options: Pick<WasmToolLoaderOptions, 'runtime' | 'helpCache' | 'probeCache' | 'probeBudgetMs'> & { workspaceRoot?: string },
): Promise<WasmToolSpec> {
  const { deriveFreshWasmToolSpec } = await import('./wasm-tool-derive.ts');
  return deriveFreshWasmToolSpec(component, file, overrides, policy, options);
}

/**
 * The help cache key of a tool: the component's bytes, argv[0] (programs commonly print it in their
 * Usage line) and the grants the help runs with (a tool may print other help with other files or env).
 * Host paths inside the workspace count relative to it (helpCacheGrants); only the grants whose
 * folders exist, as those are the ones the help ran with.
 */
export function helpCacheKeyOf(sha256: string, programName: string, policy: ResolvedToolPolicy, workspaceRoot: string | undefined): string {
  const grants = JSON.stringify({ fs: helpCacheGrants(withPresentGrants(policy).policy.fs, workspaceRoot), env: policy.env, network: policy.network.allow });
  return createHash('sha256').update(sha256).update('\0').update(programName).update('\0').update(grants).digest('hex');
}

/**
 * The filesystem grants as the help cache key counts them: a host directory inside the workspace as a
 * path relative to it (`.` for the workspace itself), one outside as it is; guest path and mode as
 * given. Two workspaces with the same layout share a cached help, as the issue asks (a moved one must
 * not capture again); the component, argv[0], environment and network grants still tell them apart.
 */
export function helpCacheGrants(fs: readonly ResolvedFsGrant[], workspaceRoot: string | undefined): { host: string; guest: string; mode: string }[] {
  return fs.map((grant) => {
    if (workspaceRoot === undefined) return { host: grant.host, guest: grant.guest, mode: grant.mode };
    const inside = relative(workspaceRoot, grant.host);
    const within = inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
    return { host: within ? `./${inside.split(sep).join('/')}` : grant.host, guest: grant.guest, mode: grant.mode };
  });
}

/**
 * The tool's finished spec from the spec cache when it holds it under this tool's key (wasmSpecCacheKey:
 * the bytes of the component and its sidecars, argv[0], the policy, the parser version), else derived
 * (deriveWasmToolSpec) and kept there for the next load.
 */
async function cachedWasmToolSpec(
  component: LoadedComponent,
  file: string,
  version: string,
  overrides: ToolOverrides | undefined,
  policy: ResolvedToolPolicy,
  options: WasmToolLoaderOptions,
): Promise<WasmToolSpec> {
  const cache = options.specCache;
  if (cache === undefined) return deriveWasmToolSpec(component, file, overrides, policy, options);
  const present = withPresentGrants(policy).policy;
  const key = wasmSpecCacheKey({
    version,
    fileName: basename(file),
    helpCacheKey: helpCacheKeyOf(component.sha256, fileStem(file), policy, options.workspaceRoot),
    // The policy as it reaches the help, probes and spec (its present grants' host paths as the help cache counts them).
    policy: { ...present, fs: helpCacheGrants(present.fs, options.workspaceRoot) },
    ...(options.probeBudgetMs !== undefined ? { probeBudgetMs: options.probeBudgetMs } : {}),
    parserVersion: parserVersion(),
  });
  const cached = await cache.get(key);
  if (cached !== undefined) return cached;
  const derived = await deriveWasmToolSpec(component, file, overrides, policy, options);
  await cache.set(key, derived);
  return derived;
}

/** Loads one wasm tool file; throws ToolHostError (load, policy, spec) so the caller can report it. */
export async function loadWasmTool(file: string, options: WasmToolLoaderOptions): Promise<LoadedExtension> {
  const version = await probeWasmToolVersion(file);
  const component = await options.runtime.load(file);
  const { overrides: overridesFile } = sidecarPaths(file);
  const overrides = existsSync(overridesFile) ? await readToolOverrides(overridesFile) : undefined;
  const policy = await resolveWasmToolPolicy(file, overrides, options);
  const { spec, helpFlag, program, helpProblem, unparsed, sidecar, warnings: specWarnings, probe } = await cachedWasmToolSpec(component, file, version, overrides, policy, options);
  let input;
  try {
    input = cliSpecToZod(spec);
  } catch (error) {
    throw new ToolHostError('TOOL_SPEC_INVALID', `Cannot derive a schema for ${file}: ${(error as Error).message}`, { cause: error });
  }
  const examples = inputExamplesOf(spec, input);
  const details: WasmToolDetails = {
    file,
    sha256: component.sha256,
    imports: component.imports,
    spec,
    policy,
    helpFlag,
    program,
    ...(helpProblem !== undefined ? { helpProblem } : {}),
    ...(unparsed !== undefined ? { unparsed } : {}),
    ...(sidecar !== undefined ? { specSidecar: sidecar } : {}),
    ...(probe !== undefined ? { probe } : {}),
    ...(examples.length > 0 ? { examples } : {}),
    warnings: [...withPresentGrants(policy).missing.map(missingGrantWarning), ...specWarnings],
  };
  // Named after the file (or its .tool.json), not the help's program; the ExtensionSet settles clashes.
  const name = wantedToolName(file, overrides?.name);
  const programName = fileStem(file);
  const argvThroughAdapter = await readsArgvThroughAdapter(component);
  const effect = toolEffectOf(spec);
  const defined: AnyTool = defineTool({
    name,
    description: describeWasmTool(spec.description, program, name, { verbatim: overrides?.description !== undefined }),
    source: 'wasm',
    // The grants' level, raised (never lowered) by an effect the spec declares (permissionWithEffect).
    permission: permissionWithEffect(permissionForPolicy(policy), effect.max),
    network: policy.network.allow.length > 0,
    ...(effect.complete && effect.max !== undefined ? { effect: effect.max } : {}),
    input,
    secretParams: overrides?.secret_params ?? [],
    ...(spec.output_schema !== undefined ? { outputSchema: prepareOutputSchema(spec.output_schema) } : {}),
    details,
    // A subcommand's own option given with another command is refused before the tool runs.
    precheck: (parsed) => commandOptionProblem(spec, parsed),
    // The runtime enforces the policy's timeout itself; the host's deadline leaves it room to report it.
    timeoutMs: policy.timeout_ms + 2_000,
    // Schema annotations zod cannot carry: subcommand options' defaults (see commandOptionDefaults) and the
    // program's own suggestions (probes) as JSON Schema `examples`, and its example calls as the schema's
    // top-level `examples`.
    annotateSchema: (schema) => withInputExamples(withSuggestionExamples(withPropertyDefaults(schema, commandOptionDefaults(spec)), spec), examples),
    async execute(parsed, context) {
      const argv = cliSpecToArgv(spec, parsed);
      // Refused before running: the adapter would trap on it (argv-limit.ts), after a worker's time.
      const tooLarge = argvThroughAdapter ? preview1ArgvViolation([programName, ...argv]) : undefined;
      if (tooLarge !== undefined) {
        return errorResult(argvLimitMessage(tooLarge), { reason: 'arguments_too_large', limit_bytes: tooLarge.allowedBytes, largest_argument_bytes: tooLarge.largestBytes });
      }
      // Only the grants whose folders exist now are opened; a result says which ones the tool went without.
      const { policy: callPolicy, missing } = withPresentGrants(policy);
      const stdinText = spec.stdin === true ? parsed[STDIN_PROPERTY] : undefined;
      const stdin = typeof stdinText === 'string' ? new TextEncoder().encode(stdinText) : undefined;
      // Files the call writes that its spec asks to link: the writable folders listed before it runs.
      const written = spec.output_files === undefined ? undefined : await watchWrittenFiles(options.workspaceRoot, callPolicy.fs.filter((grant) => grant.mode === 'rw').map((grant) => grant.host), spec.output_files);
      try {
        // Secrets in the policy's network headers: substituted here, sent by the host, never shown to
        // the guest, and redacted from the result like the call's own secrets.
        const network = resolveNetworkHeaders(policy.network, context.secrets);
        const redact = network.used.size === 0 ? context.redactText : (text: string, edges?: CutEdges) => redactText(context.redactText?.(text, edges) ?? text, network.used, edges);
        const outcome = await options.runtime.run(component, {
          args: argv,
          policy: callPolicy,
          programName,
          signal: context.signal,
          deadline: context.deadline,
          ...(stdin ? { stdin } : {}),
          ...(network.headers.length > 0 ? { networkHeaders: network.headers } : {}),
          ...(context.events === undefined ? {} : { events: redactedEvents(context.events, redact) }),
        });
        if (context.trace !== undefined && outcome.timing !== undefined) traceWasmPhases(context.trace, outcome.timing);
        const mapped = mapRunOutcome(outcome, {
          envelope: spec.output === 'envelope',
          successExitCodes: spec.success_exit_codes ?? DEFAULT_SUCCESS_EXIT_CODES,
          ...(spec.output_media_type !== undefined ? { mediaType: spec.output_media_type } : {}),
          sniffMedia: spec.output === undefined || spec.output === 'text',
          ...(redact ? { redactText: redact } : {}),
        });
        const read = spec.output === 'mcp-content' ? await withMcpContent(mapped, options.workspaceRoot, redact) : mapped;
        const result = written === undefined || read.is_error ? read : withWrittenFiles(read, await written.links());
        const noted = missing.length === 0 ? result : withMissingGrants(result, missing);
        return network.used.size === 0 ? noted : redactSecrets(noted, network.used);
      } catch (error) {
        if (error instanceof ToolHostError && error.code === 'QUEUE_FULL') {
          return errorResult(`Tool "${name}" is busy: ${error.message} Retry shortly.`, { reason: 'queue_full' });
        }
        throw error;
      }
    },
  });
  return { tool: defined, version, warnings: details.warnings };
}

/** The call's listener, handed the tool's stderr lines and progress messages with the call's secrets redacted. */
function redactedEvents(events: CallEvents, redact: ((text: string) => string) | undefined): CallEvents {
  if (redact === undefined) return events;
  const { progress, stderrLine } = events;
  return {
    ...(progress === undefined ? {} : { progress: (update: CallProgress) => progress(update.message === undefined ? update : { ...update, message: redact(update.message) }) }),
    ...(stderrLine === undefined ? {} : { stderrLine: (line: string) => stderrLine(redact(line)) }),
  };
}

/** A successful call's result with links to the files it wrote (src/results/written-files.ts). */
function withWrittenFiles(result: ToolResult, written: { links: ResourceLinkPart[]; capped: boolean }): ToolResult {
  if (written.links.length === 0 && !written.capped) return result;
  const metadata = written.capped ? { ...result.metadata, output_files_capped: true } : result.metadata;
  const parts = [...(result.parts ?? []), ...written.links];
  return { ...result, ...(metadata !== undefined ? { metadata } : {}), ...(parts.length > 0 ? { parts } : {}) };
}

/**
 * A successful call of an `"output": "mcp-content"` tool: its stdout (the result's text) read as the
 * MCP content envelope (src/results/mcp-content.ts); the call's metadata is kept. Output cut at the
 * output limit, or an envelope that breaks the rules, is an error result saying so.
 */
async function withMcpContent(result: ToolResult, workspaceRoot: string, redact: ((text: string) => string) | undefined): Promise<ToolResult> {
  if (result.is_error || result.parts !== undefined) return result;
  const metadata = result.metadata ?? {};
  if (metadata['truncated'] === true) {
    return errorResult(`the tool's mcp-content output was cut at the output limit; raise the policy's output_bytes or return less`, { ...metadata, reason: 'mcp_content_invalid' });
  }
  const read = await readMcpContent(result.content, workspaceRoot, redact);
  if (!read.ok) return errorResult(read.message, { ...metadata, reason: 'mcp_content_invalid' });
  return { ...read.result, metadata: { ...metadata, ...read.result.metadata } };
}

/**
 * A call's result when some granted folders were missing: `metadata.missing_grants` lists their guest
 * paths (host paths stay with the operator), and an error result says so, as the likely reason.
 */
function withMissingGrants(result: ToolResult, missing: readonly MissingFsGrant[]): ToolResult {
  const guests = missing.map(({ grant }) => grant.guest);
  const note = `note: the tool ran without ${guests.join(', ')}: the folder granted there is missing on the host (ask the operator to create it)`;
  return {
    ...result,
    content: result.is_error ? `${result.content}\n${note}` : result.content,
    metadata: { ...result.metadata, missing_grants: guests },
  };
}
