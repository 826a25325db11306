/** A real `toolhost serve` process on an ephemeral loopback port, for the console's browser tests and the CLI's. */
import type { ChildProcess } from 'node:child_process';
import { spawnCli } from '../cli/run-cli.ts';

export interface Daemon {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /**
   * The admin token `toolhost serve` printed on stderr ("toolhost admin token: <token> (...)"), or
   * undefined when it was configured (TOOLHOST_ADMIN_TOKEN, admin_token) and so not printed.
   */
  adminToken: string | undefined;
  /** The exit, once it happened. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

const ADMIN_TOKEN_LINE = /^toolhost admin token: /m;
/** A generated token: 32 bytes in base64url. */
const GENERATED_ADMIN_TOKEN = /^toolhost admin token: ([A-Za-z0-9_-]{43}) \(/m;

/**
 * Starts `toolhost serve --port 0 <args>` in `cwd` (extra environment in `env`) and waits for the
 * line with its URL on stdout and the admin-token line on stderr.
 */
export async function startDaemon(args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Daemon> {
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in time\nstdout: ${stdout}\nstderr: ${stderr}`)), 30_000);
    const check = (): void => {
      const match = /^toolhost listening on (http:\/\/\S+) /m.exec(stdout);
      // stderr and stdout are separate pipes: the admin-token line, written first, may arrive second.
      if (match?.[1] && ADMIN_TOKEN_LINE.test(stderr)) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited early\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  const adminToken = GENERATED_ADMIN_TOKEN.exec(stderr)?.[1];
  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    adminToken,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
