/**
 * Help capture: runs a component with `--help-json`, then `--help`, `-h`, `help`, and keeps the
 * first answer that is usable.
 *
 * ## The `--help-json` convention (for component authors)
 * A component may print its whole CLI spec as one JSON object on stdout when run with
 * `--help-json`, exiting 0. The object has the shape of `CliSpec` (src/introspect/spec.ts):
 *
 * ```json
 * {"name": "imgconv", "description": "Convert images",
 *  "options": [{"long": "quality", "short": "q", "takes_value": true, "type": "integer", "default": 85,
 *               "description": "JPEG quality"}],
 *  "positionals": [{"name": "inputs", "required": true, "variadic": true}],
 *  "subcommands": []}
 * ```
 *
 * Omitted option fields take defaults (`aliases: []`, `takes_value: false`, `type: "string"`, nulls,
 * `false`s). Unknown fields are rejected; an invalid answer is ignored and the text help is used.
 * Set `"prefix": "-"` for Go-style single-dash long options. `"examples"` lists example calls,
 * `[{"description": "…", "argv": ["--quality", "90", "a.png"]}]` or `{"description": "…", "input": {…}}`
 * (src/introspect/examples/).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { debuglog } from 'node:util';
import { ToolHostError } from '../errors.ts';
import { MAX_HELP_CHARS } from './limits.ts';
import type { CliSpec } from './spec.ts';
import { parseCliSpec } from './spec-schema.ts';

export interface HelpRunOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

export type HelpRunner = (args: string[]) => Promise<HelpRunOutput>;

export interface CapturedHelp {
  /** The help text (or the `--help-json` JSON text). */
  text: string;
  /** The argument that produced it: `--help-json`, `--help`, `-h` or `help`. */
  flag: string;
  /** Set when the component answered `--help-json` with a valid spec. */
  spec?: CliSpec;
}

export interface HelpCache {
  get(key: string): Promise<CapturedHelp | undefined>;
  set(key: string, value: CapturedHelp): Promise<void>;
}

export interface CaptureHelpOptions {
  cache?: HelpCache;
  /** sha256 (hex) of the component bytes; required for the cache to be used. */
  cacheKey?: string;
  /** Skip the `--help-json` attempt. */
  skipHelpJson?: boolean;
}

export const HELP_FLAGS = ['--help', '-h', 'help'] as const;

const ERROR_PATTERNS = [
  /^\s*(error|fatal)\b/i,
  /\b(unrecognized|unknown|invalid|illegal|unexpected) (option|argument|flag|command|subcommand)\b/i,
  /\bflag provided but not defined\b/i,
  /\bunrecognized arguments?\b/i,
  /\bno such (option|command|file)\b/i,
  /\bcommand not found\b/i,
];

/** True when the output reads as an error message rather than help. */
export function looksLikeError(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length === 0) return true;
  const lines = trimmed.split('\n');
  const hasOptionLines = lines.some((line) => /^\s{1,8}-{1,2}[A-Za-z0-9]/.test(line));
  const hasUsage = /\busage\b/i.test(trimmed);
  if (hasOptionLines && lines.length > 3) return false;
  const head = lines.slice(0, 3).join('\n');
  if (ERROR_PATTERNS.some((pattern) => pattern.test(head))) return !(hasUsage && hasOptionLines);
  return false;
}

/**
 * Whether a run's output may be taken as help at all: a run that trapped or timed out (no exit code)
 * never is, whatever it printed; a non-zero exit only when its output reads like help (a Usage line or
 * option lines), as Go's flag package and many parsers exit 2 after printing usage.
 */
export function acceptableHelpRun(output: HelpRunOutput, text: string): boolean {
  if (output.exitCode === null) return false;
  if (looksLikeError(text)) return false;
  if (output.exitCode === 0) return true;
  return /\busage\b/i.test(text) || text.split('\n').filter((line) => /^\s{1,8}-{1,2}[A-Za-z0-9]/.test(line)).length >= 2;
}

/** The help text of a run: stdout, or stderr when stdout is empty; capped at MAX_HELP_CHARS. */
export function outputText(output: HelpRunOutput): string {
  const text = output.stdout.trim().length > 0 ? output.stdout : output.stderr;
  return text.length > MAX_HELP_CHARS ? text.slice(0, MAX_HELP_CHARS) : text;
}

async function tryRun(run: HelpRunner, args: string[]): Promise<HelpRunOutput | null> {
  try {
    return await run(args);
  } catch {
    return null;
  }
}

async function tryHelpJson(run: HelpRunner): Promise<CapturedHelp | null> {
  const output = await tryRun(run, ['--help-json']);
  if (output === null || output.exitCode !== 0) return null;
  const text = output.stdout.trim();
  if (!text.startsWith('{')) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = parseCliSpec(json);
  return parsed.ok ? { text, flag: '--help-json', spec: parsed.spec } : null;
}

/**
 * `NODE_DEBUG=toolhost` prints one line per capture: a help cache hit, or a miss (the runs it took).
 * How one tells from outside whether a process ran a tool's help again.
 */
const debug = debuglog('toolhost');

/** Captures a component's help; throws ToolHostError HELP_CAPTURE_FAILED when nothing usable comes back. */
export async function captureHelp(run: HelpRunner, options?: CaptureHelpOptions): Promise<CapturedHelp> {
  const cacheKey = options?.cacheKey;
  if (options?.cache && cacheKey) {
    const cached = await options.cache.get(cacheKey).catch(() => undefined);
    if (cached !== undefined) {
      debug('help cache hit: %s', cacheKey);
      return cached;
    }
  }
  debug('help cache miss: capturing %s', cacheKey ?? '(no cache key)');
  let captured: CapturedHelp | null = options?.skipHelpJson ? null : await tryHelpJson(run);
  const tried: string[] = [];
  for (const flag of HELP_FLAGS) {
    if (captured !== null) break;
    const output = await tryRun(run, [flag]);
    tried.push(output === null ? `${flag}: failed to run` : `${flag}: exit ${String(output.exitCode)}`);
    if (output === null) continue;
    const text = outputText(output);
    if (acceptableHelpRun(output, text)) captured = { text, flag };
  }
  if (captured === null) {
    throw new ToolHostError('HELP_CAPTURE_FAILED', `No usable help output (${tried.join(', ')})`);
  }
  if (options?.cache && cacheKey) await options.cache.set(cacheKey, captured).catch(() => undefined);
  return captured;
}

const CACHE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** Every argv a capture may run, in order: part of what a cached answer depends on. */
export const HELP_CAPTURE_ARGV: readonly (readonly string[])[] = [['--help-json'], ...HELP_FLAGS.map((flag) => [flag])];

/**
 * The folder name that separates cached help by what produced it besides the component: the
 * toolhost version (whose capture and acceptance rules made the entry) and the argv it tries. A
 * toolhost upgrade, or a change to the flags tried, starts a fresh folder instead of trusting help
 * captured under other rules; the component's hash, argv[0] and grants are the caller's `cacheKey`.
 */
export function helpCacheNamespace(toolhostVersion: string): string {
  const argv = createHash('sha256').update(JSON.stringify(HELP_CAPTURE_ARGV)).digest('hex').slice(0, 12);
  return `v${toolhostVersion.replace(/[^A-Za-z0-9._-]/g, '_')}-${argv}`;
}

export interface HelpCacheOptions {
  /** A sub-folder for the entries (see helpCacheNamespace); default none, entries sit in `directory`. */
  namespace?: string;
}

/** A directory of `<sha256>.json` files holding captured help (text, flag, and `--help-json` spec). */
export function createHelpCache(rootDirectory: string, options: HelpCacheOptions = {}): HelpCache {
  if (options.namespace !== undefined && !CACHE_KEY.test(options.namespace.replace(/\./g, '_'))) {
    throw new ToolHostError('HELP_CAPTURE_FAILED', `Invalid help cache namespace "${options.namespace}"`);
  }
  const directory = options.namespace === undefined ? rootDirectory : join(rootDirectory, options.namespace);
  const fileOf = (key: string): string => {
    if (!CACHE_KEY.test(key)) throw new ToolHostError('HELP_CAPTURE_FAILED', `Invalid help cache key "${key}"`);
    return join(directory, `${key}.json`);
  };
  return {
    async get(key) {
      let text: string;
      try {
        text = await readFile(fileOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const value = JSON.parse(text) as { text?: unknown; flag?: unknown; spec?: unknown };
        if (typeof value.text !== 'string' || typeof value.flag !== 'string') return undefined;
        if (value.spec === undefined) return { text: value.text, flag: value.flag };
        const parsed = parseCliSpec(value.spec);
        return parsed.ok ? { text: value.text, flag: value.flag, spec: parsed.spec } : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, value) {
      const file = fileOf(key);
      await mkdir(directory, { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, JSON.stringify(value));
      await rename(temporary, file);
    },
  };
}
