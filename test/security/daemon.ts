/**
 * A real `toolhost serve` process for the attacker tests: started on an ephemeral loopback port with
 * the given flags, config and environment, called over HTTP, stopped with SIGTERM (SIGKILL after 10 s).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolResult } from '../../src/result.ts';
import { spawnCli, type CliEntry } from '../cli/run-cli.ts';

export interface TestDaemon {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  /** POST /v1/tools/{name}/call with `arguments`; the ToolResult (throws on a non-200 answer). */
  call(name: string, args: Record<string, unknown>, headers?: Record<string, string>): Promise<ToolResult>;
  stop(): Promise<void>;
}

export interface TestDaemonOptions {
  workspace: string;
  /** Written to `<configDirectory>/toolhost.json` and passed with --config. */
  config?: Record<string, unknown>;
  configDirectory?: string;
  args?: readonly string[];
  env?: Record<string, string | undefined>;
  entry?: CliEntry;
  /**
   * Resolve only once the daemon says `toolhost ready` (its extensions folder loaded); default true.
   * False resolves at the URL line, while tools may still be loading (for tests of that phase).
   */
  waitReady?: boolean;
}

export async function startTestDaemon(options: TestDaemonOptions): Promise<TestDaemon> {
  const args = ['serve', '--port', '0', '--workspace', options.workspace, ...(options.args ?? [])];
  if (options.config !== undefined) {
    const file = join(options.configDirectory ?? options.workspace, 'toolhost.json');
    writeFileSync(file, JSON.stringify(options.config));
    args.push('--config', file);
  }
  const child = spawnCli(args, { cwd: options.workspace, ...(options.env ? { env: options.env } : {}), ...(options.entry ? { entry: options.entry } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 60 s\nstdout: ${stdout}\nstderr: ${stderr}`)), 60_000);
    // The daemon listens before its extensions have loaded; these tests start once every tool is served.
    const check = (): void => {
      const match = /^toolhost listening on (http:\/\/\S+) /m.exec(stdout);
      if (match?.[1] && (options.waitReady === false || /^toolhost ready: /m.test(stderr))) {
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
  return {
    child,
    url,
    stderr: () => stderr,
    async call(name, callArgs, headers = {}) {
      const response = await fetch(`${url}/v1/tools/${name}/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ arguments: callArgs }),
      });
      const body = (await response.json()) as ToolResult;
      if (response.status !== 200) throw new Error(`call ${name}: HTTP ${response.status}: ${JSON.stringify(body)}`);
      return body;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
