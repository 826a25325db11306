/**
 * The test files `npm run test:quick` runs (test/vitest.quick.config.ts): every `*.test.ts` under test/
 * that needs nothing beyond `npm ci`, found by reading the sources rather than from a list kept by hand.
 *
 * A file is left out when it, or a test-local module it imports (relative imports inside test/,
 * followed transitively; imports of src/ and builtins/ are not followed, they need nothing built),
 * contains one of the `HEAVY_MARKERS`:
 * - the prebuilt wasm components, `test/fixtures/build` (written `fixtures/build` or
 *   `'fixtures', 'build'`), which `npm run fixtures` compiles with clang, Rust and Go;
 * - the example tools under `extensions/examples/`, built from source with their toolchains;
 * - `playwright`: browser tests of the console, which need Chromium;
 * - a spawned compiler (`go`, `cargo`, `rustup`, `clang`, `tinygo`);
 * - a comment line opening with `@full-suite-only:`: a file that needs nothing built but runs for minutes (the kill -9
 *   stress loops of write-durability), with the reason next to the marker.
 * Help texts that merely mention such words (`Usage: cargo build`) do not count: the markers match
 * paths and spawn calls, not words.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This module names every marker in its own text: a test importing it is not heavy for that. */
const SELF = fileURLToPath(import.meta.url);

export const HEAVY_MARKERS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'prebuilt wasm fixtures (npm run fixtures)', pattern: /fixtures(?:[\\/]|['"]\s*,\s*['"])build(?![\w.])/ },
  { name: 'example tools built from source (extensions/examples)', pattern: /extensions(?:[\\/]|['"]\s*,\s*['"])examples\b/ },
  { name: 'a browser (playwright)', pattern: /\bplaywright\b/ },
  { name: 'a compiler toolchain', pattern: /\b(?:execFileSync|execFile|spawnSync|spawn|execSync)\(\s*['"](?:go|cargo|rustup|clang|tinygo)['"]/ },
  { name: 'marked @full-suite-only', pattern: /^\s*(?:\/\/|\*)\s*@full-suite-only:/m },
];

/** Relative import specifiers of a TypeScript module (static `import … from`, `export … from`, dynamic `import()`). */
function relativeImports(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) specifiers.push(match[1] as string);
  return specifiers;
}

/** The markers a test file needs, through itself and the test-local modules it imports. */
export function heavyMarkersOf(file: string, testRoot: string): string[] {
  const seen = new Set<string>();
  const found = new Set<string>();
  const queue = [resolve(file)];
  while (queue.length > 0) {
    const current = queue.pop() as string;
    if (seen.has(current)) continue;
    seen.add(current);
    const source = readFileSync(current, 'utf8');
    for (const marker of HEAVY_MARKERS) if (marker.pattern.test(source)) found.add(marker.name);
    for (const specifier of relativeImports(source)) {
      const target = resolve(dirname(current), specifier);
      const inTests = !relative(testRoot, target).startsWith('..');
      const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`];
      const existing = candidates.find((candidate) => /\.(?:ts|mts|js|mjs)$/.test(candidate) && existsSync(candidate));
      if (inTests && existing !== undefined && existing !== SELF) queue.push(existing);
    }
  }
  return [...found];
}

/** Every `*.test.ts` under `testRoot`, as paths relative to `projectRoot`, split into quick and heavy. */
export function partitionTests(projectRoot: string, testRoot = join(projectRoot, 'test')): { quick: string[]; heavy: { file: string; needs: string[] }[] } {
  const files = readdirSync(testRoot, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts') && !name.split(sep).includes('node_modules'))
    .map((name) => join(testRoot, name))
    .sort();
  const quick: string[] = [];
  const heavy: { file: string; needs: string[] }[] = [];
  for (const file of files) {
    const needs = heavyMarkersOf(file, testRoot);
    const path = relative(projectRoot, file).split(sep).join('/');
    if (needs.length === 0) quick.push(path);
    else heavy.push({ file: path, needs });
  }
  return { quick, heavy };
}
