/** Extension paths as the HTTP API shows them: relative to the extensions folder, never the host's layout. */
import { describe, expect, it } from 'vitest';
import { publicExtensionPath, publicExtensionText, publicHostEvent } from '../../src/server/extension-paths.ts';

const DIR = '/srv/secret-layout/tools';

describe('publicExtensionPath / publicExtensionText', () => {
  it('makes files relative to the folder, and shows only the base name of a file outside it', () => {
    expect(publicExtensionPath(DIR, `${DIR}/greet.wasm`)).toBe('greet.wasm');
    expect(publicExtensionPath(DIR, `${DIR}/team/lint.wasm`)).toBe('team/lint.wasm');
    expect(publicExtensionPath(DIR, '/elsewhere/other.wasm')).toBe('other.wasm');
    expect(publicExtensionPath(DIR, '/srv/secret-layout/tools-old/x.wasm')).toBe('x.wasm');
    expect(publicExtensionPath(undefined, '/abs/y.wasm')).toBe('y.wasm');
  });

  it('rewrites the folder\'s absolute path inside error texts', () => {
    expect(publicExtensionText(DIR, `cannot read ${DIR}/greet.wasm: bad magic (in ${DIR})`)).toBe('cannot read greet.wasm: bad magic (in .)');
    expect(publicExtensionText(undefined, `cannot read ${DIR}/greet.wasm`)).toBe(`cannot read ${DIR}/greet.wasm`);
  });

  it('rewrites /v1/events payloads that carry a file', () => {
    expect(publicHostEvent(DIR, { type: 'load_failed', file: `${DIR}/a.wasm`, error: `no ${DIR}/a.wasm` })).toEqual({ type: 'load_failed', file: 'a.wasm', error: 'no a.wasm' });
    expect(publicHostEvent(DIR, { type: 'added', name: 'a', source: 'wasm', file: `${DIR}/a.wasm` })).toEqual({ type: 'added', name: 'a', source: 'wasm', file: 'a.wasm' });
    expect(publicHostEvent(DIR, { type: 'collision', name: 'a', kept: 'builtin', rejected: 'wasm', reason: `${DIR}/a.wasm clashes`, file: `${DIR}/a.wasm` })).toMatchObject({ file: 'a.wasm', reason: 'a.wasm clashes' });
  });
});
