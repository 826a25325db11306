/**
 * Looking at processes from the host's side of a shell call, for tests: a command started in a PID
 * namespace reports namespace pids (`$!`), so tests find its processes on the host by a unique
 * argument (e.g. `sleep 1000.481516`) in /proc/<pid>/cmdline, and map pids through `NSpid`.
 */
import { readdir, readFile } from 'node:fs/promises';

/** A `sleep` duration no other process uses, so its processes can be found by their command line. */
export function uniqueSleepSeconds(): string {
  return `1000.${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
}

/** True while a process exists and is not a zombie (containers may not reap orphans). */
export async function processIsRunning(pid: number): Promise<boolean> {
  try {
    const status = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = status.slice(status.lastIndexOf(')') + 2, status.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Host pids of running processes that have `argument` as one of their arguments. */
export async function findProcessesWithArgument(argument: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
      if (argv.includes(argument) && (await processIsRunning(Number(entry)))) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** The pid of a host process in the innermost PID namespace it belongs to (`NSpid`'s last field). */
export async function innermostPid(hostPid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${hostPid}/status`, 'utf8');
    const line = status.split('\n').find((candidate) => candidate.startsWith('NSpid:'));
    const last = line?.trim().split(/\s+/).pop();
    return last === undefined ? undefined : Number(last);
  } catch {
    return undefined;
  }
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns its last answer. */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 5000, intervalMs = 20): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until no running process has `argument`; true when that happened within `timeoutMs`. */
export function waitUntilNoneRunning(argument: string, timeoutMs = 5000): Promise<boolean> {
  return waitUntil(async () => (await findProcessesWithArgument(argument)).length === 0, timeoutMs);
}

/** Waits until exactly `count` running processes have `argument` and returns their host pids (empty on timeout). */
export async function waitForProcesses(argument: string, count = 1, timeoutMs = 10_000): Promise<number[]> {
  let pids: number[] = [];
  await waitUntil(async () => {
    pids = await findProcessesWithArgument(argument);
    return pids.length >= count;
  }, timeoutMs);
  return pids.length >= count ? pids : [];
}
