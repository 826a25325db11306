/**
 * Process isolation for commands the host runs on a caller's behalf (the `shell` built-in).
 *
 * On Linux each command runs in its own PID and mount namespace with a private /proc (util-linux
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
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

export type ProcessIsolation = 'pid-namespace' | 'process-group';

export interface ProcessSandboxPlan {
  isolation: ProcessIsolation;
  /** The arguments placed before the program; empty for `process-group`. */
  launcher: readonly string[];
  /** Why the namespace was not used (for `process-group`); absent otherwise. */
  reason?: string;
}

export interface ProcessSandboxProbeOptions {
  /** Paths of the util-linux programs; default: looked up in the absolute directories of PATH. */
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

/** The file and arguments to spawn for `program args...` under a plan. */
export function sandboxedCommand(plan: ProcessSandboxPlan, program: string, args: readonly string[]): { file: string; args: string[] } {
  const [launcherFile, ...launcherArgs] = plan.launcher;
  if (launcherFile === undefined) return { file: program, args: [...args] };
  return { file: launcherFile, args: [...launcherArgs, program, ...args] };
}

function runProbe(launcher: readonly string[]): Promise<string | undefined> {
  const command = sandboxedCommand({ isolation: 'pid-namespace', launcher }, '/bin/sh', ['-c', PROBE_SCRIPT]);
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

/** Tries the namespace launchers in order and returns the first that works, else the process-group plan. */
export async function probeProcessSandbox(options: ProcessSandboxProbeOptions = {}): Promise<ProcessSandboxPlan> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    return { ...PROCESS_GROUP_PLAN, reason: `PID namespaces need Linux (this is ${platform})` };
  }
  const unshare = options.unshare ?? (await findProgram('unshare'));
  const setpriv = options.setpriv ?? (await findProgram('setpriv'));
  if (unshare === undefined || setpriv === undefined) {
    return { ...PROCESS_GROUP_PLAN, reason: 'util-linux `unshare` and `setpriv` are needed for PID namespaces and were not found' };
  }
  const failures: string[] = [];
  for (const mapping of ['none', 'current-user', 'root'] as const) {
    const launcher = namespaceLauncher(mapping, { unshare, setpriv });
    const failure = await runProbe(launcher);
    if (failure === undefined) return { isolation: 'pid-namespace', launcher };
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
