import { describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { CallLimiter, type Release } from '../../src/wasm/limiter.ts';

/** Acquires for `key` and records the order in which slots are granted. */
function recorder(limiter: CallLimiter) {
  const granted: string[] = [];
  const releases = new Map<string, Release>();
  const acquire = (key: string, name: string, signal?: AbortSignal) =>
    limiter.acquire(key, key, signal).then((release) => {
      granted.push(name);
      releases.set(name, release);
      return release;
    });
  const release = (name: string) => {
    const found = releases.get(name);
    if (found === undefined) throw new Error(`${name} holds no slot`);
    found();
  };
  return { granted, acquire, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CallLimiter', () => {
  it('serves the queues round-robin: a key with fifty queued calls does not starve a key with one', async () => {
    const limiter = new CallLimiter({ capacity: 1, perKeyCapacity: 1, queueLimit: 100 });
    const { granted, acquire, release } = recorder(limiter);
    void acquire('busy', 'busy 0');
    for (let index = 1; index <= 50; index += 1) void acquire('busy', `busy ${index}`);
    void acquire('lone', 'lone');
    void acquire('other', 'other 0');
    void acquire('other', 'other 1');
    await settle();
    expect(granted).toEqual(['busy 0']);
    expect(limiter.queued).toBe(53);
    for (const name of ['busy 0', 'lone', 'other 0', 'busy 1', 'other 1']) {
      release(name);
      await settle();
    }
    // After busy: the keys never served go first, in arrival order, then the turns alternate.
    expect(granted).toEqual(['busy 0', 'lone', 'other 0', 'busy 1', 'other 1', 'busy 2']);
  });

  it('holds one key to its share of the slots while other keys use the rest', async () => {
    const limiter = new CallLimiter({ capacity: 2, perKeyCapacity: 1, queueLimit: 100 });
    const { granted, acquire, release } = recorder(limiter);
    for (let index = 0; index < 5; index += 1) void acquire('spin', `spin ${index}`);
    await settle();
    expect(granted).toEqual(['spin 0']);
    expect([limiter.active, limiter.queued]).toEqual([1, 4]);
    void acquire('quick', 'quick 0');
    await settle();
    expect(granted).toEqual(['spin 0', 'quick 0']);
    release('quick 0');
    void acquire('quick', 'quick 1');
    await settle();
    expect(granted).toEqual(['spin 0', 'quick 0', 'quick 1']);
    release('spin 0');
    await settle();
    expect(granted.at(-1)).toBe('spin 1');
    expect(limiter.usage('spin')).toEqual({ active: 1, queued: 3 });
  });

  it('refuses with QUEUE_FULL per key, so a flooded key does not refuse another key', async () => {
    const limiter = new CallLimiter({ capacity: 1, perKeyCapacity: 1, queueLimit: 2 });
    const first = await limiter.acquire('flood', 'tool flood');
    const queuedFirst = limiter.acquire('flood', 'tool flood');
    const queuedSecond = limiter.acquire('flood', 'tool flood');
    const refused = await limiter.acquire('flood', 'tool flood').catch((error: unknown) => error);
    expect(ToolHostError.is(refused, 'QUEUE_FULL')).toBe(true);
    expect((refused as Error).message).toMatch(/tool flood: 1 running and 2 queued \(limit 2\)/);
    const other = limiter.acquire('other', 'tool other');
    expect(limiter.queued).toBe(3);
    first();
    (await other)();
    (await queuedFirst)();
    (await queuedSecond)();
    expect([limiter.active, limiter.queued, limiter.trackedKeys]).toEqual([0, 0, 0]);
  });

  it('removes a waiter whose signal fires and rejects its acquire with the reason; a fired signal is refused up front', async () => {
    const limiter = new CallLimiter({ capacity: 1, perKeyCapacity: 1, queueLimit: 10 });
    const { granted, acquire, release } = recorder(limiter);
    void acquire('tool', 'holder');
    const controller = new AbortController();
    const cancelled = acquire('tool', 'cancelled', controller.signal).catch((error: unknown) => error);
    void acquire('tool', 'next');
    await settle();
    expect(limiter.queued).toBe(2);
    controller.abort(new Error('caller went away'));
    expect(limiter.queued).toBe(1);
    expect(((await cancelled) as Error).message).toBe('caller went away');
    release('holder');
    await settle();
    expect(granted).toEqual(['holder', 'next']);
    const refused = await limiter.acquire('tool', 'tool', AbortSignal.abort(new Error('already gone'))).catch((error: unknown) => error);
    expect((refused as Error).message).toBe('already gone');
    expect(limiter.queued).toBe(0);
  });

  it('leaves no listener on a signal once its waiter got a slot, and forgets idle keys', async () => {
    const limiter = new CallLimiter({ capacity: 1, perKeyCapacity: 1, queueLimit: 10 });
    const holder = await limiter.acquire('a', 'a');
    const controller = new AbortController();
    let listeners = 0;
    const { addEventListener, removeEventListener } = controller.signal;
    controller.signal.addEventListener = function (this: AbortSignal, ...args: Parameters<AbortSignal['addEventListener']>) {
      listeners += 1;
      addEventListener.apply(this, args);
    };
    controller.signal.removeEventListener = function (this: AbortSignal, ...args: Parameters<AbortSignal['removeEventListener']>) {
      listeners -= 1;
      removeEventListener.apply(this, args);
    };
    const waiting = limiter.acquire('b', 'b', controller.signal);
    expect(listeners).toBe(1);
    holder();
    (await waiting)();
    expect(listeners).toBe(0);
    expect(limiter.trackedKeys).toBe(0);
    // Aborting later does nothing to the limiter.
    controller.abort();
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('rejects nonsense limits', () => {
    expect(() => new CallLimiter({ capacity: 0, perKeyCapacity: 1, queueLimit: 1 })).toThrow(RangeError);
    expect(() => new CallLimiter({ capacity: 1, perKeyCapacity: 1.5, queueLimit: 1 })).toThrow(RangeError);
    expect(() => new CallLimiter({ capacity: 1, perKeyCapacity: 1, queueLimit: -1 })).toThrow(RangeError);
  });
});
