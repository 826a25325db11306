/**
 * The composition root: the one place that decides what an application host is made of and wires it.
 * A host is the shipped built-ins plus the wasm tools of the extensions folder (createHost), and an
 * edge serves it: the HTTP daemon (`composeServer`), MCP over stdio (`composeMcpStdio`), or a CLI
 * command that makes its calls and exits (`composeHost`). Every entry point (the CLI commands, and
 * `runServeCommand`/`runMcpStdioCommand` for embedders) comes through here, from a resolved
 * configuration (src/config.ts).
 *
 * Start-up is paid on every `toolhost` run, so this module imports nothing but types when it loads:
 * the host, the built-ins, the wasm runtime and each edge are imported by the function that needs
 * them, when it runs (the wasm runtime only when there is an extensions folder to load; OpenTelemetry
 * only when `telemetry` is configured).
 */
import type { ResolvedConfig } from './config.ts';
import type { WasmExtensionsOptions } from './extensions/wasm-extensions.ts';
import type { CreateHostDependencies, ExtensionSource, ExtensionSourceFactory, Host, HostOptions } from './host-types.ts';
import type { Logger } from './logger.ts';
import type { ResourceSource } from './resources/types.ts';
import type { ScheduleService } from './schedules/types.ts';
import type { McpStdioSession } from './server/mcp-stdio.ts';
import type { RunningServer } from './server/serve.ts';
import type { FleetState } from './state/fleet.ts';
import type { SharedState } from './state/shared-state.ts';
import type { Telemetry } from './telemetry/span.ts';

export interface ComposeOptions {
  config: ResolvedConfig;
  logger: Logger;
  /** Hot-reload the extensions folder (the long-running edges do; a one-shot CLI run does not). */
  watch: boolean;
  /** How the extensions folder loads: which runtime, which files, when to compile (see WasmExtensionsOptions). */
  extensions?: WasmExtensionsOptions;
  /** Called once per extension file while the first load runs (the CLI's progress line). */
  onLoadProgress?: HostOptions['onLoadProgress'];
  /** Parts to use instead of the defaults: other built-in tools, another extension loader (tests, embedders). */
  dependencies?: CreateHostDependencies;
  /**
   * Load the extensions folder after the host is returned (HostOptions.loadInBackground). Default:
   * true for `composeServer` (the daemon listens at once, `/readyz` tells when the folder has
   * loaded) and `composeMcpStdio` (the session starts at once, tools/list_changed announces each
   * tool as it loads), false for the others.
   */
  loadInBackground?: boolean;
  /** MCP resource sources served besides the workspace (`file:///{path}`): an embedder's, or a test fixture's. */
  resourceSources?: readonly ResourceSource[];
}

/**
 * What a replica shares with its fleet (config `state`): the shared state (quota slots, the event
 * fan-out; src/state/index.ts) and, on its one Redis connection, the fleet's approvals, background
 * processes and MCP session records (src/state/fleet.ts). Without `state` only the in-memory state.
 */
export interface ComposedState {
  state: SharedState;
  fleet: FleetState | undefined;
}

/** Opens the replica's shared state (and the fleet's stores on its Redis connection when there is one). */
async function openState(options: ComposeOptions): Promise<ComposedState> {
  const { openSharedState } = await import('./state/index.ts');
  const state = await openSharedState(options.config.state, { env: process.env, logger: options.logger });
  if (state.redis === undefined) return { state, fleet: undefined };
  try {
    const { openFleetState } = await import('./state/fleet.ts');
    return { state, fleet: await openFleetState(state.redis, { logger: options.logger }) };
  } catch (error) {
    await state.close();
    throw error;
  }
}

/**
 * A host with the built-ins and the extensions folder, as `options.config.host` describes; with
 * `config.state` its quotas, events, approvals and background processes are the fleet's, released
 * when the host closes. `shared`: state the caller opened already (the daemon shares it with its
 * server); else opened here.
 */
export async function composeHost(options: ComposeOptions, shared?: ComposedState): Promise<Host> {
  const { createHost } = await import('./host.ts');
  // Identity mode: the per-principal policy every call with a principal passes (src/identity/policy.ts).
  const identity = options.config.identity;
  const principalPolicy =
    identity === undefined
      ? undefined
      : (await import('./identity/policy.ts')).createPrincipalPolicy({ hostMode: options.config.host.permissionMode ?? 'execute', scopes: identity.auth.scopes, rules: identity.principals });
  // Where shared state lives (config `state`, TOOLHOST_REDIS_URL): Redis for a fleet, else this process's memory.
  const { state, fleet } = shared ?? (await openState(options));
  // The fleet's stores close with the shared state, before its connection: after the host's own parts.
  const hostState: SharedState =
    fleet === undefined
      ? state
      : {
          ...state,
          async close() {
            await fleet.close();
            await state.close();
          },
        };
  try {
    return await createHost(
      {
        ...options.config.host,
        state: hostState,
        ...(principalPolicy !== undefined ? { principalPolicy } : {}),
        logger: options.logger,
        watch: options.watch,
        ...(options.onLoadProgress ? { onLoadProgress: options.onLoadProgress } : {}),
        ...(options.loadInBackground === true ? { loadInBackground: true } : {}),
      },
      { extensions: lazyWasmExtensions(options.extensions), ...fleetDependencies(fleet), ...options.dependencies },
    );
  } catch (error) {
    // The host owns the state once made; a host that failed to start leaves it to be closed here.
    await hostState.close();
    throw error;
  }
}

function fleetDependencies(fleet: FleetState | undefined): Pick<NonNullable<ComposeOptions['dependencies']>, 'sharedApprovals' | 'hostResources'> {
  return fleet === undefined ? {} : { sharedApprovals: fleet.approvals, hostResources: fleet.hostResources };
}

/**
 * The HTTP daemon on a host; resolves once listening, which (unless `loadInBackground: false`) is
 * before the extensions folder has loaded: the built-ins are served at once, each wasm tool as its
 * file loads, and `host.ready` / `GET /readyz` tell when the first load is done. Bind settings the
 * server would refuse are refused before the host loads; a server that cannot listen closes the host
 * it was given.
 * @throws ToolHostError('SERVER_START_REFUSED' | 'SERVER_LISTEN_FAILED')
 */
export async function composeServer(options: ComposeOptions): Promise<{ host: Host; server: RunningServer }> {
  const { checkBindSettings, serverOptionsOf, startServer } = await import('./server/serve.ts');
  const identity = options.config.identity;
  const serverOptions = { ...serverOptionsOf(options.config.server), ...(identity !== undefined ? { auth: identity.auth } : {}) };
  await checkBindSettings(serverOptions);
  const shared = await openState(options);
  const host = await withAudit(options, (audited) => composeHost({ ...audited, loadInBackground: options.loadInBackground ?? true }, shared));
  const schedules = await composeSchedules(options);
  const telemetry = await composeTelemetry(options.config);
  try {
    const resourceSources = options.resourceSources !== undefined ? { resourceSources: options.resourceSources } : {};
    const scheduleOption = schedules !== undefined ? { schedules: schedules.factory } : {};
    const sessions = shared.fleet !== undefined ? { mcpSessionStore: shared.fleet.mcpSessions } : {};
    const tracing = telemetry !== undefined ? { telemetry } : {};
    return { host, server: await startServer(host, { ...serverOptions, logger: options.logger, ...resourceSources, ...scheduleOption, ...sessions, ...tracing }) };
  } catch (error) {
    await host.close({ graceMs: 0 });
    await schedules?.closeConnection();
    await telemetry?.shutdown();
    throw error;
  }
}

/**
 * The daemon's scheduler for the config's `schedules` (none: nothing is imported), with its state in
 * Redis when `state.redis` is set (its own connection, closed with the scheduler).
 */
async function composeSchedules(options: ComposeOptions): Promise<{ factory: (host: Host) => ScheduleService; closeConnection(): Promise<void> } | undefined> {
  const { schedules, state } = options.config;
  if (schedules.length === 0) return undefined;
  const { createScheduler } = await import('./schedules/index.ts');
  const connection = state === undefined ? undefined : await (await import('./state/redis-connection.ts')).openRedisConnection({ url: state.redis });
  const closeConnection = async (): Promise<void> => connection?.close();
  return {
    closeConnection,
    factory: (host) => {
      const scheduler = createScheduler({ schedules, host, logger: options.logger, ...(connection !== undefined ? { connection } : {}) });
      return {
        start: () => scheduler.start(),
        list: () => scheduler.list(),
        stop: () => scheduler.stop(),
        close: async () => {
          await scheduler.close();
          await closeConnection();
        },
      };
    },
  };
}

/**
 * Traces and metrics over OTLP when the config has `telemetry` (or OTEL_EXPORTER_OTLP_ENDPOINT is
 * set); undefined otherwise, and then no OpenTelemetry module is loaded. The caller shuts it down.
 */
export async function composeTelemetry(config: ResolvedConfig): Promise<Telemetry | undefined> {
  if (config.telemetry === undefined) return undefined;
  const [{ createOtelTelemetry }, { TOOLHOST_VERSION }] = await Promise.all([import('./telemetry/otel.ts'), import('./server/version.ts')]);
  return createOtelTelemetry(config.telemetry, { serviceVersion: TOOLHOST_VERSION });
}

export interface ComposedMcpStdio {
  host: Host;
  session: McpStdioSession;
  /** Settles once the client has hung up (stdin ended) and the host has closed after it. */
  closed: Promise<void>;
  /** Closes the host (in-flight calls get up to `graceMs`), then the session. */
  close(graceMs?: number): Promise<void>;
}

/**
 * MCP over stdio on a host (stdout carries only JSON-RPC: the logger must write to stderr). Resolves
 * once connected, which (unless `loadInBackground: false`) is before the extensions folder has
 * loaded: each wasm tool is listed as its file loads (notifications/tools/list_changed), a call to
 * one still loading waits for it, and `host.ready` tells when the first load is done.
 */
export async function composeMcpStdio(options: ComposeOptions & { graceMs?: number }): Promise<ComposedMcpStdio> {
  const host = await composeHost({ ...options, loadInBackground: options.loadInBackground ?? true });
  const telemetry = await composeTelemetry(options.config);
  const { serveMcpStdio } = await import('./server/mcp-stdio.ts');
  const session = await serveMcpStdio(host, {
    ...(options.resourceSources !== undefined ? { resourceSources: options.resourceSources } : {}),
    ...(telemetry !== undefined ? { telemetry } : {}),
  });
  // The last spans are flushed once the host has closed.
  const closed = session.closed.then(() => host.close(options.graceMs !== undefined ? { graceMs: options.graceMs } : {})).finally(() => telemetry?.shutdown());
  return {
    host,
    session,
    closed,
    async close(graceMs = options.graceMs) {
      await host.close(graceMs !== undefined ? { graceMs } : {});
      await session.close();
      await telemetry?.shutdown();
    },
  };
}

/**
 * Runs `compose` with the audit log (config `audit`) among the host's parts: the daemon records every
 * call, approval decision and tool change there (src/audit/). Imported and opened only when the
 * config has `audit`; closed again when the host cannot be made (the host closes it otherwise).
 * @throws ToolHostError('AUDIT_LOG_IN_USE' | 'AUDIT_LOG_DAMAGED' | 'AUDIT_LOG_FAILED')
 */
async function withAudit(options: ComposeOptions, compose: (options: ComposeOptions) => Promise<Host>): Promise<Host> {
  if (options.config.audit === undefined) return compose(options);
  const { openHostAudit } = await import('./audit/index.ts');
  const audit = await openHostAudit(options.config.audit, options.logger);
  try {
    return await compose({ ...options, dependencies: { ...options.dependencies, audit } });
  } catch (error) {
    await audit.close();
    throw error;
  }
}

/**
 * The wasm extension loader, imported when the host starts it: a host is only given one when it has
 * an extensions folder, so runs on built-ins alone never load jco or the worker pool.
 */
function lazyWasmExtensions(options: WasmExtensionsOptions = {}): ExtensionSourceFactory {
  return (context) => {
    let source: ExtensionSource | undefined;
    /** Set by start: the source, once its module is imported (what a wait for a tool waits on until then). */
    let created: Promise<ExtensionSource> | undefined;
    let closed = false;
    return {
      async start() {
        created = import('./extensions/wasm-extensions.ts').then(({ wasmExtensions }) => (source = wasmExtensions(options)(context)));
        const started = await created;
        if (!closed) await started.start();
      },
      failures: () => source?.failures() ?? [],
      pending: () => source?.pending?.() ?? [],
      pendingFor: (name) => source?.pendingFor?.(name) ?? [],
      loadedCount: () => source?.loadedCount?.() ?? 0,
      whenSettled(name) {
        if (source !== undefined) return source.whenSettled?.(name);
        return created?.then((started) => started.whenSettled?.(name));
      },
      async close() {
        closed = true;
        await source?.close();
      },
    };
  };
}
