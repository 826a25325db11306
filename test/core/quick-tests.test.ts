/**
 * The split `npm run test:quick` runs on (test/helpers/quick-tests.ts): files that need the wasm
 * fixtures build, the example builds, a browser, a compiler or are marked `@full-suite-only` are left
 * out, directly or through the test helpers they import; the rest, which need only `npm ci`, are in.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/run-cli.ts';
import { partitionTests } from '../helpers/quick-tests.ts';

const scratch = mkdtempSync(join(tmpdir(), 'toolhost-quick-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('test:quick file selection', () => {
  it('on this repository: the wasm, example, browser and toolchain tests are out, pure ones in', () => {
    const { quick, heavy } = partitionTests(PROJECT_ROOT);
    const out = heavy.map((entry) => entry.file);
    // direct uses of the fixtures build, through test/extensions/helpers.ts, the examples, a browser, go build, the marker
    expect(out).toEqual(expect.arrayContaining(['test/wasm/runtime.test.ts', 'test/extensions/wasm-tool.test.ts', 'test/examples/examples.test.ts', 'test/console/console.test.ts', 'test/cli/new.test.ts', 'test/builtins/write-durability.test.ts']));
    expect(quick).toEqual(expect.arrayContaining(['test/core/config-example.test.ts', 'test/core/bridge.test.ts', 'test/introspect/corpus.test.ts', 'test/server/http-api.test.ts', 'test/core/quick-tests.test.ts']));
    expect(quick.length).toBeGreaterThan(heavy.length);
  });

  it('follows test-local imports transitively, and ignores words in strings that are not paths or spawns', () => {
    const root = join(scratch, 'project');
    const tests = join(root, 'test');
    mkdirSync(join(tests, 'a'), { recursive: true });
    // the marker texts are assembled so that this file itself carries none of them
    writeFileSync(join(tests, 'a', 'deep.ts'), `export const F = join(ROOT, 'test', ${["'fixtures'", "'build'"].join(', ')}, 'x.wasm');\n`);
    writeFileSync(join(tests, 'a', 'middle.ts'), "export { F } from './deep.ts';\n");
    writeFileSync(join(tests, 'a', 'uses-helper.test.ts'), "import { F } from './middle.ts';\nimport { x } from '../../src/x.ts';\n");
    writeFileSync(join(tests, 'a', 'help-text.test.ts'), "const help = 'Usage: cargo build [OPTIONS]';\nconst word = 'go';\n");
    writeFileSync(join(tests, 'a', 'spawns.test.ts'), `${'execFileSync'}${"('cargo'"}, ['build']);\n`);
    writeFileSync(join(tests, 'a', 'marked.test.ts'), `/**\n * ${'@full'}${'-suite-only'}: slow\n */\n`);
    const { quick, heavy } = partitionTests(root);
    expect(quick).toEqual(['test/a/help-text.test.ts']);
    expect(Object.fromEntries(heavy.map((entry) => [entry.file, entry.needs]))).toEqual({
      'test/a/marked.test.ts': ['marked @full-suite-only'],
      'test/a/spawns.test.ts': ['a compiler toolchain'],
      'test/a/uses-helper.test.ts': ['prebuilt wasm fixtures (npm run fixtures)'],
    });
  });
});
