/**
 * The WASI 0.2 WIT packages (wasi:cli and what it includes) that the Python and JS templates write into
 * `wit/deps/`, so their build needs no network. The files are vendored beside this module (see wasi-wit/README.md).
 */
import { readFileSync } from 'node:fs';
import type { TemplateFile } from './template.ts';

/** The WASI version of the vendored WIT; template worlds name their imports and exports with it. */
export const WASI_VERSION = '0.2.12';

/** The vendored packages, each `wasi-wit/<package>/package.wit`. */
export const WASI_PACKAGES = ['cli', 'clocks', 'filesystem', 'io', 'random', 'sockets'] as const;

/** The WIT dependency files of a template project: `wit/deps/<package>/package.wit` for every WASI package. */
export function wasiWitFiles(): TemplateFile[] {
  return WASI_PACKAGES.map((name) => ({
    path: `wit/deps/${name}/package.wit`,
    content: readFileSync(new URL(`./wasi-wit/${name}/package.wit`, import.meta.url), 'utf8'),
  }));
}
