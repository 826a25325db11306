/**
 * Atomic install of a tool's files into an extensions folder.
 *
 * Every file is written first into a staging folder inside the extensions folder (same file system,
 * so a rename is atomic; a dot-folder the host's loader and watcher do not look into). Only when all
 * are written are they renamed into place, sidecars first and the component last, then sidecars
 * the new version no longer ships are removed. Until the renames the old version keeps serving; a
 * failure before them leaves the folder as it was. The watcher waits for a file to settle
 * (awaitWriteFinish) so a running daemon reloads the tool once, with its new sidecars.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIDECAR_LAYERS, type ToolFiles } from './oci/artifact.ts';

/** Tool file names: a valid tool name, so nothing a registry says can become a path. */
export const INSTALL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface InstallResult {
  /** File names written. */
  written: string[];
  /** Sidecar file names removed (the new version does not ship them). */
  removed: string[];
}

/** Installs `files` as `<name>.wasm` and its sidecars in `directory` (created when missing). */
export function installTool(directory: string, name: string, files: ToolFiles): InstallResult {
  if (!INSTALL_NAME_PATTERN.test(name)) throw new Error(`"${name}" is not a tool file name (letters, digits, "_" and "-")`);
  mkdirSync(directory, { recursive: true });
  const staging = mkdtempSync(join(directory, '.toolhost-staging-'));
  try {
    const planned: [string, Uint8Array][] = [];
    for (const layer of SIDECAR_LAYERS) {
      const bytes = files.sidecars[layer.key];
      if (bytes !== undefined) planned.push([`${name}${layer.suffix}`, bytes]);
    }
    planned.push([`${name}.wasm`, files.wasm]);
    for (const [file, bytes] of planned) writeFileSync(join(staging, file), bytes, { mode: 0o644 });
    for (const [file] of planned) renameSync(join(staging, file), join(directory, file));
    const removed: string[] = [];
    for (const layer of SIDECAR_LAYERS) {
      if (files.sidecars[layer.key] !== undefined) continue;
      const stale = join(directory, `${name}${layer.suffix}`);
      if (existsSync(stale)) {
        rmSync(stale, { force: true });
        removed.push(`${name}${layer.suffix}`);
      }
    }
    return { written: planned.map(([file]) => file), removed };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
