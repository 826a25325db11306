import { describe, expect, it } from 'vitest';
import { AbortControllerPool } from '../../src/wasm/abort-controller-pool.ts';

describe('AbortControllerPool', () => {
  it('hands back a controller that was given back clean', () => {
    const pool = new AbortControllerPool();
    const first = pool.take();
    const listener = (): void => undefined;
    first.signal.addEventListener('abort', listener, { once: true });
    first.signal.removeEventListener('abort', listener);
    pool.give(first);
    expect(pool.size).toBe(1);
    expect(pool.take()).toBe(first);
    expect(pool.size).toBe(0);
  });

  it('drops an aborted controller', () => {
    const pool = new AbortControllerPool();
    const controller = pool.take();
    controller.abort();
    pool.give(controller);
    expect(pool.size).toBe(0);
    expect(pool.take().signal.aborted).toBe(false);
  });

  it('drops a controller something still listens on, so a later abort cannot reach a stale listener', () => {
    const pool = new AbortControllerPool();
    const controller = pool.take();
    let calls = 0;
    controller.signal.addEventListener('abort', () => {
      calls += 1;
    });
    pool.give(controller);
    expect(pool.size).toBe(0);
    const next = pool.take();
    expect(next).not.toBe(controller);
    next.abort();
    expect(calls).toBe(0);
  });

  it('keeps at most its capacity', () => {
    const pool = new AbortControllerPool(2);
    const controllers = [pool.take(), pool.take(), pool.take()];
    for (const controller of controllers) pool.give(controller);
    expect(pool.size).toBe(2);
  });
});
