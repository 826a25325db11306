/** A real `toolhost serve` process on an ephemeral loopback port, for the console's browser tests. */
import type { ChildProcess } from 'node:child_process';
import { spawnCli } from '../cli/run-cli.ts';

export interface Daemon {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

/** Starts `toolhost serve --port 0 <args>` in `cwd` and waits for the line with its URL. */
export async function startDaemon(args: readonly string[], cwd: string): Promise<Daemon> {
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in time\nstdout: ${stdout}\nstderr: ${stderr}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = /^toolhost listening on (http:\/\/\S+) /m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited early\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
