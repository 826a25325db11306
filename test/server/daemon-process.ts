/**
 * A real `toolhost serve` daemon in its own process (the sources, through tsx), on a loopback port,
 * and what the tests read about processes from /proc (Linux): children, resident size, nice value,
 * environment. For tests that must see the daemon as a process: its RSS, its children, `kill -9`.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnCli, type CliEntry } from '../cli/run-cli.ts';

export interface DaemonProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `toolhost serve --port 0 <args>` in `cwd` and waits for the line with its URL. */
export async function startDaemon(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined>; entry?: CliEntry }): Promise<DaemonProcess> {
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd: options.cwd, ...(options.env ? { env: options.env } : {}), ...(options.entry ? { entry: options.entry } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in time\nstdout: ${stdout}\nstderr: ${stderr}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = /^toolhost listening on (http:\/\/\S+) \(\d+ tools\)$/m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => reject(new Error(`serve exited early\nstdout: ${stdout}\nstderr: ${stderr}`)));
  });
  if (child.pid === undefined) throw new Error('the daemon has no pid');
  return {
    child,
    pid: child.pid,
    url,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The fields of /proc/<pid>/stat after the command name (state is [0], ppid [1], nice [16]); undefined once gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether a process exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z';
}

/** Live child processes of `pid`. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && fields[1] === String(pid) && fields[0] !== 'Z') children.push(Number(entry));
  }
  return children;
}

/** Resident size of a process, bytes (VmRSS). */
export function residentBytesOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

export function niceOf(pid: number): number {
  return Number(statFields(pid)?.[16]);
}

/** The environment a process was started with, NAME=value entries. */
export function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((entry) => entry !== '');
}

/** The command line of a process, joined by spaces. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * Asks `/healthz` one request after another (25 ms apart) until `work` settles; returns its value and
 * how long each answer took, milliseconds.
 */
export async function probeHealthWhile<T>(url: string, work: Promise<T>): Promise<{ value: T; latencies: number[] }> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  const latencies: number[] = [];
  while (!settled) {
    const started = performance.now();
    const response = await fetch(`${url}/healthz`);
    await response.text();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { value: await watched, latencies };
}
