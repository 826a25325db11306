/**
 * The WASI host suites (test/wasm/wasi/: cli, clocks, filesystem confinement, the filesystem race)
 * run again with every C fixture as a wasip1 core module on the preview1 host: the same grants,
 * read-only mode, `..`/symlink confinement, output caps, exit codes and deadlines must hold there.
 */
import { afterAll } from 'vitest';

process.env['TOOLHOST_WASI_FIXTURE_HOST'] = 'preview1';
afterAll(() => {
  delete process.env['TOOLHOST_WASI_FIXTURE_HOST'];
});

await import('../wasi/cli.test.ts');
await import('../wasi/clocks-random-net.test.ts');
await import('../wasi/filesystem.test.ts');
await import('../wasi/filesystem-race.test.ts');
