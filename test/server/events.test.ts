import { afterEach, describe, expect, it } from 'vitest';
import { extraTool, startTestServer, type TestServer } from './helpers.ts';
import { SseReader } from './sse.ts';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /v1/events', () => {
  it('streams added, updated and removed events as the registry changes', async () => {
    t = await startTestServer();
    const response = await fetch(`${t.url}/v1/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = new SseReader(response);
    // Wait for the stream to be established before changing the registry.
    await new Promise((resolve) => setTimeout(resolve, 50));

    t.host.registry.add(extraTool);
    const added = await reader.next();
    expect(added.event).toBe('added');
    expect(JSON.parse(added.data)).toEqual({ type: 'added', name: 'extra', source: 'builtin' });
    expect(added.id).toBeDefined();

    t.host.registry.replace(extraTool);
    expect((await reader.next()).event).toBe('updated');

    t.host.registry.remove('extra');
    const removed = await reader.next();
    expect(removed.event).toBe('removed');
    expect(JSON.parse(removed.data).name).toBe('extra');
    expect(reader.comments).toContain('connected');
    await reader.cancel();
  });

  it('streams collisions', async () => {
    t = await startTestServer();
    const reader = new SseReader(await fetch(`${t.url}/v1/events`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.host.registry.add({ ...extraTool, name: 'echo', source: 'wasm' });
    const collision = await reader.next();
    expect(collision.event).toBe('collision');
    expect(JSON.parse(collision.data)).toMatchObject({ type: 'collision', name: 'echo', kept: 'builtin', rejected: 'wasm' });
    await reader.cancel();
  });

  it('sends keep-alive comments', async () => {
    t = await startTestServer({ keepAliveMs: 30 });
    const reader = new SseReader(await fetch(`${t.url}/v1/events`));
    await new Promise((resolve) => setTimeout(resolve, 150));
    t.host.registry.add(extraTool);
    await reader.next();
    expect(reader.comments.filter((comment) => comment === 'keep-alive').length).toBeGreaterThan(0);
    await reader.cancel();
  });

  it('counts reloads in /metrics', async () => {
    t = await startTestServer();
    t.host.registry.add(extraTool);
    t.host.registry.replace(extraTool);
    const text = await (await fetch(`${t.url}/metrics`)).text();
    expect(text).toMatch(/^toolhost_tool_reloads_total 1$/m);
    expect(text).toMatch(/^toolhost_tools_loaded 5$/m);
  });

  it('ends open event streams on shutdown', async () => {
    t = await startTestServer();
    const url = t.url;
    const response = await fetch(`${url}/v1/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = new SseReader(response);
    const closing = t.close();
    await expect(reader.ended()).resolves.toBeUndefined();
    await closing;
    t = undefined;
    await expect(fetch(`${url}/v1/events`)).rejects.toThrow();
  });
});
