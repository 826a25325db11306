/**
 * Per-command cgroups: a process-count cap (`pids.max`) and a memory cap for each command the host
 * runs for a caller, where this process may create cgroups (root, or a delegated cgroup v2 subtree).
 *
 * Contract:
 * - `probeCgroups()` finds, once per process, where command cgroups can be made: cgroup v1's `pids`
 *   (and `memory`) hierarchies, or a cgroup v2 folder whose children get `pids.max` (and
 *   `memory.max`). It really creates a test group and writes its limits before saying yes; otherwise it
 *   says why not (`{kind: 'none', reason}`), and commands fall back to `RLIMIT_NPROC` inside their user
 *   namespace (see process-sandbox.ts), which holds for unprivileged users but not for root.
 * - `createCommandCgroup(support, limits)` makes one group per command and returns the
 *   `cgroup.procs` files the launcher joins before it starts anything (so no process of the command
 *   ever runs outside the group), and `remove()`, which deletes the group once it is empty.
 * - CPU: every command of this process shares one group of low CPU weight (`toolhost-<pid>-cpu`,
 *   v1 `cpu.shares` 102, about nice 10 against the daemon's 1024; v2 `cpu.weight` 10 per command). Nice
 *   values alone do not do this: with autogroup scheduling (most distributions), every session a
 *   command starts (`setsid`, which the launcher itself does) is its own group with a full share, so
 *   eight busy commands would get eight times the daemon's CPU. A task in a cgroup other than the root
 *   is outside autogroup, so the cgroup's weight is what counts.
 * - Groups are named `toolhost-<pid>-<n>`; groups left by a host that died are removed at the next probe.
 *
 * cgroup v2 without delegation (systemd's default for services) cannot enable controllers below a
 * group that holds processes; the probe then reports `none` and the fallback applies.
 */
import { mkdir, readFile, readdir, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type CgroupSupport =
  | { kind: 'v1'; pidsParent: string; memoryParent: string | undefined; cpuParent: string | undefined }
  | { kind: 'v2'; parent: string; memory: boolean; cpu: boolean }
  | { kind: 'none'; reason: string };

export interface CommandCgroupLimits {
  maxProcesses: number;
  memoryBytes: number | undefined;
}

export interface CommandCgroup {
  /** `cgroup.procs` files to write the launcher's pid into, in order. */
  procsFiles: readonly string[];
  /** True when the group caps memory too (not only the process count). */
  memory: boolean;
  /** Deletes the group (after its processes are gone; retries briefly while the kernel reaps them). */
  remove(): Promise<void>;
}

const PREFIX = `toolhost-`;
let counter = 0;

interface MountInfo {
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

function parseMountInfo(text: string): MountInfo[] {
  const mounts: MountInfo[] = [];
  for (const line of text.split('\n')) {
    const separator = line.indexOf(' - ');
    if (separator === -1) continue;
    const before = line.slice(0, separator).split(' ');
    const after = line.slice(separator + 3).split(' ');
    const mountPoint = before[4];
    const fsType = after[0];
    if (mountPoint === undefined || fsType === undefined) continue;
    mounts.push({ mountPoint: mountPoint.replace(/\\040/g, ' '), fsType, superOptions: (after[2] ?? '').split(',') });
  }
  return mounts;
}

/** `/proc/self/cgroup`: hierarchy controllers → this process's path in it ('' for the v2 line). */
function parseOwnCgroups(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match === null) continue;
    for (const controller of (match[1] as string).split(',')) paths.set(controller, match[2] as string);
  }
  return paths;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A live pid? (Groups of hosts that died are swept.) */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `toolhost-<pid>-<n>` groups whose host is gone (their processes died with it). */
async function sweepStale(parent: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^toolhost-(\d+)-(?:\d+|cpu)$/.exec(name);
    if (match === null || alive(Number(match[1]))) continue;
    await rmdir(join(parent, name)).catch(() => undefined);
  }
}

/** Makes a group, writes its limits, and removes it: the proof that commands can get one. */
async function tryGroup(parent: string, files: Record<string, string>): Promise<string | undefined> {
  const probe = join(parent, `${PREFIX}${process.pid}-probe`);
  try {
    await mkdir(probe);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot create a cgroup in ${parent}: ${(error as Error).message}`;
  }
  try {
    for (const [file, value] of Object.entries(files)) await writeFile(join(probe, file), value);
    return undefined;
  } catch (error) {
    return `cannot set limits in ${probe}: ${(error as Error).message}`;
  } finally {
    await rmdir(probe).catch(() => undefined);
  }
}

async function probeV1(mounts: MountInfo[], own: Map<string, string>): Promise<CgroupSupport> {
  const hierarchy = (controller: string): string | undefined => {
    const mount = mounts.find((entry) => entry.fsType === 'cgroup' && entry.superOptions.includes(controller));
    const path = own.get(controller);
    return mount === undefined || path === undefined ? undefined : join(mount.mountPoint, path);
  };
  const pidsParent = hierarchy('pids');
  if (pidsParent === undefined) return { kind: 'none', reason: 'no cgroup v1 pids hierarchy is mounted' };
  const failure = await tryGroup(pidsParent, { 'pids.max': '64' });
  if (failure !== undefined) return { kind: 'none', reason: failure };
  await sweepStale(pidsParent);
  let memoryParent = hierarchy('memory');
  if (memoryParent !== undefined && (await tryGroup(memoryParent, { 'memory.limit_in_bytes': String(64 * 1024 * 1024) })) !== undefined) memoryParent = undefined;
  if (memoryParent !== undefined) await sweepStale(memoryParent);
  let cpuParent = hierarchy('cpu');
  if (cpuParent !== undefined && (await tryGroup(cpuParent, { 'cpu.shares': String(V1_COMMAND_CPU_SHARES) })) !== undefined) cpuParent = undefined;
  if (cpuParent !== undefined) await sweepStale(cpuParent);
  return { kind: 'v1', pidsParent, memoryParent, cpuParent };
}

async function probeV2(mounts: MountInfo[], own: Map<string, string>): Promise<CgroupSupport> {
  const mount = mounts.find((entry) => entry.fsType === 'cgroup2');
  const path = own.get('');
  if (mount === undefined || path === undefined) return { kind: 'none', reason: 'no cgroup v2 hierarchy is mounted' };
  const parent = join(mount.mountPoint, path);
  const controllers = await readFile(join(parent, 'cgroup.subtree_control'), 'utf8').catch(() => '');
  if (!controllers.split(/\s+/).includes('pids')) {
    // Enabling a controller for children fails where this group holds processes itself (no delegation).
    await writeFile(join(parent, 'cgroup.subtree_control'), '+pids').catch(() => undefined);
    await writeFile(join(parent, 'cgroup.subtree_control'), '+memory').catch(() => undefined);
    await writeFile(join(parent, 'cgroup.subtree_control'), '+cpu').catch(() => undefined);
  }
  const failure = await tryGroup(parent, { 'pids.max': '64' });
  if (failure !== undefined) return { kind: 'none', reason: `cgroup v2 at ${parent} is not delegated to this user (${failure})` };
  await sweepStale(parent);
  const memory = (await tryGroup(parent, { 'memory.max': String(64 * 1024 * 1024) })) === undefined;
  const cpu = (await tryGroup(parent, { 'cpu.weight': String(V2_COMMAND_CPU_WEIGHT) })) === undefined;
  return { kind: 'v2', parent, memory, cpu };
}

/** Where command cgroups can be made on this machine (v1 first: a hybrid host's v2 tree holds no controllers). */
export async function probeCgroups(): Promise<CgroupSupport> {
  if (process.platform !== 'linux') return { kind: 'none', reason: `cgroups need Linux (this is ${process.platform})` };
  let mounts: MountInfo[];
  let own: Map<string, string>;
  try {
    mounts = parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8'));
    own = parseOwnCgroups(await readFile('/proc/self/cgroup', 'utf8'));
  } catch (error) {
    return { kind: 'none', reason: `cannot read this process's cgroups: ${(error as Error).message}` };
  }
  const v1 = await probeV1(mounts, own);
  if (v1.kind !== 'none') return v1;
  const v2 = await probeV2(mounts, own);
  if (v2.kind !== 'none') return v2;
  return { kind: 'none', reason: `${v1.reason}; ${v2.reason}` };
}

/** v1: the weight of the one group all commands share (the daemon's is 1024). */
const V1_COMMAND_CPU_SHARES = 102;
/** v2: each command's weight (default 100). */
const V2_COMMAND_CPU_WEIGHT = 10;

let cached: Promise<CgroupSupport> | undefined;
let sharedCpuGroup: Promise<string | undefined> | undefined;

/** v1: the group every command of this process shares for CPU, made on first use (undefined when it cannot be). */
function sharedCpuProcs(parent: string): Promise<string | undefined> {
  sharedCpuGroup ??= (async () => {
    const directory = join(parent, `${PREFIX}${process.pid}-cpu`);
    try {
      await mkdir(directory).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      await writeFile(join(directory, 'cpu.shares'), String(V1_COMMAND_CPU_SHARES));
      return join(directory, 'cgroup.procs');
    } catch {
      return undefined;
    }
  })();
  return sharedCpuGroup;
}

/** The probe's answer for this process, computed on first use. */
export function cgroupSupport(): Promise<CgroupSupport> {
  cached ??= probeCgroups();
  return cached;
}

async function removeWhenEmpty(directory: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      await rmdir(directory);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EBUSY') return;
    }
    // The kernel has not reaped the group's last processes yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function makeGroup(parent: string, name: string, files: Record<string, string>): Promise<string> {
  const directory = join(parent, name);
  await mkdir(directory);
  for (const [file, value] of Object.entries(files)) await writeFile(join(directory, file), value);
  return directory;
}

/** One group per command, with its limits written; undefined when this machine gives none. */
export async function createCommandCgroup(support: CgroupSupport, limits: CommandCgroupLimits): Promise<CommandCgroup | undefined> {
  if (support.kind === 'none') return undefined;
  counter += 1;
  const name = `${PREFIX}${process.pid}-${counter}`;
  const directories: string[] = [];
  try {
    if (support.kind === 'v1') {
      directories.push(await makeGroup(support.pidsParent, name, { 'pids.max': String(limits.maxProcesses) }));
      if (support.memoryParent !== undefined && limits.memoryBytes !== undefined) {
        directories.push(await makeGroup(support.memoryParent, name, { 'memory.limit_in_bytes': String(limits.memoryBytes) }));
      }
    } else {
      const files: Record<string, string> = { 'pids.max': String(limits.maxProcesses) };
      if (support.memory && limits.memoryBytes !== undefined) files['memory.max'] = String(limits.memoryBytes);
      if (support.cpu) files['cpu.weight'] = String(V2_COMMAND_CPU_WEIGHT);
      directories.push(await makeGroup(support.parent, name, files));
    }
  } catch {
    await Promise.all(directories.map((directory) => removeWhenEmpty(directory)));
    return undefined;
  }
  const cpuProcs = support.kind === 'v1' && support.cpuParent !== undefined ? await sharedCpuProcs(support.cpuParent) : undefined;
  const memory = limits.memoryBytes !== undefined && (support.kind === 'v1' ? support.memoryParent !== undefined : support.memory);
  return {
    memory,
    procsFiles: [...directories.map((directory) => join(directory, 'cgroup.procs')), ...(cpuProcs !== undefined ? [cpuProcs] : [])],
    remove: async () => {
      await Promise.all(directories.map((directory) => removeWhenEmpty(directory)));
    },
  };
}

/** True when `directory` exists: for tests that look for leftovers. */
export const cgroupExists = exists;
