/** Shared fixtures for the extension tests: temp folders, the built test components, hosts, events. */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wasmExtensions } from '../../src/extensions/index.ts';
import type { WasmExtensionsOptions } from '../../src/extensions/wasm-extensions.ts';
import { createHost, type ExtensionSourceFactory } from '../../src/host.ts';
import type { Host, HostEvent, HostOptions } from '../../src/host-types.ts';
import { pino, type Logger } from 'pino';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');

/** A built test component (`npm run fixtures`); fails loudly when it has not been built. */
export function fixture(name: string): string {
  const file = join(FIXTURES, `${name}.wasm`);
  if (!existsSync(file)) throw new Error(`missing test component ${file}: run \`node test/fixtures/build.mjs\``);
  return file;
}

export interface TempRoot {
  path: string;
  /** A new empty sub-folder. */
  folder(name: string): string;
  remove(): void;
}

export function tempRoot(prefix = 'toolhost-ext-'): TempRoot {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return {
    path,
    folder(name) {
      const folder = join(path, name);
      mkdirSync(folder, { recursive: true });
      return folder;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/**
 * `wasmExtensions()`, also recording the events it emits while `recording()` is true. Events of the
 * initial load fire inside `createHost`, before `host.onEvent` can subscribe; this sees them.
 */
export function recordingExtensions(events: HostEvent[], recording: () => boolean = () => true, options: WasmExtensionsOptions = {}): ExtensionSourceFactory {
  const factory = wasmExtensions(options);
  return (context) =>
    factory({
      ...context,
      emit: (event) => {
        if (recording()) events.push(event);
        context.emit(event);
      },
    });
}

/** A real pino logger (level info) whose JSON lines are kept in `records`. */
export function capturingLogger(): { logger: Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, records };
}

export interface ExtHost {
  host: Host;
  /**
   * Every event since the host was created: during the initial load, the ones the extension source
   * emits (load_failed; registry events such as added or collision fire before anyone can subscribe),
   * then everything `host.onEvent` delivers.
   */
  events: HostEvent[];
  /** The host's log records. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function createExtHost(options: HostOptions & { extensionsDir: string; cacheDir: string; wasm?: WasmExtensionsOptions }): Promise<ExtHost> {
  const events: HostEvent[] = [];
  const { logger, records } = capturingLogger();
  let starting = true;
  const { wasm, ...hostOptions } = options;
  const host = await createHost({ limits: { poolSize: 2 }, logger, ...hostOptions }, { extensions: recordingExtensions(events, () => starting, wasm) });
  starting = false;
  host.onEvent((event) => events.push(event));
  return { host, events, logs: records, close: () => host.close({ graceMs: 5_000 }) };
}

/** A host serving the echo component (it prints its argv) as `<name>.wasm` with the given `.tool.json`: the argv a spec makes, seen by a real program. */
export async function echoHostWithToolJson(name: string, toolJson: Record<string, unknown>): Promise<{ ext: ExtHost; close(): Promise<void> }> {
  const root = tempRoot();
  const tools = root.folder('tools');
  copyFileSync(fixture('rt-echo'), join(tools, `${name}.wasm`));
  writeFileSync(join(tools, `${name}.tool.json`), JSON.stringify(toolJson));
  const ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
  return {
    ext,
    close: async () => {
      await ext.close();
      root.remove();
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it returns a truthy value (returned) or `timeoutMs` passes (throws, naming `what`). */
export async function waitFor<T>(what: string | (() => string), condition: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await sleep(intervalMs);
  }
}

/** Waits for an event matching `predicate` among `events` at index `from` or later. */
export function waitForEvent(events: readonly HostEvent[], predicate: (event: HostEvent) => boolean, from = 0, timeoutMs = 10_000): Promise<HostEvent> {
  return waitFor(() => `a matching event (seen: ${JSON.stringify(events.slice(from))})`, () => events.slice(from).find(predicate), timeoutMs);
}

/** The `.tool.json` that opts a tool in to toolhost's output envelope (`{content, error, metadata}` on stdout). */
export const ENVELOPE_SIDECAR = { output: 'envelope' } as const;

/** Fixtures that print toolhost's envelope, and so need `ENVELOPE_SIDECAR` to be read as such. */
export const ENVELOPE_FIXTURES: readonly string[] = ['ext-greet', 'ext-greet2', 'git-clone-like', 'hello', 'rt-echo', 'go-greet'];

/** True when `source` (a path) is one of `ENVELOPE_FIXTURES`, as a component or a core module. */
export function printsEnvelope(source: string): boolean {
  const file = source.split(/[\\/]/).at(-1) ?? '';
  return ENVELOPE_FIXTURES.some((name) => file === `${name}.wasm` || file === `${name}.core.wasm`);
}
