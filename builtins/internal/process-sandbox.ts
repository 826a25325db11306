/**
 * Process isolation for commands the host runs on a caller's behalf (the `shell` built-in and its
 * background processes). Three plans, strongest first; `probeProcessSandbox` picks the first that
 * really works on this machine, and every result names the one that ran (`metadata.isolation`).
 *
 * 1. `namespaces` (bubblewrap, `bwrap`): the command gets its own PID, mount, IPC, UTS and cgroup
 *    namespaces (and a user namespace when the host is not root), no capabilities, `no_new_privs`, and
 *    a view of the file system in which everything is read-only but the workspace; `/tmp`, `/var/tmp`,
 *    `/run` (with `$XDG_RUNTIME_DIR`) are private and empty, so same-user sockets there (terminal
 *    multiplexers, `systemd --user`, container sockets) are out of reach; the toolhost installation and
 *    the extensions folder stay read-only even inside the workspace; the cache, config and secrets
 *    files are absent (see CommandSandboxSettings). With `network: none` it also gets its own network
 *    namespace: only a loopback of its own, so neither the host's network nor the daemon's port nor
 *    abstract Unix sockets are reachable. The process count (and memory) is capped by a per-command
 *    cgroup where one can be made (cgroup-limits.ts), else by RLIMIT_NPROC inside the user namespace.
 *    `--die-with-parent`: the namespace dies with the daemon.
 * 2. `pid-namespace` (util-linux `unshare`, when bubblewrap is missing): described below. It hides the
 *    daemon's processes but not its files, network or same-user sockets.
 * 3. `process-group`: no isolation beyond a cleared environment.
 *
 * The `pid-namespace` plan: on Linux each command runs in its own PID and mount namespace with a private /proc (util-linux
 * `unshare`), so it cannot see the host's processes (nor read `/proc/<host>/environ`), and every
 * process it starts, `setsid` ones included, dies with the namespace. The layout, outside in:
 *
 *   setpriv --pdeathsig KILL          the launcher dies when the host's spawning thread dies
 *   unshare [--user --map-current-user] --pid --fork --mount-proc --kill-child
 *                                     new namespaces; the forked PID 1 dies when the launcher dies
 *   setpriv (all capabilities dropped, no new privileges)
 *                                     so no process inside can `umount /proc` and see the host's /proc
 *   /bin/sh -c '"$@"; exit $?' ...    PID 1: waits for the command and exits with its status; it stays
 *                                     in the launcher's process group with its parent-death signal,
 *                                     which the command cannot change for it
 *   <program> <args...>               the command itself (PID 2)
 *
 * When PID 1 of a namespace exits, the kernel kills every process left in it before PID 1 is reaped,
 * so the launcher exits only once the namespace is empty; killing the launcher's process group kills
 * PID 1 and with it the whole namespace.
 *
 * Support is probed once per process by running the real launcher and checking, from inside, that
 * PID 1 is our init, that /proc is the namespace's own, and that the command holds no capabilities.
 * Without a user namespace first (works for root), then with one mapping the caller's uid, then
 * one mapping it to root (older util-linux). Where nothing works (other platforms, no `unshare`, namespaces forbidden), commands
 * run in their own process group as before, and the plan says why.
 */
import { execFile } from 'node:child_process';
import { constants, existsSync, statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_COMMAND_SANDBOX, type CommandSandboxSettings } from '../../src/command-sandbox.ts';

export type ProcessIsolation = 'namespaces' | 'pid-namespace' | 'process-group';

export interface ProcessSandboxPlan {
  isolation: ProcessIsolation;
  /** The arguments placed before the program (`pid-namespace`); empty otherwise. */
  launcher: readonly string[];
  /** `namespaces`: the bubblewrap program, and `prlimit` for the RLIMIT_NPROC fallback (when found). */
  bwrap?: string;
  prlimit?: string;
  /** coreutils `nice`, when found: commands run at a lower CPU priority than the daemon (`COMMAND_NICENESS`). */
  nice?: string;
  /** Why the namespace was not used (for `process-group`); absent otherwise. */
  reason?: string;
}

/** How much lower than the daemon commands run, so a busy command never starves the daemon's event loop of CPU. */
export const COMMAND_NICENESS = 10;

export interface ProcessSandboxProbeOptions {
  /** Paths of the programs; default: looked up in the absolute directories of PATH. `bwrap: ''` skips bubblewrap. */
  bwrap?: string;
  unshare?: string;
  setpriv?: string;
  /** Default: `process.platform`. */
  platform?: NodeJS.Platform;
}

/** The name PID 1 runs under (its `$0`), which the probe looks for in `/proc/1/cmdline`. */
export const SANDBOX_INIT_NAME = 'toolhost-sandbox-init';
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_MARKER = 'toolhost-sandbox-ok';
/**
 * Run from inside the sandbox: our init is PID 1 and our parent (so /proc is the namespace's own and
 * the namespace is real), and the probe holds no permitted or effective capability.
 */
const PROBE_SCRIPT =
  `[ "$PPID" = 1 ] && grep -q ${SANDBOX_INIT_NAME} /proc/1/cmdline && ` +
  `grep -Eq '^CapPrm:[[:space:]]+0+$' /proc/self/status && grep -Eq '^CapEff:[[:space:]]+0+$' /proc/self/status && ` +
  `grep -Eq '^NoNewPrivs:[[:space:]]+1$' /proc/self/status && echo ${PROBE_MARKER}`;

export const PROCESS_GROUP_PLAN: ProcessSandboxPlan = Object.freeze({ isolation: 'process-group', launcher: [] });

/**
 * How the namespace maps users: `none` needs root (CAP_SYS_ADMIN); `current-user` keeps the caller's
 * uid inside (util-linux 2.38+); `root` maps the caller to uid 0 inside, for older util-linux. In
 * every case files the command creates belong to the host's uid outside.
 */
export type UserNamespaceMapping = 'none' | 'current-user' | 'root';

const USER_NAMESPACE_ARGUMENTS: Record<UserNamespaceMapping, string[]> = {
  none: [],
  'current-user': ['--user', '--map-current-user'],
  root: ['--user', '--map-root-user'],
};

/** The launcher arguments for a PID + mount namespace. */
export function namespaceLauncher(mapping: UserNamespaceMapping, programs: { unshare?: string; setpriv?: string } = {}): string[] {
  const unshare = programs.unshare ?? 'unshare';
  const setpriv = programs.setpriv ?? 'setpriv';
  return [
    setpriv,
    '--pdeathsig',
    'KILL',
    unshare,
    ...USER_NAMESPACE_ARGUMENTS[mapping],
    '--pid',
    '--fork',
    '--mount-proc',
    '--kill-child',
    setpriv,
    '--bounding-set=-all',
    '--inh-caps=-all',
    '--ambient-caps=-all',
    '--no-new-privs',
    '/bin/sh',
    '-c',
    '"$@"; exit $?',
    SANDBOX_INIT_NAME,
  ];
}

/** Per-command facts the `namespaces` plan needs (ignored by the other plans). */
export interface SandboxLaunchOptions {
  /** Real path of the workspace: the one writable folder. */
  workspace: string;
  /** Real path of the folder the command starts in (inside the workspace). */
  cwd: string;
  settings: CommandSandboxSettings;
  /** `cgroup.procs` files the launcher joins before it starts anything (cgroup-limits.ts). */
  cgroupProcs?: readonly string[];
}

/** Folders every `namespaces` command gets private and empty (same-user sockets live there). */
function privateFolders(environment: NodeJS.ProcessEnv = process.env): string[] {
  const folders = ['/tmp', '/var/tmp', '/run'];
  const runtime = environment['XDG_RUNTIME_DIR'];
  if (runtime !== undefined && path.isAbsolute(runtime) && !folders.some((folder) => isInside(runtime, folder))) folders.push(runtime);
  return folders.filter((folder) => existsSync(folder));
}

/** `child` is `parent` or below it. */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function kindOf(file: string): 'directory' | 'file' | undefined {
  try {
    return statSync(file).isDirectory() ? 'directory' : 'file';
  } catch {
    return undefined;
  }
}

/**
 * The bubblewrap arguments for one command. Mounts apply in order: the read-only root, a fresh /dev
 * and /proc, the private folders, the writable workspace, then the read-only and hidden paths on top.
 */
export function bubblewrapArguments(plan: ProcessSandboxPlan, options: SandboxLaunchOptions): string[] {
  const { settings, workspace } = options;
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (settings.network === 'none') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  const hiddenFolders = privateFolders();
  for (const folder of hiddenFolders) args.push('--tmpfs', folder);
  args.push('--bind', workspace, workspace);
  for (const readOnly of settings.readOnlyPaths) {
    // Outside the workspace everything is read-only already; in a private folder it is not there at all.
    if (!isInside(readOnly, workspace) || kindOf(readOnly) === undefined) continue;
    args.push('--ro-bind', readOnly, readOnly);
  }
  for (const hidden of settings.hiddenPaths) {
    const kind = kindOf(hidden);
    if (kind === undefined || hiddenFolders.some((folder) => isInside(hidden, folder))) continue;
    // Hiding a folder that holds the workspace would hide the workspace too.
    if (isInside(workspace, hidden)) continue;
    if (kind === 'directory') args.push('--tmpfs', hidden);
    else args.push('--ro-bind', '/dev/null', hidden);
  }
  args.push('--cap-drop', 'ALL', '--chdir', options.cwd, '--');
  // Without a cgroup, RLIMIT_NPROC counts the command's processes in its own user namespace (not for root).
  if (plan.prlimit !== undefined && options.cgroupProcs === undefined) args.push(plan.prlimit, `--nproc=${settings.maxProcesses}:${settings.maxProcesses}`, '--');
  return args;
}

/** Joins the given cgroups (writing its own pid into each `cgroup.procs`), then execs the rest. */
const CGROUP_JOIN_SCRIPT = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';

/** The file and arguments to spawn for `program args...` under a plan. */
export function sandboxedCommand(
  plan: ProcessSandboxPlan,
  program: string,
  args: readonly string[],
  options?: SandboxLaunchOptions,
): { file: string; args: string[] } {
  let command: string[];
  if (plan.isolation === 'namespaces' && plan.bwrap !== undefined) {
    command = [plan.bwrap, ...bubblewrapArguments(plan, options ?? { workspace: '/', cwd: '/', settings: DEFAULT_COMMAND_SANDBOX }), program, ...args];
  } else {
    command = [...plan.launcher, program, ...args];
  }
  if (plan.nice !== undefined) command = [plan.nice, '-n', String(COMMAND_NICENESS), ...command];
  const procs = options?.cgroupProcs ?? [];
  if (procs.length > 0) command = ['/bin/sh', '-c', CGROUP_JOIN_SCRIPT, 'toolhost-cgroup-join', String(procs.length), ...procs, ...command];
  const [file, ...rest] = command;
  return { file: file as string, args: rest };
}

/** Run from inside bubblewrap: PID 2 under bubblewrap's init, no capabilities, no_new_privs, `/` read-only, no network. */
const BUBBLEWRAP_PROBE_SCRIPT =
  `[ "$$" = 2 ] && [ "$PPID" = 1 ] && ` +
  `grep -Eq '^CapEff:[[:space:]]+0+$' /proc/self/status && grep -Eq '^NoNewPrivs:[[:space:]]+1$' /proc/self/status && ` +
  `! (: > /toolhost-sandbox-probe) 2>/dev/null && [ "$(grep -c : /proc/net/dev)" = 1 ] && echo ${PROBE_MARKER}`;

/** Runs a probe command (launcher, then the checks); undefined when it printed the marker, else why not. */
function runProbe(probe: readonly string[]): Promise<string | undefined> {
  const command = { file: probe[0] as string, args: probe.slice(1) };
  return new Promise((resolve) => {
    execFile(
      command.file,
      command.args,
      { env: { PATH: process.env['PATH'] || '/usr/bin:/bin' }, timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!error && stdout.trim() === PROBE_MARKER) return resolve(undefined);
        const detail = stderr.trim().split('\n').filter(Boolean).pop() ?? error?.message ?? 'the isolation checks did not pass';
        resolve(detail);
      },
    );
  });
}

const SYSTEM_DIRECTORIES = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * The absolute path of a program, from PATH's absolute directories then the system ones. Relative
 * PATH entries are skipped: commands run in the workspace, where anyone could plant a `setpriv`.
 */
export async function findProgram(name: string, searchPath = process.env['PATH'] ?? ''): Promise<string | undefined> {
  const directories = [...searchPath.split(':').filter((directory) => path.isAbsolute(directory)), ...SYSTEM_DIRECTORIES];
  for (const directory of directories) {
    const candidate = path.join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The bubblewrap plan, when `bwrap` is here and passes the probe; else why not. */
async function probeBubblewrap(bwrap: string | undefined): Promise<ProcessSandboxPlan | string> {
  if (bwrap === undefined || bwrap === '') return 'bubblewrap (`bwrap`) was not found';
  const prlimit = await findProgram('prlimit');
  const nice = await findProgram('nice');
  const plan: ProcessSandboxPlan = { isolation: 'namespaces', launcher: [], bwrap, ...(prlimit !== undefined ? { prlimit } : {}), ...(nice !== undefined ? { nice } : {}) };
  const launch = sandboxedCommand(plan, '/bin/sh', ['-c', BUBBLEWRAP_PROBE_SCRIPT], { workspace: '/', cwd: '/', settings: DEFAULT_COMMAND_SANDBOX });
  const failure = await runProbe([launch.file, ...launch.args]);
  return failure === undefined ? plan : `bubblewrap: ${failure}`;
}

/** Tries bubblewrap, then the `unshare` launchers in order, and returns the first that works, else the process-group plan. */
export async function probeProcessSandbox(options: ProcessSandboxProbeOptions = {}): Promise<ProcessSandboxPlan> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    return { ...PROCESS_GROUP_PLAN, reason: `PID namespaces need Linux (this is ${platform})` };
  }
  const failures: string[] = [];
  const bubblewrap = await probeBubblewrap(options.bwrap ?? (await findProgram('bwrap')));
  if (typeof bubblewrap !== 'string') return bubblewrap;
  failures.push(bubblewrap);
  const unshare = options.unshare ?? (await findProgram('unshare'));
  const setpriv = options.setpriv ?? (await findProgram('setpriv'));
  if (unshare === undefined || setpriv === undefined) {
    return { ...PROCESS_GROUP_PLAN, reason: `${failures.join('; ')}; util-linux \`unshare\` and \`setpriv\` are needed for PID namespaces and were not found` };
  }
  for (const mapping of ['none', 'current-user', 'root'] as const) {
    const launcher = namespaceLauncher(mapping, { unshare, setpriv });
    const failure = await runProbe([...launcher, '/bin/sh', '-c', PROBE_SCRIPT]);
    if (failure === undefined) return { isolation: 'pid-namespace', launcher, reason: failures.join('; ') };
    failures.push(`user mapping ${mapping}: ${failure}`);
  }
  return { ...PROCESS_GROUP_PLAN, reason: `no PID namespace could be created (${failures.join('; ')})` };
}

let cachedPlan: Promise<ProcessSandboxPlan> | undefined;

/** The plan for this process: probed on first use, then cached. */
export function processSandbox(): Promise<ProcessSandboxPlan> {
  cachedPlan ??= probeProcessSandbox();
  return cachedPlan;
}
