/**
 * How a dropped file's tool name is chosen, and how two files that want one name are settled.
 *
 * The name is the file's stem (`git-clone.wasm` → `git-clone`), sanitized to the provider rules
 * (`[A-Za-z0-9_-]`, at most 64 characters); a `.tool.json` `name` overrides it. The person who dropped
 * the file chose that name, and it is unique in the folder, whereas the program the `--help` Usage
 * line shows (`git`, `python`, `USAGE`) is not: that program goes into the description and `inspect`.
 *
 * A real clash (two stems that sanitize alike, a `.tool.json` name already in use, or a stem equal to
 * a built-in's name) never drops a file. The rule:
 * - built-in tools keep their names;
 * - at start, files register in `registrationOrder`: files whose stem is already a valid tool name
 *   first, then by file name (code-unit order), so `a_b.wasm` keeps `a_b` and `a b.wasm` becomes
 *   `a_b_2`; the first to register keeps the name and each later one gets the lowest free suffix
 *   `_2`, `_3`, ...;
 * - while the host runs, a loaded file keeps the name it was given across reloads until it is removed
 *   or the name it wants changes (a name never moves under the agents using it); a removed file's name
 *   is free for the next file that loads.
 * Every clash is reported: a `collision` event, a warning in the log, `name_clash` in the tool's
 * details (what `list` shows) and `ExtensionSet.clashes()`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readToolOverrides } from '../introspect/overrides.ts';
import { specSidecarPaths, type SidecarFormat } from '../introspect/sidecars/index.ts';
import type { ToolSource } from '../tool.ts';
import { fileStem, isValidToolName, sanitizeToolName, suffixedToolName } from '../tool-name.ts';

/** A file that did not get the name it wanted, and why. */
export interface NameClash {
  file: string;
  /** The name the file asked for (its sanitized stem, or its `.tool.json` name). */
  wanted: string;
  /** The name it is served under. */
  name: string;
  /** Who holds `wanted`: a built-in, or another file of the folder. */
  holder: ToolSource;
  holderFile?: string;
  reason: string;
}

export { fileStem };

/**
 * The sidecar files next to a component: `dir/x.wasm` → `dir/x.policy.json`, `dir/x.tool.json`, and the
 * spec sidecars `dir/x.usage.kdl`, `dir/x.oclif.manifest.json`, `dir/x.carapace.yaml` (src/introspect/sidecars).
 */
export function sidecarPaths(file: string): { policy: string; overrides: string } & Record<SidecarFormat, string> {
  const base = join(dirname(file), fileStem(file));
  return { policy: `${base}.policy.json`, overrides: `${base}.tool.json`, ...specSidecarPaths(file) };
}

/** The name a file asks for: its `.tool.json` name when given, else its sanitized stem. */
export function wantedToolName(file: string, overrideName?: string): string {
  return overrideName ?? sanitizeToolName(fileStem(file));
}

/**
 * The description of a wasm tool: the help's description, and the program its Usage line names when
 * that differs from the tool name (so `git-clone` still says it runs `git`). `verbatim` (a description
 * written in `.tool.json`) is used as written: its author already said what the tool is.
 */
export function describeWasmTool(description: string, program: string, name: string, options: { verbatim?: boolean } = {}): string {
  const text = description.trim();
  if (text === '') return `Runs the ${program} command-line tool (wasm).`;
  return program === name || options.verbatim === true ? text : `${text} (program: ${program})`;
}

/** Order in which files claim names at start: verbatim-valid stems first, then by file name. */
export function registrationOrder(a: string, b: string): number {
  const rank = (file: string): number => (isValidToolName(fileStem(file)) ? 0 : 1);
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  const [left, right] = [basename(a), basename(b)];
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `wanted` when it is free, else `wanted_2`, `wanted_3`, ...: the lowest free suffix. */
export function chooseToolName(wanted: string, isTaken: (name: string) => boolean): string {
  if (!isTaken(wanted)) return wanted;
  for (let n = 2; ; n += 1) {
    const candidate = suffixedToolName(wanted, n);
    if (!isTaken(candidate)) return candidate;
  }
}

/** The sentence `check`, `list`, the log and the events use for a clash. */
export function clashReason(clash: Omit<NameClash, 'reason'>): string {
  const holder = clash.holder === 'builtin' ? 'a built-in tool' : `${clash.holderFile !== undefined ? basename(clash.holderFile) : 'another file'}`;
  const rule = clash.holder === 'builtin' ? 'built-ins keep their names' : 'the file registered first keeps it';
  return `${basename(clash.file)} wants the tool name "${clash.wanted}", which ${holder} already has (${rule}); it is served as "${clash.name}"`;
}

export interface PlannedName {
  file: string;
  wanted: string;
  name: string;
  clash?: NameClash;
}

/**
 * The names a host starting on these files would give them, with the same rule the ExtensionSet
 * applies (for `check`, which looks at one file but must say what its folder does to its name).
 * `reserved` are names already taken by built-ins.
 */
export function planToolNames(entries: readonly { file: string; wanted: string }[], reserved: Iterable<string>): PlannedName[] {
  const builtins = new Set(reserved);
  const holders = new Map<string, string>();
  const planned: PlannedName[] = [];
  for (const entry of [...entries].sort((a, b) => registrationOrder(a.file, b.file))) {
    const name = chooseToolName(entry.wanted, (candidate) => builtins.has(candidate) || holders.has(candidate));
    const result: PlannedName = { ...entry, name };
    if (name !== entry.wanted) {
      const holderFile = holders.get(entry.wanted);
      const partial = { file: entry.file, wanted: entry.wanted, name, holder: builtins.has(entry.wanted) ? ('builtin' as const) : ('wasm' as const), ...(holderFile !== undefined && !builtins.has(entry.wanted) ? { holderFile } : {}) };
      result.clash = { ...partial, reason: clashReason(partial) };
    }
    holders.set(name, entry.file);
    planned.push(result);
  }
  return planned;
}

/** `planToolNames` for every `.wasm` in a folder, reading each `.tool.json` name (an unreadable one counts as absent). */
export async function planFolderToolNames(directory: string, reserved: Iterable<string>): Promise<PlannedName[]> {
  if (!existsSync(directory)) return [];
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.wasm'))
    .map((name) => join(directory, name));
  const entries = await Promise.all(
    files.map(async (file) => {
      const sidecar = sidecarPaths(file).overrides;
      const overrideName = existsSync(sidecar) ? await readToolOverrides(sidecar).then((overrides) => overrides.name, () => undefined) : undefined;
      return { file, wanted: wantedToolName(file, overrideName) };
    }),
  );
  return planToolNames(entries, reserved);
}
