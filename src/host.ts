/**
 * The host: one registry of tools (built-ins plus what an extension source loads), one event stream,
 * the approval and quota gates, per-host resources and the call path, behind the `Host` interface the
 * HTTP server, MCP server and CLI are built on.
 *
 * `createHost` assembles those parts, each from its own module under src/host/, and owns their
 * lifetime (the order they close in). Which built-ins and which extension loader an application runs
 * with is decided by the composition root, src/compose.ts.
 */
import { setMaxListeners } from 'node:events';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApprovalGate, registerHostApprovals } from './approvals/index.ts';
import type { CreateHostDependencies, ExtensionSource, Host, HostEvent, HostOptions } from './host-types.ts';
import { CallRunner } from './host/call-runner.ts';
import { createHostEvents, forwardRegistryEvents } from './host/events.ts';
import { InFlightCalls } from './host/in-flight.ts';
import { registerPrincipalPolicy } from './identity/host-policy.ts';
import type { PrincipalPolicy } from './identity/policy.ts';
import { createToolLookup } from './host/lookup.ts';
import { HostResources } from './host/resources.ts';
import { type Logger, silentLogger } from './logger.ts';
import { QuotaGate, registerHostQuotas, type QuotaHostOptions } from './quotas/index.ts';
import { ToolRegistry } from './registry.ts';
import { errorResult, type ToolResult } from './result.ts';
import { createSecretsResolver } from './secrets.ts';
import { commandSandboxSettings, type CommandSandboxSettings } from './command-sandbox.ts';
import { packageRoot } from './package-root.ts';
import { defaultCacheDirectory } from './cache-directory.ts';
import { defaultReplicaId } from './state/replica-id.ts';
import { memorySharedState, registerHostState } from './state/shared-state.ts';

export type { CreateHostDependencies, ExtensionSource, ExtensionSourceFactory } from './host-types.ts';

export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/** How long close() waits for in-flight calls when the caller names no grace period. */
const DEFAULT_CLOSE_GRACE_MS = 10_000;

export async function createHost(options: HostOptions & QuotaHostOptions = {}, dependencies: CreateHostDependencies = {}): Promise<Host> {
  const logger = options.logger ?? silentLogger();
  const workspaceRoot = realpathSync(resolve(options.workspaceRoot ?? process.cwd()));
  const registry = createRegistry(options);
  // Read now: a bad secrets file fails the host before anything has started that would need closing.
  const secrets = createSecretsResolver(options.secretsFile ? { file: options.secretsFile } : {});
  // Shared with the fleet when the composition root gave a Redis-backed state; else this process's memory.
  const state = options.state ?? memorySharedState(defaultReplicaId());
  registerHostState(registry, state);
  const events = createHostEvents(state.events);
  forwardRegistryEvents(registry, events.emit, logger);
  if (options.builtins !== false) await addBuiltins(registry, dependencies);
  // Recorded from here on: the extensions folder's tools, tool set changes, approval decisions (src/audit/).
  dependencies.audit?.attach({ subscribe: events.subscribe, lookupTool: (name) => registry.lookup(name) });
  const { extensions, firstLoad } = await startExtensions(options, dependencies, { workspaceRoot, registry, emit: events.emit, logger });
  let loaded = firstLoad === undefined;
  const ready = (firstLoad ?? Promise.resolve()).then(() => {
    loaded = true;
  });
  const { approvals, quotas } = createGates(options, registry, events.emit, logger, dependencies);
  const resources = new HostResources(logger, dependencies.hostResources);
  /** Aborted when close() gives up waiting: calls still running are told to stop. */
  const shutdown = new AbortController();
  // Every call in flight listens on it (createCallSignal), so dozens at once is normal.
  setMaxListeners(0, shutdown.signal);
  const lookupTool = createToolLookup(
    registry,
    () => extensions?.failures() ?? [],
    (name) => extensions?.pendingFor?.(name) ?? [],
  );
  const defaultTimeoutMs = options.limits?.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const waitForTool = (name: string, waitOptions: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<boolean> =>
    loaded || registry.get(name) !== undefined ? Promise.resolve(true) : waitForSettled(extensions?.whenSettled?.(name), waitOptions.timeoutMs ?? defaultTimeoutMs, waitOptions.signal);
  const sandbox = sandboxSettingsOf(options);
  if (options.principalPolicy !== undefined) registerPrincipalPolicy(registry, options.principalPolicy);
  const calls = new CallRunner({
    workspaceRoot,
    registry,
    lookupTool,
    approvals,
    quotas,
    secrets,
    resources,
    emit: events.emit,
    logger,
    defaultTimeoutMs,
    shutdownSignal: shutdown.signal,
    sandbox,
    audit: dependencies.audit,
    ...(options.principalPolicy !== undefined ? { principalPolicy: options.principalPolicy } : {}),
  });
  const inFlight = new InFlightCalls();
  let closing = false;

  return {
    workspaceRoot,
    sandbox,
    extensionsDir: options.extensionsDir,
    permissionMode: registry.permissionMode,
    registry,
    logger,
    listTools: () => registry.list(),
    callTool(name, args, callOptions = {}) {
      if (closing) return Promise.resolve(errorResult('The host is shutting down; the call was not started. Retry against a running host.'));
      const run = async (): Promise<ToolResult> => {
        if (callOptions.lookedUp === undefined && !loaded && registry.get(name) === undefined) {
          // The tool's file may still be loading: wait for it within the call's deadline (the wait counts against it).
          const started = Date.now();
          await waitForTool(name, { ...(callOptions.timeoutMs !== undefined ? { timeoutMs: callOptions.timeoutMs } : {}), ...(callOptions.signal ? { signal: callOptions.signal } : {}) });
          if (callOptions.timeoutMs !== undefined) callOptions = { ...callOptions, timeoutMs: Math.max(1, callOptions.timeoutMs - (Date.now() - started)) };
        }
        return calls.run(name, args, callOptions);
      };
      return inFlight.track(run().catch((error: unknown) => calls.internalErrorResult(name, error)));
    },
    onEvent: (listener, eventOptions) => events.subscribe(listener, eventOptions?.scope),
    loadFailures: () => extensions?.failures() ?? [],
    lookupTool,
    inFlightCalls: () => inFlight.size,
    readiness: () => ({ ready: loaded, loading: loaded ? [] : (extensions?.pending?.() ?? []), loaded: extensions?.loadedCount?.() ?? 0 }),
    ready,
    waitForTool,
    async close(closeOptions = {}) {
      if (closing) return;
      closing = true;
      await closeHostParts({ principalPolicy: options.principalPolicy, approvals, quotas, resources, inFlight, shutdown, extensions, logger }, closeOptions.graceMs ?? DEFAULT_CLOSE_GRACE_MS);
      await state.close();
      await dependencies.audit?.close();
    },
  };
}

/**
 * What `shell` commands may not touch: the installation and the extensions folder stay read-only,
 * the cache (transpiled code the daemon imports, cached help), the secrets file and the config file
 * are hidden (src/command-sandbox.ts).
 */
function sandboxSettingsOf(options: HostOptions): CommandSandboxSettings {
  return commandSandboxSettings(options.shell, {
    installDirectory: packageRoot(),
    ...(options.extensionsDir ? { extensionsDirectory: options.extensionsDir } : {}),
    cacheDirectory: options.cacheDir ?? defaultCacheDirectory(),
    ...(options.secretsFile ? { secretsFile: options.secretsFile } : {}),
    ...options.protectedPaths,
  });
}

function createRegistry(options: HostOptions): ToolRegistry {
  return new ToolRegistry({
    permissionMode: options.permissionMode ?? 'execute',
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
  });
}

/** The given built-ins, else the shipped ones (imported only now: a host without built-ins never loads them). */
async function addBuiltins(registry: ToolRegistry, dependencies: CreateHostDependencies): Promise<void> {
  const builtins = dependencies.builtinTools ?? (await import('../builtins/index.ts')).builtinTools;
  for (const tool of builtins) registry.add(tool);
}

/**
 * The extension source, when there is a folder and a loader for it, started: its first load done, or
 * with `loadInBackground` still running (`firstLoad` settles when it is; a failure is logged, as the
 * host already serves the built-ins and whatever loaded).
 */
async function startExtensions(
  options: HostOptions,
  dependencies: CreateHostDependencies,
  context: { workspaceRoot: string; registry: ToolRegistry; emit: (event: HostEvent) => void; logger: Logger },
): Promise<{ extensions: ExtensionSource | undefined; firstLoad: Promise<void> | undefined }> {
  if (!options.extensionsDir || !dependencies.extensions) return { extensions: undefined, firstLoad: undefined };
  const { logger, ...sourceContext } = context;
  const extensions = dependencies.extensions({ options, ...sourceContext });
  if (options.loadInBackground !== true) {
    await extensions.start();
    return { extensions, firstLoad: undefined };
  }
  const firstLoad = extensions.start().catch((error: unknown) => {
    logger.error({ error: error instanceof Error ? error.message : String(error) }, 'the extensions folder could not be loaded');
  });
  return { extensions, firstLoad };
}

/**
 * Waits for `settled` (the loads that may provide a tool) for at most `timeoutMs` or until `signal`
 * aborts: true when it settled (or there was nothing to wait for), false when the wait gave up.
 */
async function waitForSettled(settled: Promise<void> | undefined, timeoutMs: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (settled === undefined) return true;
  if (signal?.aborted) return false;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const gaveUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
    onAbort = () => resolve(false);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([settled.then(() => true), gaveUp]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The approval rules with the queue of calls waiting for a person, and the config quotas
 * (per_minute, concurrency): every edge's calls pass through both in the call path. Registered
 * against the registry so the HTTP approval routes and metrics find them.
 */
function createGates(
  options: HostOptions & QuotaHostOptions,
  registry: ToolRegistry,
  emit: (event: HostEvent) => void,
  logger: Logger,
  dependencies: CreateHostDependencies,
): { approvals: ApprovalGate; quotas: QuotaGate } {
  const approvals = new ApprovalGate({
    ...(options.approvals ? { rules: options.approvals } : {}),
    ...(dependencies.sharedApprovals ? { shared: dependencies.sharedApprovals } : {}),
    ...(options.approvalTimeoutMs !== undefined ? { timeoutMs: options.approvalTimeoutMs } : {}),
    emit,
    logger,
  });
  registerHostApprovals(registry, approvals.queue, options.approvals ?? []);
  const quotas = new QuotaGate(options.quotas ?? {}, undefined, options.state?.quotaSlots);
  registerHostQuotas(registry, quotas);
  return { approvals, quotas };
}

interface HostParts {
  principalPolicy?: PrincipalPolicy | undefined;
  approvals: ApprovalGate;
  quotas: QuotaGate;
  resources: HostResources;
  inFlight: InFlightCalls;
  shutdown: AbortController;
  extensions: ExtensionSource | undefined;
  logger: Logger;
}

/**
 * Stops a host in the order that lets calls end soonest: refuse what waits (approvals, quota slots),
 * close per-host resources (a call waiting on a background process returns once it is gone), wait up
 * to `graceMs` for calls, cancel the rest, then stop the extensions (watcher, workers).
 */
async function closeHostParts(parts: HostParts, graceMs: number): Promise<void> {
  parts.approvals.close();
  parts.quotas.close();
  parts.principalPolicy?.close();
  await parts.resources.close();
  await parts.inFlight.settle(graceMs);
  if (parts.inFlight.size > 0) {
    parts.logger.warn({ calls: parts.inFlight.size, graceMs }, 'calls still running after the grace period; cancelling them');
    parts.shutdown.abort(new Error('the host is shutting down'));
  }
  await parts.extensions?.close();
}
