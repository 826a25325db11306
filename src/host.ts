/**
 * The composition root: wires the built-ins, the extensions folder (wasm tools, hot reload),
 * the registry, the secrets source and the bridge into one `Host`.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { callTool } from './bridge/call-tool.ts';
import type { CallToolOptions, Host, HostEvent, HostOptions, LoadFailure } from './host-types.ts';
import { silentLogger } from './logger.ts';
import { ToolRegistry } from './registry.ts';
import { errorResult, type ToolResult } from './result.ts';
import { createSecretsResolver } from './secrets.ts';
import type { AnyTool } from './tool.ts';

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

export async function createHost(options: HostOptions = {}, dependencies: CreateHostDependencies = {}): Promise<Host> {
  const logger = options.logger ?? silentLogger();
  const workspaceRoot = realpathSync(resolve(options.workspaceRoot ?? process.cwd()));
  const registry = new ToolRegistry({
    permissionMode: options.permissionMode ?? 'execute',
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
  });
  const secrets = createSecretsResolver(options.secretsFile ? { file: options.secretsFile } : {});
  const emitter = new EventEmitter<{ event: [HostEvent] }>();
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

  const defaultTimeoutMs = options.limits?.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const inFlight = new Set<Promise<ToolResult>>();
  /** Aborted when close() gives up waiting: calls still running are told to stop. */
  const shutdown = new AbortController();
  let closing = false;

  async function runCall(name: string, args: unknown, callOptions: CallToolOptions): Promise<ToolResult> {
    const lookup = registry.lookup(name);
    if (!lookup.found) return errorResult(lookup.message, { reason: lookup.reason });
    const timeoutMs = callOptions.timeoutMs ?? lookup.tool.timeoutMs ?? defaultTimeoutMs;
    const signals = [AbortSignal.timeout(timeoutMs), shutdown.signal];
    if (callOptions.signal) signals.push(callOptions.signal);
    const callId = callOptions.callId ?? randomUUID();
    const started = performance.now();
    const result = await callTool(lookup.tool, args, {
      workspaceRoot,
      permissionMode: registry.permissionMode,
      callId,
      signal: AbortSignal.any(signals),
      deadline: Date.now() + timeoutMs,
      logger: logger.child({ tool: name, callId }),
      secrets,
    });
    logger.debug({ tool: name, callId, isError: result.is_error, ms: Math.round(performance.now() - started) }, 'tool call');
    return result;
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
      const call = runCall(name, args, callOptions);
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
      return call;
    },
    onEvent(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    loadFailures: () => extensions?.failures() ?? [],
    inFlightCalls: () => inFlight.size,
    async close(closeOptions = {}) {
      if (closing) return;
      closing = true;
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
