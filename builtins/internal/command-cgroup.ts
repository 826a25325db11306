/**
 * The cgroup of one command, from the host's sandbox settings: a process-count cap and a memory cap
 * where this machine lets the host make cgroups (see cgroup-limits.ts), else none (undefined).
 */
import type { CommandSandboxSettings } from '../../src/command-sandbox.ts';
import { cgroupSupport, createCommandCgroup, type CommandCgroup } from './cgroup-limits.ts';

export async function commandCgroupFor(settings: CommandSandboxSettings): Promise<CommandCgroup | undefined> {
  return createCommandCgroup(await cgroupSupport(), {
    maxProcesses: settings.maxProcesses,
    memoryBytes: settings.memoryMb === undefined ? undefined : settings.memoryMb * 1024 * 1024,
  });
}
