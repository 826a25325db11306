/**
 * The wasm spec cache: the finished spec of a wasm tool (what deriveWasmToolSpec returns: the help
 * captured and parsed, subcommand helps, spec sidecars, probes and `.tool.json` overrides applied), kept
 * on disk next to the help cache (`<cache>/spec/<namespace>/<key>.json`) so that a load that finds it
 * — a one-shot `toolhost call`, a daemon restart — neither runs the help nor imports the help parser.
 *
 * The key (wasmSpecCacheKey) covers everything the spec depends on: the component's and every
 * sidecar's bytes (`.tool.json`, `.policy.json`, spec sidecars: probeWasmToolVersion), the help cache
 * key (argv[0] and the grants the help runs with), the rest of the resolved policy, the file's name,
 * and the parser version (src/introspect/parser-version.ts, a hash of the parser's own code); the
 * namespace is the help cache's (toolhost version, capture argv).
 *
 * An entry is untrusted input from disk: it is read with caps (size), checked against the spec's zod
 * schema (storedCliSpecSchema) and the other fields' schemas, and must name its own key; anything else
 * is a miss (the spec is derived again and the entry rewritten). The spec's `sources` (which reader
 * decided each field, a non-enumerable property JSON drops) are stored beside it and put back, so
 * `inspect --json` shows the same from a cached spec. Never throws: a failed read or write is a miss.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { debuglog } from 'node:util';
import { z } from 'zod';
import { probeResultSchema } from '../introspect/probe/result-schema.ts';
import { setSources } from '../introspect/reader/claims.ts';
import { parseStoredCliSpec } from '../introspect/spec-schema.ts';
import type { CliOption, CliPositional, CliSpec, FieldSources } from '../introspect/spec.ts';
import type { ProbeResult } from '../introspect/probe/claims.ts';
import type { SidecarFormat } from '../introspect/sidecars/index.ts';
import type { WasmToolSpec } from './wasm-tool.ts';

/** Changes when the entry's layout changes (the parser's own changes are the parser version). */
export const WASM_SPEC_CACHE_FORMAT = 1;
/** Largest entry read back (a spec of a very large CLI is well under it). */
export const MAX_SPEC_ENTRY_BYTES = 16 * 1024 * 1024;

const CACHE_KEY = /^[0-9a-f]{64}$/;
const NAMESPACE = /^[A-Za-z0-9._-]{1,128}$/;

const debug = debuglog('toolhost');

export interface WasmSpecCache {
  get(key: string): Promise<WasmToolSpec | undefined>;
  set(key: string, spec: WasmToolSpec): Promise<void>;
}

/** What a tool's finished spec depends on: the parts of the wasm spec cache key. */
export interface WasmSpecCacheKeyParts {
  /** probeWasmToolVersion: sha256 of the component and of every sidecar's bytes. */
  version: string;
  /** The file's base name (parse and probes see it). */
  fileName: string;
  /** The help cache key (component, argv[0], the grants the help runs with). */
  helpCacheKey: string;
  /** The resolved policy with its host paths as the help cache key counts them (no absolute workspace paths). */
  policy: unknown;
  probeBudgetMs?: number;
  /** parserVersion() of the running code. */
  parserVersion: string;
}

export function wasmSpecCacheKey(parts: WasmSpecCacheKeyParts): string {
  const fields = [String(WASM_SPEC_CACHE_FORMAT), parts.parserVersion, parts.version, parts.fileName, parts.helpCacheKey, JSON.stringify(parts.policy), String(parts.probeBudgetMs ?? '')];
  const hash = createHash('sha256');
  for (const field of fields) hash.update(field).update('\0');
  return hash.digest('hex');
}

const sourcesSchema = z.record(z.string(), z.string()).nullable();
const partSourcesSchema = z.object({ options: z.array(sourcesSchema), positionals: z.array(sourcesSchema) }).strict();
const specSourcesSchema = partSourcesSchema.extend({ spec: sourcesSchema, subcommands: z.array(partSourcesSchema) }).strict();
/** The spec sidecar formats an entry may name (a format this list lacks reads as a miss). */
const SIDECAR_FORMATS = ['usage', 'oclif', 'carapace'] as const satisfies readonly SidecarFormat[];
const warningSchema = z.object({ code: z.string().max(200), message: z.string().max(10_000) }).strict();

const entrySchema = z
  .object({
    format: z.literal(WASM_SPEC_CACHE_FORMAT),
    key: z.string().regex(CACHE_KEY),
    spec: z.unknown(),
    sources: specSourcesSchema,
    helpFlag: z.string().max(200),
    program: z.string().max(200),
    unparsed: z.array(z.object({ line: z.number().int().min(0), text: z.string() }).strict()).optional(),
    sidecar: z.object({ format: z.enum(SIDECAR_FORMATS), origin: z.string().max(4096) }).strict().optional(),
    warnings: z.array(warningSchema).max(1000),
    probe: probeResultSchema.optional(),
  })
  .strict();

type PartSources = z.infer<typeof partSourcesSchema>;
type SpecSources = z.infer<typeof specSourcesSchema>;

interface Parts {
  options: readonly CliOption[];
  positionals: readonly CliPositional[];
}

function partSourcesOf(parts: Parts): PartSources {
  return { options: parts.options.map((option) => option.sources ?? null), positionals: parts.positionals.map((positional) => positional.sources ?? null) };
}

function sourcesOf(spec: CliSpec): SpecSources {
  return {
    spec: spec.sources ?? null,
    ...partSourcesOf(spec),
    subcommands: spec.subcommands.map((command) => partSourcesOf({ options: command.options ?? [], positionals: command.positionals ?? [] })),
  };
}

function restore(object: object, sources: FieldSources | null | undefined): void {
  if (sources !== null && sources !== undefined) setSources(object, sources);
}

function restoreParts(parts: Parts, sources: PartSources | undefined): void {
  parts.options.forEach((option, index) => restore(option, sources?.options[index]));
  parts.positionals.forEach((positional, index) => restore(positional, sources?.positionals[index]));
}

function restoreSources(spec: CliSpec, sources: SpecSources): void {
  restore(spec, sources.spec);
  restoreParts(spec, sources);
  spec.subcommands.forEach((command, index) => restoreParts({ options: command.options ?? [], positionals: command.positionals ?? [] }, sources.subcommands[index]));
}

/** The entry written for `spec` under `key`: plain JSON, the sources beside the spec. */
export function encodeSpecEntry(key: string, derived: WasmToolSpec): Record<string, unknown> {
  return {
    format: WASM_SPEC_CACHE_FORMAT,
    key,
    spec: derived.spec,
    sources: sourcesOf(derived.spec),
    helpFlag: derived.helpFlag,
    program: derived.program,
    ...(derived.unparsed !== undefined ? { unparsed: derived.unparsed } : {}),
    ...(derived.sidecar !== undefined ? { sidecar: { format: derived.sidecar.format, origin: derived.sidecar.origin } } : {}),
    warnings: derived.warnings.map(({ code, message }) => ({ code, message })),
    ...(derived.probe !== undefined ? { probe: derived.probe } : {}),
  };
}

/** The spec an entry holds, when it is a valid entry of `key`; undefined for anything else. */
export function decodeSpecEntry(key: string, value: unknown): WasmToolSpec | undefined {
  const entry = entrySchema.safeParse(value);
  if (!entry.success || entry.data.key !== key) return undefined;
  const parsed = parseStoredCliSpec(entry.data.spec);
  if (!parsed.ok) return undefined;
  const { spec } = parsed;
  const { sources } = entry.data;
  // The sources must describe this spec's parts, one for one.
  if (sources.options.length !== spec.options.length || sources.positionals.length !== spec.positionals.length || sources.subcommands.length !== spec.subcommands.length) return undefined;
  restoreSources(spec, sources);
  return {
    spec,
    helpFlag: entry.data.helpFlag,
    program: entry.data.program,
    ...(entry.data.unparsed !== undefined ? { unparsed: entry.data.unparsed } : {}),
    ...(entry.data.sidecar !== undefined ? { sidecar: entry.data.sidecar } : {}),
    warnings: entry.data.warnings,
    ...(entry.data.probe !== undefined ? { probe: entry.data.probe as ProbeResult } : {}),
  };
}

/**
 * Whether a derived spec may be kept: not when its help failed or a time budget cut it short (a
 * timeout on a busy machine is retried by the next load, as the help cache does).
 */
export function cacheableSpec(derived: WasmToolSpec): boolean {
  return derived.helpProblem === undefined && derived.incomplete !== true;
}

/** A directory of `<key>.json` spec entries under `namespace` (the help cache's, helpCacheNamespace). */
export function createWasmSpecCache(rootDirectory: string, options: { namespace: string }): WasmSpecCache {
  if (!NAMESPACE.test(options.namespace)) throw new Error(`Invalid spec cache namespace "${options.namespace}"`);
  const directory = join(rootDirectory, options.namespace);
  const fileOf = (key: string): string | undefined => (CACHE_KEY.test(key) ? join(directory, `${key}.json`) : undefined);
  return {
    async get(key) {
      const file = fileOf(key);
      if (file === undefined) return undefined;
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch {
        debug('spec cache miss: %s', key);
        return undefined;
      }
      let value: unknown;
      try {
        value = bytes.length > MAX_SPEC_ENTRY_BYTES ? undefined : JSON.parse(bytes.toString('utf8'));
      } catch {
        value = undefined;
      }
      const derived = value === undefined ? undefined : decodeSpecEntry(key, value);
      debug(derived === undefined ? 'spec cache entry unusable: %s' : 'spec cache hit: %s', key);
      return derived;
    },
    async set(key, derived) {
      const file = fileOf(key);
      if (file === undefined || !cacheableSpec(derived)) return;
      try {
        await mkdir(directory, { recursive: true });
        const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
        await writeFile(temporary, JSON.stringify(encodeSpecEntry(key, derived)));
        await rename(temporary, file);
      } catch {
        // A cache that cannot be written is only slower.
      }
    },
  };
}
