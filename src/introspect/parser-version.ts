/**
 * The version of the code that turns a tool's help into its finished spec: a sha256 of the contents of
 * every source file of src/introspect (this folder, recursively) and of the modules that run that
 * pipeline (src/extensions/wasm-tool*.ts, wasm-spec-cache.ts). The wasm spec cache keys its entries
 * with it, so a spec derived by other parser code is never served: any edit to those files is a new
 * version, with no constant for anyone to remember to bump.
 *
 * Hashing ~120 files costs tens of ms, which a one-shot `toolhost call` must not pay, so the build
 * (`npm run build`, write-parser-version.ts) writes it next to this module as `parser-version.json`,
 * after compiling. It is trusted only while it is not older than this module's compiled file: a compile
 * that rewrote the folder without writing the version again (a bare `tsc` over a built dist) makes the
 * module newer, and then, as when the file is missing (the TypeScript sources run through tsx), the
 * version is computed from the files themselves. (An installed package keeps both, with the equal
 * modification times a package archive gives its files.)
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PARSER_VERSION_FILE = 'parser-version.json';

const SOURCE = /\.(?:ts|js|mjs)$/;
const DECLARATION = /\.d\.ts$/;
/** The modules outside src/introspect that derive a spec, relative to it. */
const PIPELINE_STEMS = ['../extensions/wasm-tool', '../extensions/wasm-tool-derive', '../extensions/wasm-spec-cache'];

const ownFile = fileURLToPath(import.meta.url);
const introspectDirectory = dirname(ownFile);

let memo: string | undefined;

/** The files the version covers, as sorted paths relative to `directory` (the introspect folder). */
function coveredFiles(directory: string): string[] {
  const inside = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((name) => SOURCE.test(name) && !DECLARATION.test(name));
  const pipeline = PIPELINE_STEMS.flatMap((stem) => ['.ts', '.js'].map((extension) => `${stem}${extension}`)).filter((name) => {
    try {
      return statSync(join(directory, name)).isFile();
    } catch {
      return false;
    }
  });
  return [...inside, ...pipeline].map((name) => name.split('\\').join('/')).sort();
}

/** Computes the version from the files of `directory` (the introspect folder of a source tree or a build). */
export function computeParserVersion(directory: string = introspectDirectory): string {
  const hash = createHash('sha256');
  for (const name of coveredFiles(directory)) {
    hash.update(name).update('\0').update(readFileSync(join(directory, name))).update('\0');
  }
  return hash.digest('hex');
}

function recordedVersion(): string | undefined {
  try {
    const file = join(introspectDirectory, PARSER_VERSION_FILE);
    if (statSync(file).mtimeMs < statSync(ownFile).mtimeMs) return undefined;
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof recorded.version === 'string' && /^[0-9a-f]{64}$/.test(recorded.version) ? recorded.version : undefined;
  } catch {
    return undefined;
  }
}

/** The parser version of the running code (recorded by the build, else computed; once per process). */
export function parserVersion(): string {
  memo ??= recordedVersion() ?? computeParserVersion();
  return memo;
}

/** Writes `parser-version.json` for the code in this module's folder (the build's last step). */
export function writeParserVersion(): string {
  const version = computeParserVersion();
  writeFileSync(join(introspectDirectory, PARSER_VERSION_FILE), `${JSON.stringify({ version })}\n`);
  return version;
}
