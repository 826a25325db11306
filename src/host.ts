/**
 * The composition root: wires the built-ins, the extensions folder (wasm tools, hot reload),
 * the registry, the secrets source and the bridge into one `Host`.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter, setMaxListeners } from 'node:events';
import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ApprovalGate, registerHostApprovals } from './approvals/index.ts';
import { callTool } from './bridge/call-tool.ts';
import { createCallSignal } from './call-signal.ts';
import type { CallToolOptions, Host, HostEvent, HostOptions, LoadFailure } from './host-types.ts';
import { silentLogger } from './logger.ts';
import { ToolRegistry, type ToolLookup } from './registry.ts';
import { errorResult, type ToolResult } from './result.ts';
import { createSecretsResolver } from './secrets.ts';
import type { AnyTool, HostResource, HostResourceKey } from './tool.ts';
import type { NetworkDenial } from './wasm/result-mapping.ts';
import { QuotaGate, registerHostQuotas, type QuotaHostOptions } from './quotas/index.ts';
import { sanitizeToolName } from './tool-name.ts';

export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/** Extension loading plugs in here (see src/extensions/); the host only needs this much of it. */
export interface ExtensionSource {
  start(): Promise<void>;
  failures(): LoadFailure[];
  close(): Promise<void>;
}

export type ExtensionSourceFactory = (context: {
  options: HostOptions;
  workspaceRoot: string;
  registry: ToolRegistry;
  emit: (event: HostEvent) => void;
}) => ExtensionSource;

export interface CreateHostDependencies {
  builtinTools?: readonly AnyTool[];
  extensions?: ExtensionSourceFactory;
}

/** The refusals a wasm call's `metadata.network` lists (see result-mapping's `summarizeNetwork`). */
function networkDenials(result: ToolResult): NetworkDenial[] {
  const network = result.metadata?.['network'];
  if (typeof network !== 'object' || network === null || !('denials' in network) || !Array.isArray(network.denials)) return [];
  return network.denials as NetworkDenial[];
}

export async function createHost(options: HostOptions & QuotaHostOptions = {}, dependencies: CreateHostDependencies = {}): Promise<Host> {
  const logger = options.logger ?? silentLogger();
  const workspaceRoot = realpathSync(resolve(options.workspaceRoot ?? process.cwd()));
  const registry = new ToolRegistry({
    permissionMode: options.permissionMode ?? 'execute',
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
  });
  const secrets = createSecretsResolver(options.secretsFile ? { file: options.secretsFile } : {});
  const emitter = new EventEmitter<{ event: [HostEvent] }>();
  // One listener per MCP session, SSE stream and watcher: many is normal, not a leak (sessions are capped).
  emitter.setMaxListeners(0);
  const emit = (event: HostEvent): void => {
    emitter.emit('event', event);
  };
  const fileOf = (tool: AnyTool): string | undefined => {
    const file = tool.details?.['file'];
    return typeof file === 'string' ? file : undefined;
  };
  registry.on('change', (change) => {
    const file = fileOf(change.tool);
    emit({ type: change.type, name: change.name, source: change.tool.source, ...(file ? { file } : {}) });
  });
  registry.on('collision', (collision) => {
    const file = fileOf(collision.rejected);
    logger.warn({ name: collision.name, reason: collision.reason, file }, 'tool name collision');
    emit({ type: 'collision', name: collision.name, kept: collision.kept.source, rejected: collision.rejected.source, reason: collision.reason, ...(file ? { file } : {}) });
  });

  if (options.builtins !== false) {
    const builtins = dependencies.builtinTools ?? (await import('../builtins/index.ts')).builtinTools;
    for (const tool of builtins) registry.add(tool);
  }

  const extensions = options.extensionsDir && dependencies.extensions ? dependencies.extensions({ options, workspaceRoot, registry, emit }) : undefined;
  if (extensions) await extensions.start();

  /** Approval rules and the queue of calls waiting for a person: every edge's calls pass through it in runCall. */
  const approvals = new ApprovalGate({
    ...(options.approvals ? { rules: options.approvals } : {}),
    ...(options.approvalTimeoutMs !== undefined ? { timeoutMs: options.approvalTimeoutMs } : {}),
    emit,
    logger,
  });
  registerHostApprovals(registry, approvals.queue);
  /** Config quotas (per_minute, concurrency): every edge's calls pass through them in runCall, after approval. */
  const quotas = new QuotaGate(options.quotas ?? {});
  registerHostQuotas(registry, quotas);

  const defaultTimeoutMs = options.limits?.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const inFlight = new Set<Promise<ToolResult>>();
  /** Aborted when close() gives up waiting: calls still running are told to stop. */
  const shutdown = new AbortController();
  // Every call in flight listens on it (createCallSignal), so dozens at once is normal.
  setMaxListeners(0, shutdown.signal);
  let closing = false;

  /** Per-host state of tools (see ToolContext.hostResource), closed first when the host stops. */
  const resources = new Map<HostResourceKey<HostResource>, HostResource>();
  let resourcesClosed = false;
  function hostResource<Resource extends HostResource>(key: HostResourceKey<Resource>): Resource {
    const existing = resources.get(key);
    if (existing) return existing as Resource;
    const created = key.create();
    if (resourcesClosed) {
      // A call that was already running when the host stopped: it gets a resource that refuses work.
      void created.close();
      return created;
    }
    resources.set(key, created);
    return created;
  }
  async function closeResources(): Promise<void> {
    resourcesClosed = true;
    const closings = [...resources].map(async ([key, resource]) => {
      try {
        await resource.close();
      } catch (error) {
        logger.warn({ resource: key.name, error: error instanceof Error ? error.message : String(error) }, 'a host resource failed to close');
      }
    });
    resources.clear();
    await Promise.all(closings);
  }

  function lookupTool(name: string): ToolLookup {
    const lookup = registry.lookup(name);
    if (lookup.found || lookup.reason !== 'unknown') return lookup;
    const failure = extensions?.failures().find((candidate) => sanitizeToolName(basename(candidate.file)) === name);
    if (!failure) return lookup;
    return {
      found: false,
      reason: 'load_failed',
      file: failure.file,
      error: failure.error,
      message: `Tool "${name}" is not available: its file ${basename(failure.file)} failed to load: ${failure.error}`,
    };
  }

  /** `parentDeadline`: a nested call (ToolContext.callTool) ends by its caller's deadline at the latest. */
  async function runCall(name: string, args: unknown, callOptions: CallToolOptions, parentDeadline?: number): Promise<ToolResult> {
    const lookup = lookupTool(name);
    if (!lookup.found) {
      const details = lookup.reason === 'load_failed' ? { file: lookup.file, load_error: lookup.error } : {};
      return errorResult(lookup.message, { reason: lookup.reason, ...details });
    }
    const callId = callOptions.callId ?? randomUUID();
    // Before the call's deadline starts: time spent waiting for a person is not the tool's time.
    const asked = performance.now();
    const refusal = await approvals.check(lookup.tool, args, { callId, signal: callOptions.signal, approve: callOptions.approve });
    if (refusal !== undefined) {
      emit({ type: 'call_finished', tool: name, call_id: callId, duration_ms: Math.round((performance.now() - asked) * 1000) / 1000, is_error: true });
      return refusal;
    }
    // Quotas after approval (a denied call uses none) and before the deadline starts (queueing is not the tool's time).
    const admission = await quotas.admit(name, callOptions.signal);
    if (!admission.ok) {
      emit({ type: 'call_finished', tool: name, call_id: callId, duration_ms: Math.round((performance.now() - asked) * 1000) / 1000, is_error: true });
      return admission.result;
    }
    const ownTimeoutMs = callOptions.timeoutMs ?? lookup.tool.timeoutMs ?? defaultTimeoutMs;
    const timeoutMs = parentDeadline === undefined ? ownTimeoutMs : Math.max(1, Math.min(ownTimeoutMs, parentDeadline - Date.now()));
    const callSignal = createCallSignal(timeoutMs, [shutdown.signal, callOptions.signal]);
    const started = performance.now();
    const deadline = Date.now() + timeoutMs;
    let result: ToolResult;
    try {
      result = await callTool(lookup.tool, args, {
        workspaceRoot,
        permissionMode: registry.permissionMode,
        callId,
        signal: callSignal.signal,
        deadline,
        logger: logger.child({ tool: name, callId }),
        secrets,
        listTools: () => registry.list(),
        hostResource,
        // A nested call (run_code's `tools.x()`) takes the same path as any other: approvals, permission
        // mode, policy, its own timeout; it stops with this call and gets at most the time this call has left.
        callTool: (innerName, innerArgs) =>
          runCall(innerName, innerArgs, { signal: callSignal.signal, ...(callOptions.approve ? { approve: callOptions.approve } : {}) }, deadline).catch(
            (error: unknown) => internalErrorResult(innerName, error),
          ),
      });
    } finally {
      callSignal.dispose();
      admission.release();
    }
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    logger.debug({ tool: name, callId, isError: result.is_error, ms: Math.round(durationMs) }, 'tool call');
    for (const denial of networkDenials(result)) {
      logger.warn({ tool: name, callId, ...denial }, 'network request denied by policy');
      emit({ type: 'network_denied', tool: name, call_id: callId, ...denial });
    }
    emit({ type: 'call_finished', tool: name, call_id: callId, duration_ms: durationMs, is_error: result.is_error });
    return result;
  }

  /** A throw that escaped the bridge is a host bug: log it whole, answer the caller with a result. */
  function internalErrorResult(name: string, error: unknown): ToolResult {
    logger.error({ tool: name, error: error instanceof Error ? error.stack ?? error.message : String(error) }, 'internal error while calling a tool');
    return errorResult(`Internal error in the tool host while calling "${name}"; the call did not complete. The host keeps running; see its log.`, { reason: 'internal_error' });
  }

  const host: Host = {
    workspaceRoot,
    extensionsDir: options.extensionsDir,
    permissionMode: registry.permissionMode,
    registry,
    logger,
    listTools: () => registry.list(),
    callTool(name, args, callOptions = {}) {
      if (closing) return Promise.resolve(errorResult('The host is shutting down; the call was not started. Retry against a running host.'));
      const call = runCall(name, args, callOptions).catch((error: unknown) => internalErrorResult(name, error));
      inFlight.add(call);
      const forget = (): void => {
        inFlight.delete(call);
      };
      call.then(forget, forget);
      return call;
    },
    onEvent(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    loadFailures: () => extensions?.failures() ?? [],
    lookupTool,
    inFlightCalls: () => inFlight.size,
    async close(closeOptions = {}) {
      if (closing) return;
      closing = true;
      // Calls waiting for a person are refused now rather than holding shutdown for the approval timeout.
      approvals.close();
      // So are calls queued for a quota slot.
      quotas.close();
      // Background processes die with the host; a call waiting on one returns as soon as it is gone.
      await closeResources();
      const graceMs = closeOptions.graceMs ?? 10_000;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise<void>((resolveWait) => {
          timer = setTimeout(resolveWait, graceMs);
        }),
      ]);
      if (timer) clearTimeout(timer);
      if (inFlight.size > 0) {
        logger.warn({ calls: inFlight.size, graceMs }, 'calls still running after the grace period; cancelling them');
        shutdown.abort(new Error('the host is shutting down'));
      }
      await extensions?.close();
    },
  };
  return host;
}
