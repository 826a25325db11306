import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completeUtf8Length, leadingContinuationBytes, OutputRing } from '../../builtins/internal/background-output.ts';

describe('OutputRing', () => {
  it('keeps everything below its capacity, addressed by absolute offsets', () => {
    const ring = new OutputRing(16);
    ring.write(Buffer.from('hello '));
    ring.write(Buffer.from('world'));
    expect(ring.totalBytes).toBe(11);
    expect(ring.startOffset).toBe(0);
    expect(ring.read(0, 100)).toEqual({ bytes: Buffer.from('hello world'), offset: 0, nextOffset: 11, droppedBytes: 0 });
    expect(ring.read(6, 3)).toEqual({ bytes: Buffer.from('wor'), offset: 6, nextOffset: 9, droppedBytes: 0 });
    expect(ring.read(11, 100).bytes.length).toBe(0);
    expect(ring.read(50, 100)).toMatchObject({ offset: 11, nextOffset: 11 });
  });

  it('overwrites the oldest bytes once full and says how many a reader missed', () => {
    const ring = new OutputRing(8);
    ring.write(Buffer.from('0123456789'));
    ring.write(Buffer.from('abc'));
    expect(ring.totalBytes).toBe(13);
    expect(ring.startOffset).toBe(5);
    expect(ring.read(0, 100)).toEqual({ bytes: Buffer.from('56789abc'), offset: 5, nextOffset: 13, droppedBytes: 5 });
    expect(ring.read(9, 2)).toEqual({ bytes: Buffer.from('9a'), offset: 9, nextOffset: 11, droppedBytes: 0 });
  });

  it('matches a model that keeps the newest bytes of the whole stream (property, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 30 }),
        fc.nat({ max: 3000 }),
        fc.integer({ min: 0, max: 200 }),
        (capacity, chunks, from, maxBytes) => {
          const ring = new OutputRing(capacity);
          for (const chunk of chunks) ring.write(chunk);
          const all = Buffer.concat(chunks);
          const start = Math.max(0, all.length - capacity);
          expect(ring.totalBytes).toBe(all.length);
          expect(ring.startOffset).toBe(start);
          const expectedFrom = Math.min(Math.max(from, start), all.length);
          const slice = ring.read(from, maxBytes);
          expect(slice.offset).toBe(expectedFrom);
          expect(slice.droppedBytes).toBe(Math.max(0, start - from));
          expect(slice.bytes).toEqual(all.subarray(expectedFrom, Math.min(all.length, expectedFrom + maxBytes)));
          expect(slice.nextOffset).toBe(expectedFrom + slice.bytes.length);
        },
      ),
      { seed: 20261123, numRuns: 500 },
    );
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new OutputRing(0)).toThrow(RangeError);
    expect(() => new OutputRing(1.5)).toThrow(RangeError);
  });
});

describe('UTF-8 boundaries', () => {
  const euro = Buffer.from('€'); // e2 82 ac
  const smile = Buffer.from('😀'); // f0 9f 98 80

  it('finds a final character that is not complete yet', () => {
    expect(completeUtf8Length(Buffer.from('abc'))).toBe(3);
    expect(completeUtf8Length(Buffer.concat([Buffer.from('a'), euro]))).toBe(4);
    expect(completeUtf8Length(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)]))).toBe(1);
    expect(completeUtf8Length(Buffer.concat([Buffer.from('a'), smile.subarray(0, 3)]))).toBe(1);
    expect(completeUtf8Length(Buffer.concat([Buffer.from('a'), smile.subarray(0, 1)]))).toBe(1);
    expect(completeUtf8Length(smile)).toBe(4);
    expect(completeUtf8Length(Buffer.alloc(0))).toBe(0);
  });

  it('counts the continuation bytes a slice starts with', () => {
    expect(leadingContinuationBytes(Buffer.from('abc'))).toBe(0);
    expect(leadingContinuationBytes(euro.subarray(1))).toBe(2);
    expect(leadingContinuationBytes(smile.subarray(1))).toBe(3);
    expect(leadingContinuationBytes(Buffer.concat([smile.subarray(2), Buffer.from('x')]))).toBe(2);
  });
});
