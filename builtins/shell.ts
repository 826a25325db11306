/**
 * The `shell` built-in: runs `/bin/sh -c` in the workspace with a cleared environment, an output cap and
 * a timeout, isolated in a PID namespace where the host supports it (see internal/process-sandbox.ts).
 * With `run_in_background` the same command is started under the host's background processes
 * (internal/background-processes.ts) and the call returns at once; the `process` tool manages it.
 * A caller listening for progress (`ToolContext.events`, e.g. an MCP progress token) hears the bytes of
 * output so far, at most every SHELL_PROGRESS_INTERVAL_MS.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { throttledProgress } from '../src/call-events.ts';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool, type ToolContext } from '../src/tool.ts';
import { BACKGROUND_MAX_LIVE_PROCESSES, BACKGROUND_OUTPUT_BUFFER_BYTES, backgroundProcessesKey } from './internal/background-processes.ts';
import { describeFileSystemError, formatBytes } from './internal/files.ts';
import { commandCgroupFor, commandLimitsReport } from './internal/command-cgroup.ts';
import { processSandbox, sandboxedCommand, type ProcessSandboxPlan } from './internal/process-sandbox.ts';
import { DEFAULT_COMMAND_SANDBOX } from '../src/command-sandbox.ts';
import { realWorkspaceRoot, resolveWorkspacePath } from './internal/workspace.ts';

export const SHELL_DEFAULT_TIMEOUT_MS = 30_000;
export const SHELL_MAX_TIMEOUT_MS = 600_000;
/**
 * The longest command (64 KiB of characters): far beyond a command line a person writes, and it bounds
 * what approval rules parse and match on the host's thread.
 */
export const SHELL_MAX_COMMAND_CHARS = 64 * 1024;
/** Output bytes kept: the first half and the last half of this, with a marker in between. */
export const SHELL_MAX_OUTPUT_BYTES = 100 * 1024;
/** How long to wait for the output pipes to close after the process group was killed (a process outside it may hold them). */
const PIPE_DRAIN_GRACE_MS = 1000;
/** At most one progress report (bytes of output so far) per this many ms, for a caller that asked for progress. */
export const SHELL_PROGRESS_INTERVAL_MS = 250;
const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The whole environment a command sees: a small allowlist, never the host's variables (which may
 * hold tokens). HOME is the workspace root, so `~` and tools' dotfiles stay inside the workspace.
 */
export function shellEnvironment(home: string, hostEnvironment: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: hostEnvironment['PATH'] || FALLBACK_PATH,
    HOME: home,
    LANG: hostEnvironment['LANG'] || 'C.UTF-8',
    TERM: 'dumb',
  };
  const lcAll = hostEnvironment['LC_ALL'];
  if (lcAll) environment['LC_ALL'] = lcAll;
  const timeZone = hostEnvironment['TZ'];
  if (timeZone) environment['TZ'] = timeZone;
  return environment;
}

/** Keeps the first and the last `limit / 2` bytes of a stream of chunks, counting what is dropped. */
class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const headLimit = Math.floor(this.limit / 2);
    if (this.headBytes < headLimit) {
      const taken = chunk.subarray(0, headLimit - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      chunk = chunk.subarray(taken.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailLimit = this.limit - headLimit;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= tailLimit && this.tail.length > 1) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  get truncated(): boolean {
    return this.total > this.limit;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (!this.truncated) return Buffer.concat([head, tail]).toString('utf8');
    const tailLimit = this.limit - head.length;
    const keptTail = tail.subarray(Math.max(0, tail.length - tailLimit));
    const omitted = this.total - head.length - keptTail.length;
    return `${head.toString('utf8')}\n[output truncated: ${omitted} bytes omitted]\n${keptTail.toString('utf8')}`;
  }
}

interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  spawnError?: Error;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

const shellInput = z.object({
  command: z
    .string()
    .min(1)
    .max(SHELL_MAX_COMMAND_CHARS)
    .describe(`The command line, run as /bin/sh -c "<command>", e.g. "npm test -- --run" or "ls -la | head"; at most ${SHELL_MAX_COMMAND_CHARS} characters.`),
  cwd: z.string().default('.').describe('Directory to run in, relative to the workspace root. Default: "." (the workspace root).'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(SHELL_MAX_TIMEOUT_MS)
    .default(SHELL_DEFAULT_TIMEOUT_MS)
    .describe(
      `Milliseconds before the command is killed. Default: ${SHELL_DEFAULT_TIMEOUT_MS}, at most ${SHELL_MAX_TIMEOUT_MS}. ` +
        'Does not apply with run_in_background.',
    ),
  run_in_background: z
    .boolean()
    .default(false)
    .describe(
      'Start the command and return at once with metadata.process_id, for servers, watchers and long builds. Read its ' +
        'output, wait for it, write to its stdin or kill it with the process tool. Default: false.',
    ),
});

type ShellInput = z.output<typeof shellInput>;

export interface ShellToolOptions {
  /** How commands are isolated; default: the plan probed once per process (a PID namespace where available). */
  sandbox?: () => Promise<ProcessSandboxPlan>;
}

/** The shell tool with a chosen isolation source; `shellTool` is the instance the host registers. */
export function createShellTool(options: ShellToolOptions = {}) {
  const sandbox = options.sandbox ?? processSandbox;
  let fallbackWarned = false;
  const isolationFor = async (context: ToolContext): Promise<ProcessSandboxPlan> => {
    const plan = await sandbox();
    if (plan.isolation !== 'namespaces' && !fallbackWarned) {
      fallbackWarned = true;
      context.logger.warn(
        { tool: 'shell', isolation: plan.isolation, reason: plan.reason },
        plan.isolation === 'pid-namespace'
          ? 'shell: commands run without bubblewrap, in a PID namespace only: they share the host network (the ' +
              "daemon's port included), can write the daemon's installation and caches and reach same-user sockets " +
              '(install bubblewrap to close this)'
          : 'shell: commands run without a PID namespace; they can see host processes (and read the environment of ' +
              'processes of the same user through /proc), setsid children can outlive a call, and they share the ' +
              "host's network and files",
      );
    }
    return plan;
  };
  return defineTool({
    name: 'shell',
    // timeout_ms (at most SHELL_MAX_TIMEOUT_MS) bounds the command; the host's deadline leaves it room.
    timeoutMs: SHELL_MAX_TIMEOUT_MS + 5_000,
    description:
      'Run a shell command with /bin/sh -c in the workspace and return its combined stdout and stderr. cwd is relative ' +
      'to the workspace root (default: the root). The command gets a minimal environment (PATH, HOME set to the ' +
      'workspace root, LANG, TERM=dumb; no host secrets), no stdin, and is killed with all its child processes when ' +
      `timeout_ms passes (default ${SHELL_DEFAULT_TIMEOUT_MS}). Processes it starts with & are killed when the command exits. ` +
      'Where the host supports it, the command runs in a sandbox: it sees only its own processes, holds no root ' +
      'privileges, can write only inside the workspace, gets a private empty /tmp, and has no network unless the host ' +
      'allows it (metadata.isolation and metadata.network say which applied). ' +
      `Output over ${formatBytes(SHELL_MAX_OUTPUT_BYTES)} keeps its beginning and end. A non-zero exit status is ` +
      'reported as an error with the output. Use it to build, test, run git or other programs; prefer read_file, ' +
      'grep and glob for reading and searching files. With run_in_background the command runs on, with a stdin pipe ' +
      `and no timeout, until it exits, is killed, or the host stops; its newest ${formatBytes(BACKGROUND_OUTPUT_BUFFER_BYTES)} ` +
      `of output are kept, and at most ${BACKGROUND_MAX_LIVE_PROCESSES} run at once.`,
    permission: 'execute',
    input: shellInput,
    secretParams: [],
    execute: async (input, context) => {
      const plan = await isolationFor(context);
      return input.run_in_background ? startInBackground(input, context, plan) : runShell(input, context, plan);
    },
  });
}

/** What network a command had: its own loopback only (`none`) needs the `namespaces` plan; any other plan shares the host's. */
function networkOf(plan: ProcessSandboxPlan, requested: 'none' | 'host'): 'none' | 'host' {
  return plan.isolation === 'namespaces' ? requested : 'host';
}

type DirectoryCheck = { ok: true; real: string; relative: string } | { ok: false; result: ToolResult };

/** The cwd of a command: inside the workspace, existing, and a directory. */
async function resolveCommandDirectory(context: ToolContext, cwd: string): Promise<DirectoryCheck> {
  const resolution = await resolveWorkspacePath(context.workspaceRoot, cwd);
  if (!resolution.ok) return { ok: false, result: errorResult(`cwd: ${resolution.message}`) };
  const directory = resolution.path;
  if (!directory.exists) {
    return { ok: false, result: errorResult(`cwd "${cwd}" does not exist. Use list_dir to find the directory, or create it first.`) };
  }
  try {
    if (!(await stat(directory.real)).isDirectory()) {
      return { ok: false, result: errorResult(`cwd "${directory.relative}" is a file, not a directory. Give the directory to run the command in.`) };
    }
  } catch (error) {
    return { ok: false, result: errorResult(describeFileSystemError(error, directory.relative)) };
  }
  return { ok: true, real: directory.real, relative: directory.relative };
}

/** `run_in_background`: starts the command under the host's background processes and returns at once. */
async function startInBackground(input: ShellInput, context: ToolContext, plan: ProcessSandboxPlan): Promise<ToolResult> {
  if (!context.hostResource) {
    return errorResult('Background processes need a running tool host to keep them; this caller provides none. Run the command without run_in_background.');
  }
  const directory = await resolveCommandDirectory(context, input.cwd);
  if (!directory.ok) return directory.result;
  if (context.signal.aborted) return errorResult('The command was not started: the call was cancelled.');
  const home = await realWorkspaceRoot(context.workspaceRoot);
  const settings = context.sandbox ?? DEFAULT_COMMAND_SANDBOX;
  const started = await context.hostResource(backgroundProcessesKey).start({
    command: input.command,
    cwdReal: directory.real,
    cwdRelative: directory.relative,
    env: shellEnvironment(home),
    plan,
    workspaceReal: home,
    settings,
  });
  if (!started.ok) return errorResult(started.message, { running: false });
  const id = started.process.id;
  return textResult(
    `Started background process ${id}: ${input.command}\n` +
      `Use the process tool with process_id "${id}": action "output" for new output, "wait" to wait for it to exit, ` +
      '"write_stdin" to send input, "kill" to stop it.',
    { process_id: id, running: true, cwd: directory.relative, isolation: plan.isolation, network: networkOf(plan, settings.network), limits: started.process.limits },
  );
}

async function runShell(input: ShellInput, context: ToolContext, plan: ProcessSandboxPlan): Promise<ToolResult> {
  const checked = await resolveCommandDirectory(context, input.cwd);
  if (!checked.ok) return checked.result;
  const directory = checked;
  if (context.signal.aborted) return errorResult('The command was not started: the call was cancelled.');
  const remaining = context.deadline - Date.now();
  if (remaining <= 0) return errorResult('The command was not started: the call deadline has already passed.');
  const timeoutMs = Math.min(input.timeout_ms, remaining);
  const home = await realWorkspaceRoot(context.workspaceRoot);
  const settings = context.sandbox ?? DEFAULT_COMMAND_SANDBOX;
  const cgroup = await commandCgroupFor(settings);

  const output = new OutputCollector(SHELL_MAX_OUTPUT_BYTES);
  const startedAt = Date.now();
  const outcome = await new Promise<RunOutcome>((resolve) => {
    const launch = sandboxedCommand(plan, '/bin/sh', ['-c', input.command], {
      workspace: home,
      cwd: directory.real,
      settings,
      ...(cgroup ? { cgroupProcs: cgroup.procsFiles } : {}),
    });
    const child = spawn(launch.file, launch.args, {
      cwd: directory.real,
      env: shellEnvironment(home),
      // Own process group, so the whole tree can be killed; in a PID namespace the group holds the
      // launcher and the namespace's PID 1, whose death takes every process in the namespace with it.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result: RunOutcome = { exitCode: null, signal: null, timedOut: false, cancelled: false };
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      context.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    const stopAll = (): void => {
      killGroup(child.pid);
      // If a process escaped the group and still holds the pipes, do not wait for it forever.
      drainTimer ??= setTimeout(finish, PIPE_DRAIN_GRACE_MS);
    };
    const timer = setTimeout(() => {
      result.timedOut = true;
      stopAll();
    }, timeoutMs);
    const onAbort = (): void => {
      result.cancelled = true;
      stopAll();
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    // A listener (an MCP progress token) hears the bytes of output so far, at most every SHELL_PROGRESS_INTERVAL_MS.
    const progress = context.events?.progress;
    const report = progress === undefined ? undefined : throttledProgress(progress, SHELL_PROGRESS_INTERVAL_MS);
    const collect = (chunk: Buffer): void => {
      output.add(chunk);
      report?.({ progress: output.total, message: `${output.total} bytes of output` });
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', (error) => {
      result.spawnError = error;
      finish();
    });
    child.on('exit', (code, signal) => {
      result.exitCode = code;
      result.signal = signal;
      // The shell is done: end whatever it left running in the background.
      stopAll();
    });
    child.on('close', finish);
  });
  const durationMs = Date.now() - startedAt;
  void cgroup?.remove();

  const metadata = {
    exit_code: outcome.exitCode,
    signal: outcome.signal,
    timed_out: outcome.timedOut,
    cancelled: outcome.cancelled,
    truncated: output.truncated,
    output_bytes: output.total,
    duration_ms: durationMs,
    cwd: directory.relative,
    isolation: plan.isolation,
    network: networkOf(plan, settings.network),
    limits: commandLimitsReport(plan, settings, cgroup),
  };
  if (outcome.spawnError) {
    return errorResult(`The command could not be started: ${outcome.spawnError.message}`, metadata);
  }
  const text = output.text();
  const body = text.length > 0 ? (text.endsWith('\n') ? text : `${text}\n`) : '(no output)\n';
  if (outcome.timedOut) {
    const byDeadline = timeoutMs < input.timeout_ms;
    return errorResult(
      `${body}[command timed out after ${timeoutMs} ms and was killed with its child processes` +
        (byDeadline ? ' (the call deadline was reached)' : `; raise timeout_ms (at most ${SHELL_MAX_TIMEOUT_MS}) if it needs longer`) +
        ']',
      metadata,
    );
  }
  if (outcome.cancelled) {
    return errorResult(`${body}[command cancelled and killed with its child processes]`, metadata);
  }
  if (outcome.exitCode !== 0) {
    const status = outcome.exitCode === null ? `killed by signal ${outcome.signal ?? 'unknown'}` : `exit code ${outcome.exitCode}`;
    return errorResult(`${body}[command failed: ${status}]`, metadata);
  }
  return textResult(text.length > 0 ? text : '(no output)', metadata);
}

export const shellTool = createShellTool();
