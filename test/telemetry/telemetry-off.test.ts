/**
 * Telemetry off costs nothing: a real `toolhost serve` without `telemetry` serves an HTTP call, an MCP
 * call and `/metrics` of a wasm tool, and `toolhost call` runs one, without resolving a single
 * @opentelemetry module (a resolve hook, test/telemetry/fixtures/otel-load-probe.mjs, lists them at
 * exit). The control: the same daemon with OTEL_EXPORTER_OTLP_ENDPOINT set (a local sink) loads the SDK.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon } from '../server/daemon-process.ts';
import { postJson, readJson } from '../server/helpers.ts';
import { startOtlpSink, type OtlpSink } from './otlp-sink.ts';

const PROBE = fileURLToPath(new URL('./fixtures/otel-load-probe.mjs', import.meta.url));
const TOOL = 'ext-greet';

function loadedModules(stderr: string): string[] {
  const line = /^OTEL_MODULES_LOADED (.*)$/m.exec(stderr);
  if (line?.[1] === undefined) throw new Error(`the probe printed nothing; stderr:\n${stderr}`);
  return JSON.parse(line[1]) as string[];
}

describe('telemetry off loads no OpenTelemetry module', { timeout: 180_000 }, () => {
  let workspace: { path: string; remove: () => void };
  let extensions: string;
  let sink: OtlpSink;

  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-telemetry-off-');
    extensions = join(workspace.path, 'ext');
    mkdirSync(extensions);
    copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', `${TOOL}.wasm`), join(extensions, `${TOOL}.wasm`));
    sink = await startOtlpSink();
  });
  afterAll(async () => {
    await sink?.close();
    workspace?.remove();
  });

  /** A daemon (with the probe) that serves one HTTP call, one MCP call and /metrics, then stops; the modules it resolved. */
  async function daemonModules(env: Record<string, string>): Promise<string[]> {
    const daemon = await startDaemon(['--extensions', extensions, '--workspace', workspace.path], { cwd: workspace.path, env: { NODE_OPTIONS: `--import ${PROBE}`, ...env } });
    try {
      const client = new Client({ name: 'telemetry-off', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`)));
      for (let listed = await client.listTools(); !listed.tools.some((tool) => tool.name === TOOL); listed = await client.listTools()) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await client.callTool({ name: TOOL, arguments: { name: 'mcp' }, _meta: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` } })).isError).toBe(false);
      await client.close();
      const response = await postJson(`${daemon.url}/v1/tools/${TOOL}/call`, { arguments: { name: 'http' } }, { traceparent: `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01` });
      expect(await readJson(response)).toMatchObject({ is_error: false, metadata: { timing: { instantiate_ms: expect.any(Number), run_ms: expect.any(Number) } } });
      expect((await fetch(`${daemon.url}/metrics`)).status).toBe(200);
    } finally {
      await daemon.stop();
    }
    return loadedModules(daemon.stderr());
  }

  it('a daemon without telemetry: none, through HTTP, MCP (with traceparent) and /metrics', async () => {
    expect(await daemonModules({})).toEqual([]);
  });

  it('the control: with OTEL_EXPORTER_OTLP_ENDPOINT the same daemon loads the SDK, and exports to it', async () => {
    const modules = await daemonModules({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
    expect(modules).toEqual(expect.arrayContaining([expect.stringMatching(/^@opentelemetry\/sdk-trace\//), expect.stringMatching(/^@opentelemetry\/exporter-trace-otlp-http\//)]));
    // The daemon flushed its spans at shutdown.
    expect(sink.requests('/v1/traces')).toBeGreaterThan(0);
  });

  it('`toolhost call` without telemetry: none', async () => {
    const run = await runCli(['call', TOOL, '--arg', 'name=cli', '--extensions', extensions, '--workspace', workspace.path], { cwd: workspace.path, env: { NODE_OPTIONS: `--import ${PROBE}`, TRACEPARENT: `00-${'e'.repeat(32)}-${'f'.repeat(16)}-01` }, timeoutMs: 120_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(loadedModules(run.stderr)).toEqual([]);
  });
});
