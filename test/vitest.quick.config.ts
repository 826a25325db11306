// `npm run test:quick`: the test files that need nothing beyond `npm ci` (no wasm fixtures build, no
// Rust/Go/C toolchains, no browser). test/helpers/quick-tests.ts chooses them by reading each test
// file and the test helpers it imports for the heavy markers it lists; `npm test` runs everything.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { partitionTests } from './helpers/quick-tests.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: partitionTests(root).quick,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
