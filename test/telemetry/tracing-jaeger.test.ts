/**
 * Traces in a real OTLP receiver: a real `toolhost serve` (its own process) with `telemetry` pointed at
 * Jaeger all-in-one, the real MCP SDK client calling a real wasm tool with `_meta.traceparent` of a
 * trace the client started, then the receiver asked for that trace id. The spans must be there with the
 * right parents and attributes: the MCP request span under the client's span, the `execute_tool` span
 * under it, `admit` and the wasm call's `instantiate` and `run` under that (run right after
 * instantiate, their durations the result's `metadata.timing`), and `approval wait` under `admit` when
 * an ask rule holds the call; the HTTP API's server span under the `traceparent` header's span.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, PROJECT_ROOT, runCli, SOURCE_BIN, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';
import { decideApproval, pendingApprovals, postJson, readJson, TEST_ADMIN_TOKEN } from '../server/helpers.ts';
import { jaegerBinary, parentOf, startJaeger, tagsOf, type Jaeger, type JaegerSpan } from './jaeger.ts';

const binary = jaegerBinary();
const TOOL = 'ext-greet';

/** A client-side span context: a fresh trace id and the client's own span id. */
function clientContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

function named(spans: JaegerSpan[], name: string): JaegerSpan {
  const found = spans.filter((span) => span.operationName === name);
  expect(found.map((span) => span.operationName), `one span named "${name}" in ${spans.map((span) => span.operationName).join(', ')}`).toEqual([name]);
  return found[0] as JaegerSpan;
}

const has = (...names: string[]) => (spans: JaegerSpan[]) => names.every((name) => spans.some((span) => span.operationName === name));

describe.skipIf(binary === undefined)('tracing into a real Jaeger all-in-one', { timeout: 180_000 }, () => {
  let jaeger: Jaeger;
  let daemon: DaemonProcess;
  let workspace: { path: string; remove: () => void };
  let extensions: string;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    jaeger = await startJaeger(binary as string);
    workspace = temporaryDirectory('toolhost-tracing-');
    extensions = join(workspace.path, 'ext');
    mkdirSync(extensions);
    copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', `${TOOL}.wasm`), join(extensions, `${TOOL}.wasm`));
    const config = join(workspace.path, 'toolhost.json');
    writeFileSync(
      config,
      JSON.stringify({
        telemetry: { otlp_endpoint: jaeger.otlpUrl, service_name: 'toolhost-tracing-test' },
        approvals: [{ tool: TOOL, match: { name: 'needs-approval' }, action: 'ask' }],
      }),
    );
    daemon = await startDaemon(['--config', config, '--extensions', extensions, '--workspace', workspace.path], {
      cwd: workspace.path,
      // Spans are batched for 100 ms (not the default 5 s): the test waits less for them.
      env: { TOOLHOST_ADMIN_TOKEN: TEST_ADMIN_TOKEN, OTEL_BSP_SCHEDULE_DELAY: '100' },
    });
    client = new Client({ name: 'tracing-test', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`));
    await client.connect(transport);
    // The daemon listens before its extensions load: wait for the wasm tool.
    for (let listed = await client.listTools(); !listed.tools.some((tool) => tool.name === TOOL); listed = await client.listTools()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    await client?.close();
    await daemon?.stop();
    await jaeger?.stop();
    workspace?.remove();
  }, 60_000);

  it('an MCP call of a wasm tool: MCP span under the client span, execute_tool under it, admit, instantiate and run under that', async () => {
    const context = clientContext();
    const result = await client.callTool({ name: TOOL, arguments: { name: 'tracing' }, _meta: { traceparent: context.traceparent } });
    expect(result.isError).toBe(false);
    const metadata = (result._meta as Record<string, { timing?: { instantiate_ms: number; run_ms: number } }>)['toolhost/metadata'];
    const timing = metadata?.timing;
    expect(timing).toEqual({ instantiate_ms: expect.any(Number), run_ms: expect.any(Number) });

    const spans = await jaeger.waitForSpans(context.traceId, has(`tools/call ${TOOL}`, `execute_tool ${TOOL}`, 'admit', 'instantiate', 'run'));
    const mcp = named(spans, `tools/call ${TOOL}`);
    const call = named(spans, `execute_tool ${TOOL}`);
    const admit = named(spans, 'admit');
    const instantiate = named(spans, 'instantiate');
    const run = named(spans, 'run');
    expect(spans.every((span) => span.traceID === context.traceId)).toBe(true);
    // The links: the client's span → MCP request → tool call → its phases.
    expect(parentOf(mcp)).toBe(context.spanId);
    expect(parentOf(call)).toBe(mcp.spanID);
    expect(parentOf(admit)).toBe(call.spanID);
    expect(parentOf(instantiate)).toBe(call.spanID);
    expect(parentOf(run)).toBe(call.spanID);
    // No wait happened: no wait spans.
    expect(spans.some((span) => span.operationName === 'approval wait' || span.operationName === 'quota wait')).toBe(false);

    expect(tagsOf(mcp)).toMatchObject({
      'span.kind': 'server',
      'mcp.method.name': 'tools/call',
      'mcp.session.id': transport.sessionId,
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': TOOL,
    });
    const callTags = tagsOf(call);
    expect(callTags).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': TOOL,
      'gen_ai.tool.call.id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'toolhost.transport': 'mcp',
      'toolhost.tool.source': 'wasm',
      'toolhost.tool.digest': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      'toolhost.is_error': false,
    });
    expect(callTags).not.toHaveProperty('error.type');
    expect(tagsOf(admit)).toMatchObject({ 'toolhost.admit.outcome': 'admitted' });
    // The phases are the result's timing: instantiate, then run from where it ended (Jaeger keeps microseconds).
    expect(Math.abs(instantiate.duration - (timing?.instantiate_ms ?? NaN) * 1000)).toBeLessThanOrEqual(2);
    expect(Math.abs(run.duration - (timing?.run_ms ?? NaN) * 1000)).toBeLessThanOrEqual(2);
    expect(Math.abs(run.startTime - (instantiate.startTime + instantiate.duration))).toBeLessThanOrEqual(2);
    // Inside the tool call's span. The phases were timed on the worker's thread, whose epoch clock
    // (its timeOrigin + performance.now()) may sit some microseconds off the main thread's: 1 ms slack.
    expect(instantiate.startTime).toBeGreaterThanOrEqual(call.startTime - 1000);
    expect(run.startTime + run.duration).toBeLessThanOrEqual(call.startTime + call.duration + 1000);
  });

  it('a call an ask rule holds: "approval wait" under admit, for as long as the approval was pending', async () => {
    const context = clientContext();
    const called = client.callTool({ name: TOOL, arguments: { name: 'needs-approval' }, _meta: { traceparent: context.traceparent } });
    const [approval] = await pendingApprovals(daemon.url);
    expect((await decideApproval(daemon.url, approval.id, 'allow')).status).toBe(200);
    expect((await called).isError).toBe(false);

    const spans = await jaeger.waitForSpans(context.traceId, has(`execute_tool ${TOOL}`, 'admit', 'approval wait', 'run'));
    const call = named(spans, `execute_tool ${TOOL}`);
    const admit = named(spans, 'admit');
    const wait = named(spans, 'approval wait');
    expect(parentOf(call)).toBe(named(spans, `tools/call ${TOOL}`).spanID);
    expect(parentOf(admit)).toBe(call.spanID);
    expect(parentOf(wait)).toBe(admit.spanID);
    expect(tagsOf(call)['gen_ai.tool.call.id']).toBe(approval.call_id);
    // The wait is inside admission, and the tool ran after it.
    expect(wait.startTime).toBeGreaterThanOrEqual(admit.startTime);
    expect(wait.startTime + wait.duration).toBeLessThanOrEqual(admit.startTime + admit.duration + 2);
    expect(named(spans, 'run').startTime).toBeGreaterThanOrEqual(wait.startTime + wait.duration - 1000);
  });

  it('a denied approval: admit refused, the tool call span failed with the refusal reason, nothing ran', async () => {
    const context = clientContext();
    const called = client.callTool({ name: TOOL, arguments: { name: 'needs-approval' }, _meta: { traceparent: context.traceparent } });
    const [approval] = await pendingApprovals(daemon.url);
    await decideApproval(daemon.url, approval.id, 'deny');
    expect((await called).isError).toBe(true);

    const spans = await jaeger.waitForSpans(context.traceId, has(`execute_tool ${TOOL}`, 'admit', 'approval wait'));
    const callTags = tagsOf(named(spans, `execute_tool ${TOOL}`));
    expect(callTags).toMatchObject({ 'toolhost.is_error': true, error: true, 'error.type': expect.stringMatching(/^approval_/) });
    expect(tagsOf(named(spans, 'admit'))).toMatchObject({ 'toolhost.admit.outcome': 'refused', 'error.type': callTags['error.type'] });
    expect(spans.some((span) => span.operationName === 'instantiate' || span.operationName === 'run')).toBe(false);
  });

  it('the HTTP API: a server span under the traceparent header, the call and its phases under it', async () => {
    const context = clientContext();
    const response = await postJson(`${daemon.url}/v1/tools/${TOOL}/call`, { arguments: { name: 'http' } }, { traceparent: context.traceparent });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ is_error: false });

    const spans = await jaeger.waitForSpans(context.traceId, has('POST /v1/tools/:name/call', `execute_tool ${TOOL}`, 'instantiate', 'run'));
    const http = named(spans, 'POST /v1/tools/:name/call');
    const call = named(spans, `execute_tool ${TOOL}`);
    expect(parentOf(http)).toBe(context.spanId);
    expect(parentOf(call)).toBe(http.spanID);
    expect(parentOf(named(spans, 'run'))).toBe(call.spanID);
    expect(tagsOf(http)).toMatchObject({
      'span.kind': 'server',
      'http.request.method': 'POST',
      'http.route': '/v1/tools/:name/call',
      'url.path': `/v1/tools/${TOOL}/call`,
      'http.response.status_code': 200,
    });
    expect(tagsOf(call)).toMatchObject({ 'toolhost.transport': 'http' });
  });

  it('an invalid traceparent starts a new trace instead of joining one', async () => {
    const context = clientContext();
    // An all-zero parent span id, and the right trace id with 200 KB more after it (version 00 allows nothing more).
    for (const bad of [`00-${context.traceId}-0000000000000000-01`, `00-${context.traceId}-${context.spanId}-01-${'x'.repeat(200_000)}`]) {
      const result = await client.callTool({ name: TOOL, arguments: { name: 'bad-parent' }, _meta: { traceparent: bad, tracestate: 'k=v,'.repeat(50_000) } });
      expect(result.isError).toBe(false);
    }
    // The call is traced (in a trace of its own), and nothing lands under the malformed parent's trace id:
    // checked after a traced call that followed it has arrived, so the export has happened.
    const after = clientContext();
    await client.callTool({ name: TOOL, arguments: { name: 'after' }, _meta: { traceparent: after.traceparent } });
    await jaeger.waitForSpans(after.traceId, has(`execute_tool ${TOOL}`));
    expect(await jaeger.spans(context.traceId)).toEqual([]);
  });

  it('the CLI: `toolhost call` is the root span (under TRACEPARENT when given), the call and its phases under it, flushed before exit', async () => {
    const context = clientContext();
    const run = await runCli(['call', TOOL, '--arg', 'name=cli', '--extensions', extensions, '--workspace', workspace.path], {
      cwd: workspace.path,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpUrl, OTEL_SERVICE_NAME: 'toolhost-cli-test', TRACEPARENT: context.traceparent },
      timeoutMs: 120_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('Hello, cli!');
    // The process has exited: its spans were exported before it did (no batching delay was set).
    const spans = await jaeger.waitForSpans(context.traceId, has('toolhost call', `execute_tool ${TOOL}`, 'admit', 'instantiate', 'run'), 10_000);
    const root = named(spans, 'toolhost call');
    const call = named(spans, `execute_tool ${TOOL}`);
    expect(parentOf(root)).toBe(context.spanId);
    expect(tagsOf(root)).toMatchObject({ 'gen_ai.tool.name': TOOL, 'toolhost.transport': 'cli' });
    expect(parentOf(call)).toBe(root.spanID);
    expect(parentOf(named(spans, 'instantiate'))).toBe(call.spanID);
    expect(parentOf(named(spans, 'run'))).toBe(call.spanID);
  });

  it('MCP over stdio (`toolhost mcp`): the request span under `_meta.traceparent`, the call under it, flushed when the client hangs up', async () => {
    const context = clientContext();
    const env = cliEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpUrl });
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [SOURCE_BIN, 'mcp', '--extensions', extensions, '--workspace', workspace.path],
      cwd: workspace.path,
      env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      stderr: 'pipe',
    });
    const stdioClient = new Client({ name: 'tracing-stdio-test', version: '1.0.0' });
    await stdioClient.connect(stdio);
    for (let listed = await stdioClient.listTools(); !listed.tools.some((tool) => tool.name === TOOL); listed = await stdioClient.listTools()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await stdioClient.callTool({ name: TOOL, arguments: { name: 'stdio' }, _meta: { traceparent: context.traceparent } })).isError).toBe(false);
    await stdioClient.close();

    const spans = await jaeger.waitForSpans(context.traceId, has(`tools/call ${TOOL}`, `execute_tool ${TOOL}`, 'run'));
    const mcp = named(spans, `tools/call ${TOOL}`);
    expect(parentOf(mcp)).toBe(context.spanId);
    expect(tagsOf(mcp)).toMatchObject({ 'mcp.method.name': 'tools/call', 'span.kind': 'server' });
    expect(tagsOf(mcp)).not.toHaveProperty('network.protocol.name');
    const call = named(spans, `execute_tool ${TOOL}`);
    expect(parentOf(call)).toBe(mcp.spanID);
    expect(tagsOf(call)).toMatchObject({ 'toolhost.transport': 'mcp' });
    expect(parentOf(named(spans, 'run'))).toBe(call.spanID);
  });
});
