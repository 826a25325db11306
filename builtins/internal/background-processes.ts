/**
 * Background processes of one host: what `shell` with `run_in_background` starts and the `process`
 * tool lists, reads, waits for, writes to and kills.
 *
 * Each process is launched like a foreground `shell` command (the same sandbox plan: PID + mount
 * namespace where available, else its own process group; the same scrubbed environment; a cwd inside
 * the workspace) but with a stdin pipe and no timeout. Its combined output goes to a ring buffer of
 * `BACKGROUND_OUTPUT_BUFFER_BYTES`. When the command exits, whatever it left running in its group is
 * killed, as in the foreground. The registry is a host resource (see ToolContext.hostResource): the
 * host closes it when it stops, which kills every process group still alive; a process `exit` hook
 * does the same if Node exits without closing the host.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { CommandSandboxSettings } from '../../src/command-sandbox.ts';
import type { HostResource, HostResourceKey } from '../../src/tool.ts';
import { OutputRing } from './background-output.ts';
import { OWNER_SEPARATOR, type ProcessFleet } from './process-fleet.ts';
import type { CommandCgroup } from './cgroup-limits.ts';
import { commandCgroupFor, commandLimitsReport, type CommandLimitsReport } from './command-cgroup.ts';
import { signalGroupBelowLauncher } from './group-signals.ts';
import { sandboxedCommand, type ProcessIsolation, type ProcessSandboxPlan } from './process-sandbox.ts';

/** Output kept per process: the newest 1 MiB of stdout and stderr together. */
export const BACKGROUND_OUTPUT_BUFFER_BYTES = 1024 * 1024;
/**
 * Stdin bytes a process may leave unread (written but not yet taken by the pipe): a `write_stdin` that
 * would queue more is refused whole, so a process that never reads cannot make the host buffer without end.
 */
export const BACKGROUND_STDIN_BUFFER_BYTES = 1024 * 1024;
/** Processes that may run at once per host; starting one more is refused. */
export const BACKGROUND_MAX_LIVE_PROCESSES = 8;
/** Records kept per host, live and finished; the oldest finished ones are forgotten first. */
export const BACKGROUND_MAX_KEPT_PROCESSES = 32;
/** How long to wait for the output pipes to close after the process group was killed. */
const PIPE_DRAIN_GRACE_MS = 1000;

export type StopSignal = 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'SIGKILL';

/** Process groups alive in this Node process, killed synchronously if it exits without closing its hosts. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

export interface BackgroundStartRequest {
  command: string;
  /** Real path of the directory to run in (already confined to the workspace). */
  cwdReal: string;
  /** The same directory relative to the workspace root, for display. */
  cwdRelative: string;
  env: Record<string, string>;
  plan: ProcessSandboxPlan;
  /** Real path of the workspace root (the one writable folder under the `namespaces` plan). */
  workspaceReal: string;
  settings: CommandSandboxSettings;
}

/** A snapshot of a process's state, as tools report it. */
export interface BackgroundStatus {
  process_id: string;
  command: string;
  cwd: string;
  running: boolean;
  /** Known once the process has ended (null if it was killed by a signal). */
  exit_code?: number | null;
  signal?: string | null;
  /** Set when the process could not be started. */
  spawn_error?: string;
  /** `"shutdown"` when the host killed it because it (the replica) was shutting down. */
  ended_by?: 'shutdown';
  started_at: string;
  duration_ms: number;
  output_bytes: number;
  unread_bytes: number;
  isolation: ProcessIsolation;
}

export class BackgroundProcess {
  readonly output = new OutputRing(BACKGROUND_OUTPUT_BUFFER_BYTES);
  /** Absolute output offset the next `output` read starts at. */
  readOffset = 0;
  /** The process-count and memory caps it runs under (`metadata.limits`). */
  readonly limits: CommandLimitsReport;
  readonly startedAt = Date.now();
  private finishedAt: number | undefined;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  private spawnError: string | undefined;
  private killedByShutdown = false;
  private readonly child: ChildProcess;
  private readonly finished: Promise<void>;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly cwd: string,
    readonly isolation: ProcessIsolation,
    request: BackgroundStartRequest,
    cgroup: CommandCgroup | undefined,
  ) {
    this.limits = commandLimitsReport(request.plan, request.settings, cgroup);
    const launch = sandboxedCommand(request.plan, '/bin/sh', ['-c', request.command], {
      workspace: request.workspaceReal,
      cwd: request.cwdReal,
      settings: request.settings,
      ...(cgroup ? { cgroupProcs: cgroup.procsFiles } : {}),
    });
    this.child = spawn(launch.file, launch.args, {
      cwd: request.cwdReal,
      env: request.env,
      // Its own process group, so the whole tree can be signalled (see shell.ts and process-sandbox.ts).
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = this.child.pid;
    if (pid !== undefined) trackGroup(pid);
    this.finished = new Promise<void>((resolve) => {
      let drainTimer: NodeJS.Timeout | undefined;
      const finish = (): void => {
        if (this.finishedAt !== undefined) return;
        this.finishedAt = Date.now();
        clearTimeout(drainTimer);
        if (pid !== undefined) liveGroups.delete(pid);
        this.child.stdout?.destroy();
        this.child.stderr?.destroy();
        this.child.stdin?.destroy();
        void cgroup?.remove();
        resolve();
      };
      this.child.stdout?.on('data', (chunk: Buffer) => this.output.write(chunk));
      this.child.stderr?.on('data', (chunk: Buffer) => this.output.write(chunk));
      // Writing to a process that closed its stdin is reported by write_stdin, never thrown.
      this.child.stdin?.on('error', () => {});
      this.child.on('error', (error) => {
        this.spawnError = error.message;
        finish();
      });
      this.child.on('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        // The command is done: end whatever it left running, then let the pipes drain.
        signalGroup(pid, 'SIGKILL');
        drainTimer ??= setTimeout(finish, PIPE_DRAIN_GRACE_MS);
      });
      this.child.on('close', finish);
    });
  }

  get running(): boolean {
    return this.finishedAt === undefined;
  }

  /** Resolves true once the process has ended and its output is complete, false when `timeoutMs` passes or `signal` aborts first. */
  async waitForExit(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.running) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
      onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.finished.then(() => true as const), gaveUp]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** SIGKILL to the group, remembered as the host's doing: its status then says `ended_by: "shutdown"`. */
  killForShutdown(): void {
    if (!this.running) return;
    this.killedByShutdown = true;
    this.signal('SIGKILL');
  }

  /** Sends `signal` to the whole process group (in a PID namespace, that ends the namespace). */
  signal(signal: StopSignal): void {
    if (!this.running) return;
    // Under bubblewrap a catchable signal must reach the command, not the launcher (group-signals.ts).
    if (signal !== 'SIGKILL' && this.isolation === 'namespaces' && this.child.pid !== undefined) signalGroupBelowLauncher(this.child.pid, signal);
    else signalGroup(this.child.pid, signal);
  }

  /**
   * Queues text on the process's stdin, and closes it when `close` is true. Refused, with nothing
   * written or closed, when the bytes already waiting plus these would exceed BACKGROUND_STDIN_BUFFER_BYTES.
   */
  writeStdin(text: string, close: boolean): { ok: true; bufferedBytes: number } | { ok: false; message: string; bufferedBytes?: number } {
    const stdin = this.child.stdin;
    if (!this.running) return { ok: false, message: `Process ${this.id} has ended; its stdin is closed.` };
    if (!stdin || stdin.destroyed || stdin.writableEnded) {
      return { ok: false, message: `The stdin of process ${this.id} is closed (by close_stdin or by the process); nothing was written.` };
    }
    // Written as bytes: the pipe's writableLength counts a string's characters, not its bytes.
    const bytes = Buffer.from(text, 'utf8');
    const waiting = stdin.writableLength;
    const adding = bytes.length;
    if (waiting + adding > BACKGROUND_STDIN_BUFFER_BYTES) {
      return {
        ok: false,
        bufferedBytes: waiting,
        message:
          `Process ${this.id} has not read the ${waiting} bytes already written to its stdin, and at most ` +
          `${BACKGROUND_STDIN_BUFFER_BYTES} bytes (1 MiB) may wait there; these ${adding} bytes were refused and nothing was written` +
          `${close ? ' (stdin was left open)' : ''}. Check with action "output" whether the process reads its input, wait for it, or kill it.`,
      };
    }
    if (bytes.length > 0) stdin.write(bytes);
    if (close) stdin.end();
    return { ok: true, bufferedBytes: stdin.writableLength };
  }

  status(): BackgroundStatus {
    const status: BackgroundStatus = {
      process_id: this.id,
      command: this.command,
      cwd: this.cwd,
      running: this.running,
      started_at: new Date(this.startedAt).toISOString(),
      duration_ms: (this.finishedAt ?? Date.now()) - this.startedAt,
      output_bytes: this.output.totalBytes,
      unread_bytes: Math.max(0, this.output.totalBytes - Math.max(this.readOffset, this.output.startOffset)),
      isolation: this.isolation,
    };
    if (!this.running) {
      status.exit_code = this.exitCode;
      status.signal = this.exitSignal;
    }
    if (this.spawnError !== undefined) status.spawn_error = this.spawnError;
    if (this.killedByShutdown) status.ended_by = 'shutdown';
    return status;
  }
}

export type BackgroundStartOutcome = { ok: true; process: BackgroundProcess } | { ok: false; message: string };

/**
 * The background processes of one host. In a fleet (`fleet`), ids name their owner (`p1@<replica>`)
 * and the `process` tool reaches other replicas' processes through `fleet` (process-fleet.ts).
 */
export class BackgroundProcesses implements HostResource {
  private readonly processes = new Map<string, BackgroundProcess>();
  private nextNumber = 1;
  private closed = false;
  readonly fleet: ProcessFleet | undefined;
  private readonly closeHooks: Array<() => void> = [];

  constructor(options: { fleet?: ProcessFleet } = {}) {
    this.fleet = options.fleet;
  }

  /** Runs `hook` when the host closes this (e.g. stop answering other replicas). */
  onClose(hook: () => void): void {
    this.closeHooks.push(hook);
  }

  /** Starts a process in its own cgroup (where the machine allows one: process-count and memory caps). */
  async start(request: BackgroundStartRequest): Promise<BackgroundStartOutcome> {
    const cgroup = await commandCgroupFor(request.settings);
    const outcome = this.startIn(request, cgroup);
    if (!outcome.ok) void cgroup?.remove();
    return outcome;
  }

  private startIn(request: BackgroundStartRequest, cgroup: CommandCgroup | undefined): BackgroundStartOutcome {
    if (this.closed) return { ok: false, message: 'The host is shutting down; no background process was started.' };
    const live = this.list().filter((candidate) => candidate.running).length;
    if (live >= BACKGROUND_MAX_LIVE_PROCESSES) {
      return {
        ok: false,
        message:
          `${live} background processes are already running, the most this host allows (${BACKGROUND_MAX_LIVE_PROCESSES}). ` +
          'Stop one with the process tool (action "kill") or wait for one to finish, then start this again.',
      };
    }
    this.forgetOldFinished(BACKGROUND_MAX_KEPT_PROCESSES - 1);
    const id = `p${this.nextNumber}${this.fleet !== undefined ? OWNER_SEPARATOR + this.fleet.replicaId : ''}`;
    this.nextNumber += 1;
    const started = new BackgroundProcess(id, request.command, request.cwdRelative, request.plan.isolation, request, cgroup);
    this.processes.set(id, started);
    return { ok: true, process: started };
  }

  get(id: string): BackgroundProcess | undefined {
    return this.processes.get(id);
  }

  /** In start order. */
  list(): BackgroundProcess[] {
    return [...this.processes.values()];
  }

  /** Kills every process group still alive (their status says `ended_by: "shutdown"`) and waits for them to end. */
  async close(): Promise<void> {
    this.closed = true;
    for (const hook of this.closeHooks.splice(0)) hook();
    const live = this.list().filter((candidate) => candidate.running);
    for (const running of live) running.killForShutdown();
    await Promise.all(live.map((running) => running.waitForExit(PIPE_DRAIN_GRACE_MS * 2)));
  }

  private forgetOldFinished(keep: number): void {
    for (const [id, candidate] of this.processes) {
      if (this.processes.size <= keep) return;
      if (!candidate.running) this.processes.delete(id);
    }
  }
}

/** The key under which a host keeps its background processes. */
export const backgroundProcessesKey: HostResourceKey<BackgroundProcesses> = Object.freeze({
  name: 'background processes',
  create: () => new BackgroundProcesses(),
});
