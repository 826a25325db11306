/**
 * Config key `telemetry`: where traces and metrics go. `{"otlp_endpoint": URL, "service_name"?: S}`
 * (or the standard env `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`) is the OTLP/HTTP base URL
 * as the OpenTelemetry spec defines it: traces go to `<base>/v1/traces`, metrics to
 * `<base>/v1/metrics`. Absent: telemetry is off, and no OpenTelemetry module is ever loaded.
 * The environment's endpoint replaces the file's `telemetry` (env > file, like every other key);
 * `OTEL_SERVICE_NAME` names the service when the chosen `telemetry` has no `service_name`.
 */
import { z } from 'zod';

export const OTLP_ENDPOINT_ENV = 'OTEL_EXPORTER_OTLP_ENDPOINT';
export const SERVICE_NAME_ENV = 'OTEL_SERVICE_NAME';
export const DEFAULT_SERVICE_NAME = 'toolhost';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const telemetryConfigSchema = z
  .object({
    /** The OTLP/HTTP base URL, e.g. `http://127.0.0.1:4318` (traces to `<base>/v1/traces`). */
    otlp_endpoint: z.string().min(1).refine(isHttpUrl, 'must be an http:// or https:// URL with a host, e.g. "http://127.0.0.1:4318"'),
    /** The `service.name` resource attribute. Default "toolhost". */
    service_name: z.string().min(1).max(256).optional(),
  })
  .strict();

export type TelemetryConfigFile = z.infer<typeof telemetryConfigSchema>;

/** What the composition root needs to start telemetry. */
export interface TelemetryConfig {
  /** The OTLP/HTTP base URL, without a trailing slash. */
  otlpEndpoint: string;
  serviceName: string;
}

/** The `telemetry` layer the environment gives (undefined when `OTEL_EXPORTER_OTLP_ENDPOINT` is unset). */
export function telemetryFromEnv(read: (name: string) => string | undefined): TelemetryConfigFile | undefined {
  const endpoint = read(OTLP_ENDPOINT_ENV);
  if (endpoint === undefined) return undefined;
  const serviceName = read(SERVICE_NAME_ENV);
  return serviceName === undefined ? { otlp_endpoint: endpoint } : { otlp_endpoint: endpoint, service_name: serviceName };
}

export function resolveTelemetryConfig(file: TelemetryConfigFile | undefined, envServiceName?: string): TelemetryConfig | undefined {
  if (file === undefined) return undefined;
  const fromEnv = envServiceName?.trim();
  return { otlpEndpoint: file.otlp_endpoint.replace(/\/+$/, ''), serviceName: file.service_name ?? (fromEnv === undefined || fromEnv === '' ? DEFAULT_SERVICE_NAME : fromEnv) };
}

/** `<base>/v1/<signal>`, the per-signal URL the spec derives from the base endpoint. */
export function signalUrl(config: TelemetryConfig, signal: 'traces' | 'metrics'): string {
  return `${config.otlpEndpoint}/v1/${signal}`;
}
