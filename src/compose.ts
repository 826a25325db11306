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
import type { McpStdioSession } from './server/mcp-stdio.ts';
import type { RunningServer } from './server/serve.ts';
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

/** A host with the built-ins and the extensions folder, as `options.config.host` describes. */
export async function composeHost(options: ComposeOptions): Promise<Host> {
  const { createHost } = await import('./host.ts');
  return createHost(
    {
      ...options.config.host,
      logger: options.logger,
      watch: options.watch,
      ...(options.onLoadProgress ? { onLoadProgress: options.onLoadProgress } : {}),
      ...(options.loadInBackground === true ? { loadInBackground: true } : {}),
    },
    { extensions: lazyWasmExtensions(options.extensions), ...options.dependencies },
  );
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
  const serverOptions = serverOptionsOf(options.config.server);
  await checkBindSettings(serverOptions);
  const host = await composeHost({ ...options, loadInBackground: options.loadInBackground ?? true });
  const telemetry = await composeTelemetry(options.config);
  try {
    const resourceSources = options.resourceSources !== undefined ? { resourceSources: options.resourceSources } : {};
    return { host, server: await startServer(host, { ...serverOptions, logger: options.logger, ...resourceSources, ...(telemetry !== undefined ? { telemetry } : {}) }) };
  } catch (error) {
    await host.close({ graceMs: 0 });
    await telemetry?.shutdown();
    throw error;
  }
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
