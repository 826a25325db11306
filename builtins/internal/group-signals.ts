/**
 * Signals for a sandboxed command's processes other than SIGKILL. Under the `namespaces` plan the
 * process group's leader is bubblewrap, which does not forward signals and whose death takes the
 * whole namespace with it at once (its init has a parent-death SIGKILL). A SIGTERM sent to the whole
 * group would therefore end the command without letting it shut down. So a catchable signal goes to
 * the group's members except bubblewrap and its init (the leader and the leader's direct children),
 * read from `/proc/<pid>/stat`; SIGKILL still goes to the whole group (and ends the namespace).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** pid → [ppid, pgid] of every process (Linux `/proc`), skipping those that vanish while read. */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), [Number(fields[1]), Number(fields[2])]);
    } catch {
      // Gone meanwhile.
    }
  }
  return table;
}

/** Sends `signal` to the members of `leader`'s process group below its launcher (see the header). */
export function signalGroupBelowLauncher(leader: number, signal: NodeJS.Signals): void {
  for (const [pid, [parent, group]] of processTable()) {
    if (group !== leader || pid === leader || parent === leader) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
