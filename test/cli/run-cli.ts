/** Runs the real `toolhost` executable as a subprocess, the way a user or a script does. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The TypeScript entry, run through tsx: what most CLI tests spawn, so they test the sources as edited. */
export const SOURCE_BIN = join(PROJECT_ROOT, 'src', 'cli', 'bin.mjs');
/** The shipped entry (`bin` in package.json), built by `npm run build`. */
export const DIST_BIN = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'bin.js');

export type CliEntry = 'src' | 'dist';

/** The executable and leading arguments that start the CLI from `entry`. */
export function cliCommand(entry: CliEntry): [string, string[]] {
  return entry === 'dist' ? [process.execPath, [DIST_BIN]] : [process.execPath, [SOURCE_BIN]];
}

export interface CliRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunCliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Which build to run; default the sources. */
  entry?: CliEntry;
}

/**
 * The transpile cache runs use unless a test says otherwise: shared across runs (so it stays warm),
 * outside the repository and the user's own ~/.cache.
 */
export const TEST_XDG_CACHE_HOME = join(tmpdir(), 'toolhost-tests-xdg-cache');

/**
 * The runtime directory runs use (where `toolhost serve` writes its generated admin token,
 * `<dir>/toolhost/admin-token-<port>`): the tests' own, never the user's.
 */
export const TEST_XDG_RUNTIME_DIR = join(tmpdir(), 'toolhost-tests-xdg-runtime');

/** A clean environment: no colour, no inherited toolhost settings, the tests' own cache and runtime directories. */
export function cliEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('TOOLHOST_') && key !== 'NODE_OPTIONS' && !key.startsWith('VITEST')) env[key] = value;
  }
  env['NO_COLOR'] = '1';
  env['XDG_CACHE_HOME'] = TEST_XDG_CACHE_HOME;
  env['XDG_RUNTIME_DIR'] = TEST_XDG_RUNTIME_DIR;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** The entry most tests spawn (kept for tests that build their own command line). */
export const BIN = SOURCE_BIN;

export function spawnCli(args: readonly string[], options: RunCliOptions = {}): ChildProcess {
  const [command, prefix] = cliCommand(options.entry ?? 'src');
  return spawn(command, [...prefix, ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: cliEnvironment(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolhost ${args.join(' ')} did not finish in ${options.timeoutMs ?? 30_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, exitCode, signal });
    });
    child.stdin?.end(options.input ?? '');
  });
}

/** A fresh temporary directory (real path), removed by the returned cleanup. */
export function temporaryDirectory(prefix = 'toolhost-cli-'): { path: string; remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
