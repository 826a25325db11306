/**
 * Config key `telemetry` (`{"otlp_endpoint": URL, "service_name"?: S}`, strict) and the standard
 * OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_SERVICE_NAME, through the real loader: off by default, env over
 * file, the per-signal URL `<base>/v1/traces`, and refusals of what is not an http(s) base URL.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.ts';
import { signalUrl } from '../../src/telemetry/config.ts';
import { temporaryDirectory } from '../server/helpers.ts';

function withConfigFile(content: unknown): string {
  const file = join(temporaryDirectory('toolhost-telemetry-config-'), 'toolhost.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('telemetry config', () => {
  it('is off without the key or the variable', () => {
    expect(resolveConfig({ env: {} }).telemetry).toBeUndefined();
    expect(resolveConfig({ env: { OTEL_SERVICE_NAME: 'alone' } }).telemetry).toBeUndefined();
  });

  it('reads the config key; the service name defaults to "toolhost"; traces go to <base>/v1/traces', () => {
    const configFile = withConfigFile({ telemetry: { otlp_endpoint: 'http://collector.internal:4318/' } });
    const telemetry = resolveConfig({ env: {}, configFile }).telemetry;
    expect(telemetry).toEqual({ otlpEndpoint: 'http://collector.internal:4318', serviceName: 'toolhost' });
    expect(signalUrl(telemetry!, 'traces')).toBe('http://collector.internal:4318/v1/traces');
    expect(signalUrl(telemetry!, 'metrics')).toBe('http://collector.internal:4318/v1/metrics');
    // A base with a path keeps it (the spec appends v1/<signal> to the base).
    const prefixed = resolveConfig({ env: {}, configFile: withConfigFile({ telemetry: { otlp_endpoint: 'https://gateway.example/otlp' } }) }).telemetry;
    expect(signalUrl(prefixed!, 'traces')).toBe('https://gateway.example/otlp/v1/traces');
  });

  it('reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME; the variable wins over the file, as every variable does', () => {
    expect(resolveConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'agents-tools' } }).telemetry).toEqual({
      otlpEndpoint: 'http://127.0.0.1:4318',
      serviceName: 'agents-tools',
    });
    const configFile = withConfigFile({ telemetry: { otlp_endpoint: 'http://from-file:4318', service_name: 'file-name' } });
    expect(resolveConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://from-env:4318' }, configFile }).telemetry).toEqual({ otlpEndpoint: 'http://from-env:4318', serviceName: 'toolhost' });
    // OTEL_SERVICE_NAME names the service of a file's telemetry that names none.
    const unnamed = withConfigFile({ telemetry: { otlp_endpoint: 'http://from-file:4318' } });
    expect(resolveConfig({ env: { OTEL_SERVICE_NAME: 'env-name' }, configFile: unnamed }).telemetry?.serviceName).toBe('env-name');
  });

  it.each([
    { name: 'an unknown key (strict)', telemetry: { otlp_endpoint: 'http://127.0.0.1:4318', headers: { authorization: 'x' } }, message: 'headers' },
    { name: 'no endpoint', telemetry: { service_name: 'x' }, message: 'otlp_endpoint' },
    { name: 'a gRPC-style endpoint without a scheme', telemetry: { otlp_endpoint: '127.0.0.1:4317' }, message: 'http:// or https://' },
    { name: 'another scheme', telemetry: { otlp_endpoint: 'file:///tmp/spans' }, message: 'http:// or https://' },
    { name: 'an empty service name', telemetry: { otlp_endpoint: 'http://127.0.0.1:4318', service_name: '' }, message: 'service_name' },
  ])('refuses $name', ({ telemetry, message }) => {
    expect(() => resolveConfig({ env: {}, configFile: withConfigFile({ telemetry }) })).toThrow(message);
  });

  it('refuses a bad OTEL_EXPORTER_OTLP_ENDPOINT, naming the variable', () => {
    expect(() => resolveConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' } })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT');
  });
});
