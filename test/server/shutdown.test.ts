import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import { installShutdownHandlers } from '../../src/server/serve.ts';
import { postJson, readJson, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('graceful shutdown', () => {
  it('lets an in-flight call finish, then resolves close', async () => {
    t = await startTestServer();
    const call = postJson(`${t.url}/v1/tools/slow/call`, { arguments: { ms: 300, label: 'in-flight' } });
    await vi.waitFor(() => expect(t?.host.inFlightCalls()).toBe(1));
    const callDone = call.then(async (response) => ({ status: response.status, body: await readJson(response) }));
    // What close waits for is the call on the server: when it resolves, no call is in flight. (When the
    // client reads the answer is a race with close in this same process, not part of the contract.)
    const host = t.host;
    const inFlightAtClose = t.server.close(5_000).then(() => host.inFlightCalls());
    const result = await callDone;
    expect(result).toEqual({ status: 200, body: { content: 'done in-flight', is_error: false } });
    expect(await inFlightAtClose).toBe(0);
    t = undefined;
  });

  it('stops accepting connections once closing', async () => {
    t = await startTestServer();
    const url = t.url;
    await t.server.close(1_000);
    t = undefined;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('does not wait past the grace deadline for a stuck call', async () => {
    t = await startTestServer();
    void postJson(`${t.url}/v1/tools/slow/call`, { arguments: { ms: 60_000, label: 'stuck' } }).catch(() => undefined);
    await vi.waitFor(() => expect(t?.host.inFlightCalls()).toBe(1));
    const started = Date.now();
    await t.server.close(200);
    t = undefined;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('close is idempotent', async () => {
    t = await startTestServer();
    const url = t.url;
    const first = t.server.close(500);
    const second = t.server.close(500);
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    await expect(t.server.close(500)).resolves.toBeUndefined();
    t = undefined;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('installShutdownHandlers closes then exits 0 on SIGTERM, and removes its handlers', async () => {
    const exit = vi.fn();
    const close = vi.fn(async () => undefined);
    const uninstall = installShutdownHandlers(close, silentLogger(), { signals: ['SIGUSR2'], exit });
    process.emit('SIGUSR2', 'SIGUSR2');
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(close).toHaveBeenCalledTimes(1);
    uninstall();
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });

  it('installShutdownHandlers exits 1 when close fails', async () => {
    const exit = vi.fn();
    const uninstall = installShutdownHandlers(async () => Promise.reject(new Error('boom')), silentLogger(), { signals: ['SIGUSR2'], exit });
    process.emit('SIGUSR2', 'SIGUSR2');
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(1));
    uninstall();
  });
});
