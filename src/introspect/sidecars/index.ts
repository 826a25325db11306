/**
 * Specs the author ships: the one table of formats, and the lookup that finds a tool's spec.
 *
 * | format   | file next to `<tool>.wasm`    | wasm custom section      | reader              |
 * |----------|-------------------------------|--------------------------|---------------------|
 * | usage    | `<tool>.usage.kdl`            | `toolhost:spec-usage`    | usage-kdl.ts        |
 * | oclif    | `<tool>.oclif.manifest.json`  | `toolhost:spec-oclif`    | oclif-manifest.ts   |
 * | carapace | `<tool>.carapace.yaml`        | `toolhost:spec-carapace` | carapace-yaml.ts    |
 *
 * Rank (highest first): the program's own `--help-json`, then a spec sidecar file (in table order),
 * then a spec custom section (in table order), then the help parse; `.tool.json` applies on top of
 * whichever wins. A file outranks a section so an operator can correct what a binary ships.
 *
 * Contract: `findSpecSidecar` never throws for bad input. A file or section over
 * `MAX_SPEC_SIDECAR_BYTES`, not UTF-8, or not a valid spec is skipped with a `spec-sidecar-invalid`
 * warning saying why, and the next candidate (finally the help parse) is used; every other candidate
 * present but not used gets a `spec-sidecar-shadowed` warning; what a reader left out to stay within
 * its caps is a `spec-sidecar-partial` warning.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileStem } from '../../tool-name.ts';
import type { CliSpec } from '../spec.ts';
import { findCustomSections } from './custom-sections.ts';
import { readOclifManifest } from './oclif-manifest.ts';
import { MAX_SPEC_SIDECAR_BYTES, sidecarSource, type SidecarFormat, type SidecarReadOptions, type SidecarSpecResult } from './spec-build.ts';

export { MAX_SPEC_SIDECAR_BYTES, sidecarSource, type SidecarFormat } from './spec-build.ts';

export interface SpecSidecarKind {
  format: SidecarFormat;
  /** Appended to the tool's file stem: `<tool>.usage.kdl`. */
  suffix: string;
  /** The wasm custom section holding the same text. */
  section: string;
  /** Reads the text; the KDL and YAML readers (and their parser libraries) are imported only when a tool ships one. */
  read(source: string, options: SidecarReadOptions): Promise<SidecarSpecResult>;
}

export const SPEC_SIDECARS: readonly SpecSidecarKind[] = Object.freeze([
  { format: 'usage', suffix: '.usage.kdl', section: 'toolhost:spec-usage', read: async (source, options) => (await import('./usage-kdl.ts')).readUsageSpec(source, options) },
  { format: 'oclif', suffix: '.oclif.manifest.json', section: 'toolhost:spec-oclif', read: async (source, options) => readOclifManifest(source, options) },
  { format: 'carapace', suffix: '.carapace.yaml', section: 'toolhost:spec-carapace', read: async (source, options) => (await import('./carapace-yaml.ts')).readCarapaceSpec(source, options) },
]);

/** The file suffixes of spec sidecars (for the folder watcher and version hashing). */
export const SPEC_SIDECAR_SUFFIXES: readonly string[] = SPEC_SIDECARS.map((kind) => kind.suffix);

/** `dir/x.wasm` → `{ usage: 'dir/x.usage.kdl', oclif: 'dir/x.oclif.manifest.json', carapace: 'dir/x.carapace.yaml' }`. */
export function specSidecarPaths(file: string): Record<SidecarFormat, string> {
  const base = join(dirname(file), fileStem(file));
  return Object.fromEntries(SPEC_SIDECARS.map((kind) => [kind.format, `${base}${kind.suffix}`])) as Record<SidecarFormat, string>;
}

export interface SidecarWarning {
  /** `spec-sidecar-invalid`, `spec-sidecar-shadowed` or `spec-sidecar-partial`. */
  code: string;
  message: string;
}

export interface FoundSidecarSpec {
  spec: CliSpec;
  format: SidecarFormat;
  /** `sidecar:<format>`: the provenance its fields carry. */
  source: string;
  /** Where it came from, for people: `x.usage.kdl`, or `custom section toolhost:spec-usage`. */
  origin: string;
}

export interface SidecarLookup {
  found?: FoundSidecarSpec;
  warnings: SidecarWarning[];
  /** Every candidate present (file or section), in rank order, the used one included. */
  present: string[];
}

interface Candidate {
  kind: SpecSidecarKind;
  origin: string;
  /** The text, or why it cannot be read. */
  load(): Promise<{ text: string } | { problem: string }>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): { text: string } | { problem: string } {
  if (bytes.length > MAX_SPEC_SIDECAR_BYTES) return { problem: `${bytes.length} bytes, over the ${MAX_SPEC_SIDECAR_BYTES}-byte limit` };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { problem: 'not UTF-8 text' };
  }
}

async function fileCandidates(file: string): Promise<Candidate[]> {
  const paths = specSidecarPaths(file);
  const candidates: Candidate[] = [];
  for (const kind of SPEC_SIDECARS) {
    const path = paths[kind.format];
    const size = await stat(path).then(
      (info) => (info.isFile() ? info.size : undefined),
      () => undefined,
    );
    if (size === undefined) continue;
    candidates.push({
      kind,
      origin: basename(path),
      load: async () => {
        // The size is checked before reading: an oversized file is never read into memory.
        if (size > MAX_SPEC_SIDECAR_BYTES) return { problem: `${size} bytes, over the ${MAX_SPEC_SIDECAR_BYTES}-byte limit` };
        try {
          return decode(await readFile(path));
        } catch (error) {
          return { problem: `cannot be read: ${(error as Error).message}` };
        }
      },
    });
  }
  return candidates;
}

/** The spec sections of a binary, remembered per content hash (the bytes are read once per version). */
const sectionCache = new Map<string, Map<string, Uint8Array | number>>();
const SECTION_CACHE_ENTRIES = 64;

async function sectionCandidates(componentFile: string, sha256: string | undefined): Promise<Candidate[]> {
  let sections = sha256 === undefined ? undefined : sectionCache.get(sha256);
  if (sections === undefined) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(componentFile);
    } catch {
      return [];
    }
    // Copies (or, over the limit, just the size): the cache must not keep the whole binary alive.
    const scan = findCustomSections(bytes, new Set(SPEC_SIDECARS.map((kind) => kind.section)));
    sections = new Map([...scan.sections].map(([name, view]) => [name, view.length > MAX_SPEC_SIDECAR_BYTES ? view.length : view.slice()]));
    if (sha256 !== undefined) {
      if (sectionCache.size >= SECTION_CACHE_ENTRIES) sectionCache.delete(sectionCache.keys().next().value as string);
      sectionCache.set(sha256, sections);
    }
  }
  const found = sections;
  return SPEC_SIDECARS.filter((kind) => found.has(kind.section)).map((kind) => ({
    kind,
    origin: `custom section ${kind.section}`,
    load: async () => {
      const section = found.get(kind.section) ?? new Uint8Array();
      return typeof section === 'number' ? { problem: `${section} bytes, over the ${MAX_SPEC_SIDECAR_BYTES}-byte limit` } : decode(section);
    },
  }));
}

export interface FindSpecSidecarOptions {
  /** sha256 of the component bytes: the custom-section scan is remembered under it. */
  sha256?: string;
  /** Skip the custom-section scan (no binary to read). */
  skipSections?: boolean;
}

/** The highest-ranked valid spec the author ships for `file` (a `.wasm`), with warnings (see the module comment). */
export async function findSpecSidecar(file: string, options: FindSpecSidecarOptions = {}): Promise<SidecarLookup> {
  const candidates = [...(await fileCandidates(file)), ...(options.skipSections === true ? [] : await sectionCandidates(file, options.sha256))];
  const warnings: SidecarWarning[] = [];
  let found: FoundSidecarSpec | undefined;
  for (const candidate of candidates) {
    if (found !== undefined) {
      warnings.push({ code: 'spec-sidecar-shadowed', message: `${candidate.origin} is not used: ${found.origin} ranks above it` });
      continue;
    }
    const loaded = await candidate.load();
    const read = 'text' in loaded ? await candidate.kind.read(loaded.text, { fallbackName: fileStem(file) }) : { ok: false as const, message: loaded.problem };
    if (!read.ok) {
      warnings.push({ code: 'spec-sidecar-invalid', message: `${candidate.origin} is not used (${read.message}): the tool's interface comes from the next source (finally its --help)` });
      continue;
    }
    found = { spec: read.spec, format: candidate.kind.format, source: sidecarSource(candidate.kind.format), origin: candidate.origin };
    if (read.notes.length > 0) warnings.push({ code: 'spec-sidecar-partial', message: `${candidate.origin}: ${read.notes.join('; ')}` });
  }
  return { ...(found !== undefined ? { found } : {}), warnings, present: candidates.map((candidate) => candidate.origin) };
}
