/**
 * The toolhost package's own folder and version, found by walking up from this module. The same
 * code runs from the TypeScript sources (src/cli/) and from the build (dist/src/cli/), which sit at
 * different depths below the package root, so no fixed `../../` path is right for both.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'toolhost';

interface PackageInfo {
  root: string;
  version: string;
}

let found: PackageInfo | undefined;

function readManifest(directory: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

function packageInfo(): PackageInfo {
  if (found !== undefined) return found;
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = readManifest(directory);
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') {
      found = { root: directory, version: manifest.version };
      return found;
    }
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
}

/** Absolute path of the folder holding toolhost's package.json. */
export function packageRoot(): string {
  return packageInfo().root;
}

/** The version in toolhost's package.json (what `--version` prints). */
export function packageVersion(): string {
  return packageInfo().version;
}
