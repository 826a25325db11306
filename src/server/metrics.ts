/**
 * Prometheus metrics in the text exposition format (version 0.0.4), one registry per server:
 * calls and errors per tool, a latency histogram per tool, loaded tools, reloads and load failures.
 * Hand-written to keep one small, dependency-free, per-instance registry (no global state).
 */
import type { CallToolOptions, Host, HostEvent } from '../host-types.ts';
import { hostQuotas } from '../quotas/index.ts';
import type { ToolResult } from '../result.ts';
import type { CallHistory } from './call-history.ts';
import type { CallListener, MetricsSnapshot, MetricsSource } from '../telemetry/metrics-source.ts';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Latency buckets in seconds. */
export const CALL_DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Label for calls of names the registry does not hold (keeps label cardinality bounded). */
export const UNKNOWN_TOOL_LABEL = '(unknown)';

interface ToolCallStats {
  calls: number;
  errors: number;
  bucketCounts: number[];
  durationSum: number;
}

export class ServerMetrics implements MetricsSource {
  private readonly perTool = new Map<string, ToolCallStats>();
  private reloads = 0;
  private loadFailures = 0;
  /** Refused outgoing requests by tool and kind (key: tool NUL kind). */
  private readonly networkDenials = new Map<string, number>();
  private readonly host: Host;
  private readonly unsubscribe: () => void;
  /** Exporters hearing each call (OTLP metrics, src/telemetry/otel-metrics.ts); usually none. */
  private callListeners: CallListener[] | undefined;

  constructor(host: Host) {
    this.host = host;
    this.unsubscribe = host.onEvent((event) => this.recordEvent(event));
  }

  recordCall(toolName: string, durationSeconds: number, isError: boolean): void {
    const label = this.host.registry.get(toolName) ? toolName : UNKNOWN_TOOL_LABEL;
    let stats = this.perTool.get(label);
    if (!stats) {
      stats = { calls: 0, errors: 0, bucketCounts: CALL_DURATION_BUCKETS.map(() => 0), durationSum: 0 };
      this.perTool.set(label, stats);
    }
    stats.calls += 1;
    if (isError) stats.errors += 1;
    stats.durationSum += durationSeconds;
    CALL_DURATION_BUCKETS.forEach((bound, index) => {
      if (durationSeconds <= bound) stats.bucketCounts[index] = (stats.bucketCounts[index] ?? 0) + 1;
    });
    if (this.callListeners !== undefined) for (const listener of this.callListeners) listener(label, durationSeconds, isError);
  }

  onCall(listener: CallListener): () => void {
    this.callListeners = [...(this.callListeners ?? []), listener];
    return () => {
      const left = (this.callListeners ?? []).filter((other) => other !== listener);
      this.callListeners = left.length === 0 ? undefined : left;
    };
  }

  /** The counters and gauges `render` shows, as data (for the OTLP exporter). */
  snapshot(): MetricsSnapshot {
    return {
      tools: [...this.perTool].map(([tool, stats]) => ({ tool, calls: stats.calls, errors: stats.errors })),
      networkDenials: [...this.networkDenials].map(([key, count]) => {
        const [tool = '', kind = ''] = key.split('\u0000');
        return { tool, kind, count };
      }),
      quotas: (hostQuotas(this.host)?.metrics() ?? []).map((quota) => ({ key: quota.key, inUse: quota.inUse, waiting: quota.waiting, windowCalls: quota.windowCalls, queued: quota.queued, refused: { ...quota.refused } })),
      toolsLoaded: this.host.listTools().length,
      callsInFlight: this.host.inFlightCalls(),
      reloads: this.reloads,
      loadFailuresTotal: this.loadFailures,
      loadFailuresCurrent: this.host.loadFailures().length,
    };
  }

  recordEvent(event: HostEvent): void {
    if (event.type === 'updated') this.reloads += 1;
    if (event.type === 'load_failed') this.loadFailures += 1;
    if (event.type === 'network_denied') {
      const key = `${event.tool}\u0000${event.kind}`;
      this.networkDenials.set(key, (this.networkDenials.get(key) ?? 0) + 1);
    }
  }

  /** The exposition text for `GET /metrics`. */
  render(): string {
    const lines: string[] = [];
    const tools = [...this.perTool.keys()].sort();
    const family = (name: string, type: string, help: string): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    };
    family('toolhost_tool_calls_total', 'counter', 'Tool calls, by tool.');
    for (const tool of tools) lines.push(`toolhost_tool_calls_total{tool="${escapeLabel(tool)}"} ${this.perTool.get(tool)?.calls ?? 0}`);
    family('toolhost_tool_call_errors_total', 'counter', 'Tool calls that returned is_error, by tool.');
    for (const tool of tools) lines.push(`toolhost_tool_call_errors_total{tool="${escapeLabel(tool)}"} ${this.perTool.get(tool)?.errors ?? 0}`);
    family('toolhost_tool_call_duration_seconds', 'histogram', 'Tool call latency in seconds, by tool.');
    for (const tool of tools) {
      const stats = this.perTool.get(tool);
      if (!stats) continue;
      const label = escapeLabel(tool);
      CALL_DURATION_BUCKETS.forEach((bound, index) => {
        lines.push(`toolhost_tool_call_duration_seconds_bucket{tool="${label}",le="${bound}"} ${stats.bucketCounts[index] ?? 0}`);
      });
      lines.push(`toolhost_tool_call_duration_seconds_bucket{tool="${label}",le="+Inf"} ${stats.calls}`);
      lines.push(`toolhost_tool_call_duration_seconds_sum{tool="${label}"} ${stats.durationSum}`);
      lines.push(`toolhost_tool_call_duration_seconds_count{tool="${label}"} ${stats.calls}`);
    }
    family('toolhost_network_denied_total', 'counter', 'Outgoing requests of wasm tools refused by their network policy, by tool and kind.');
    for (const [key, count] of [...this.networkDenials].sort(([a], [b]) => a.localeCompare(b))) {
      const [tool = '', kind = ''] = key.split('\u0000');
      lines.push(`toolhost_network_denied_total{tool="${escapeLabel(tool)}",kind="${escapeLabel(kind)}"} ${count}`);
    }
    this.renderQuotas(lines, family);
    family('toolhost_tools_loaded', 'gauge', 'Tools visible to clients.');
    lines.push(`toolhost_tools_loaded ${this.host.listTools().length}`);
    family('toolhost_tool_calls_in_flight', 'gauge', 'Tool calls currently running.');
    lines.push(`toolhost_tool_calls_in_flight ${this.host.inFlightCalls()}`);
    family('toolhost_tool_reloads_total', 'counter', 'Tools replaced by a new version (hot reload).');
    lines.push(`toolhost_tool_reloads_total ${this.reloads}`);
    family('toolhost_extension_load_failures_total', 'counter', 'Extension files that failed to load since start.');
    lines.push(`toolhost_extension_load_failures_total ${this.loadFailures}`);
    family('toolhost_extension_load_failures', 'gauge', 'Extension files currently failing to load.');
    lines.push(`toolhost_extension_load_failures ${this.host.loadFailures().length}`);
    return `${lines.join('\n')}\n`;
  }

  /**
   * Quota families, present only when the host has quotas. Their `tool` label is the quota's config
   * key as written (a tool name or a glob), since a glob quota is one budget shared by its tools.
   */
  private renderQuotas(lines: string[], family: (name: string, type: string, help: string) => void): void {
    const quotas = hostQuotas(this.host)?.metrics() ?? [];
    if (quotas.length === 0) return;
    family('toolhost_quota_in_use', 'gauge', 'Calls running under a quota, by quota key (tool name or glob).');
    for (const quota of quotas) lines.push(`toolhost_quota_in_use{tool="${escapeLabel(quota.key)}"} ${quota.inUse}`);
    family('toolhost_quota_waiting', 'gauge', 'Calls queued for a concurrency slot of a quota, by quota key.');
    for (const quota of quotas) lines.push(`toolhost_quota_waiting{tool="${escapeLabel(quota.key)}"} ${quota.waiting}`);
    family('toolhost_quota_window_calls', 'gauge', 'Calls admitted under a quota in the last 60 seconds, by quota key.');
    for (const quota of quotas) lines.push(`toolhost_quota_window_calls{tool="${escapeLabel(quota.key)}"} ${quota.windowCalls}`);
    family('toolhost_quota_queued_total', 'counter', 'Calls that waited in a quota queue, by quota key.');
    for (const quota of quotas) lines.push(`toolhost_quota_queued_total{tool="${escapeLabel(quota.key)}"} ${quota.queued}`);
    family('toolhost_quota_refused_total', 'counter', 'Calls refused by a quota, by quota key and reason (per_minute, concurrency, queue_timeout, cancelled).');
    for (const quota of quotas) {
      for (const [reason, count] of Object.entries(quota.refused)) lines.push(`toolhost_quota_refused_total{tool="${escapeLabel(quota.key)}",reason="${reason}"} ${count}`);
    }
  }

  close(): void {
    this.unsubscribe();
  }
}

/**
 * A view of `host` whose `callTool` is timed and counted (and, given a `history`, recorded there);
 * every edge (HTTP, dispatch, MCP) calls through it, so metrics are recorded in one place.
 */
export function instrumentHost(host: Host, metrics: ServerMetrics, history?: CallHistory): Host {
  const callTool = async (name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult> => {
    const started = performance.now();
    // The history hands the call its id, so the host's approval events for it can be matched.
    const recording = history?.open(name, args, { callId: options?.callId, transport: options?.transport, lookedUp: options?.lookedUp });
    const result = await host.callTool(name, args, recording === undefined ? options : { ...options, callId: recording.callId });
    metrics.recordCall(name, (performance.now() - started) / 1000, result.is_error);
    recording?.finish(result);
    return result;
  };
  return {
    get workspaceRoot() {
      return host.workspaceRoot;
    },
    get sandbox() {
      return host.sandbox;
    },
    get extensionsDir() {
      return host.extensionsDir;
    },
    get permissionMode() {
      return host.permissionMode;
    },
    get registry() {
      return host.registry;
    },
    get logger() {
      return host.logger;
    },
    listTools: () => host.listTools(),
    lookupTool: (name) => host.lookupTool(name),
    callTool,
    onEvent: (listener, options) => host.onEvent(listener, options),
    loadFailures: () => host.loadFailures(),
    inFlightCalls: () => host.inFlightCalls(),
    readiness: () => host.readiness(),
    get ready() {
      return host.ready;
    },
    waitForTool: (name, options) => host.waitForTool(name, options),
    close: (options) => host.close(options),
  };
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
