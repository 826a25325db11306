/**
 * The daemon fingerprints a dropped module in turns (the event loop gets each turn back between signature strings):
 * the answer must be exactly the one-piece scan's, on real modules of every kind the fixtures have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintModule, fingerprintModuleInTurns } from '../../../src/introspect/probe/fingerprint.ts';

const build = join(import.meta.dirname, '../../fixtures/build');

describe('fingerprintModuleInTurns', () => {
  it('gives the same fingerprint as the one-piece scan', async () => {
    for (const file of ['go-yq.core.wasm', 'go-chroma.core.wasm', 'go-csvq.core.wasm', 'go-hclfmt.core.wasm', 'hello.wasm', 'cobra-notes.wasm']) {
      const bytes = readFileSync(join(build, file));
      expect(await fingerprintModuleInTurns(bytes), file).toEqual(fingerprintModule(bytes));
    }
    expect((await fingerprintModuleInTurns(readFileSync(join(build, 'go-yq.core.wasm')))).framework).toBe('cobra');
  });

  it('lets a timer run while it scans a 28 MB module', async () => {
    const bytes = readFileSync(join(build, 'go-yq.core.wasm'));
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    await fingerprintModuleInTurns(bytes);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});
