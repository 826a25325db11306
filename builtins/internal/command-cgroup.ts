/**
 * The cgroup of one command, from the host's sandbox settings: a process-count cap and a memory cap
 * where this machine lets the host make cgroups (see cgroup-limits.ts), else none (undefined).
 */
import type { CommandSandboxSettings } from '../../src/command-sandbox.ts';
import { cgroupSupport, createCommandCgroup, type CommandCgroup } from './cgroup-limits.ts';
import type { ProcessSandboxPlan } from './process-sandbox.ts';

/** What a command's result says of its limits (`metadata.limits`), so a caller can check what held. */
export interface CommandLimitsReport {
  /** The process-count cap in force, or null when none could be applied. */
  max_processes: number | null;
  /** The memory cap in force (MiB), or null when none could be applied. */
  memory_mb: number | null;
  /** `cgroup`, `rlimit` (RLIMIT_NPROC in the command's user namespace: not for root), or `none`. */
  enforced_by: 'cgroup' | 'rlimit' | 'none';
}

/** The limits one command ran under, from its plan, the settings and its cgroup (if any). */
export function commandLimitsReport(plan: ProcessSandboxPlan, settings: CommandSandboxSettings, cgroup: CommandCgroup | undefined): CommandLimitsReport {
  if (cgroup !== undefined) {
    return { max_processes: settings.maxProcesses, memory_mb: cgroup.memory ? (settings.memoryMb ?? null) : null, enforced_by: 'cgroup' };
  }
  // RLIMIT_NPROC binds inside bubblewrap's user namespace, which only an unprivileged host gets; root is exempt.
  const rlimit = plan.isolation === 'namespaces' && plan.prlimit !== undefined && process.getuid?.() !== 0;
  return rlimit ? { max_processes: settings.maxProcesses, memory_mb: null, enforced_by: 'rlimit' } : { max_processes: null, memory_mb: null, enforced_by: 'none' };
}

export async function commandCgroupFor(settings: CommandSandboxSettings): Promise<CommandCgroup | undefined> {
  return createCommandCgroup(await cgroupSupport(), {
    maxProcesses: settings.maxProcesses,
    memoryBytes: settings.memoryMb === undefined ? undefined : settings.memoryMb * 1024 * 1024,
  });
}
