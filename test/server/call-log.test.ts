/**
 * One info-level log line per tool call, read from a real daemon's stderr (`toolhost serve` in its own
 * process, default log level): `tool call` with tool, callId, status (ok, error, refused) and
 * duration_ms, and never the call's arguments or its result, which may hold secrets or private data.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type DaemonProcess } from './daemon-process.ts';
import { postJson, readJson } from './helpers.ts';

interface LogLine {
  level: number;
  msg: string;
  tool?: string;
  callId?: string;
  status?: string;
  duration_ms?: number;
  reason?: string;
}

/** pino's number for `info`. */
const INFO = 30;

/** Secret-looking text the calls carry in arguments and results: it must never reach the log. */
const MARKER = 'call-log-private-marker-7f3a';

/** The daemon's `tool call` lines so far, parsed. */
function callLines(daemon: DaemonProcess): LogLine[] {
  return daemon
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg === 'tool call');
}

async function call(daemon: DaemonProcess, tool: string, args: unknown): Promise<{ is_error: boolean; metadata?: Record<string, unknown> }> {
  const response = await postJson(`${daemon.url}/v1/tools/${tool}/call`, { arguments: args }, {});
  expect(response.status).toBe(200);
  return (await readJson(response)) as { is_error: boolean; metadata?: Record<string, unknown> };
}

describe('call log: one info line per call, through a real daemon', { timeout: 120_000 }, () => {
  let workspace: { path: string; remove: () => void };
  let daemon: DaemonProcess;

  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-call-log-');
    writeFileSync(join(workspace.path, `${MARKER}.txt`), `${MARKER} contents\n`);
    const config = join(workspace.path, 'config.json');
    writeFileSync(config, JSON.stringify({ approvals: [{ tool: 'glob', action: 'deny' }] }));
    daemon = await startDaemon(['--config', config, '--workspace', workspace.path], { cwd: workspace.path });
  });
  afterAll(async () => {
    await daemon?.stop();
    workspace?.remove();
  });

  it('logs a successful call at info with tool, status ok and duration, without its arguments or result', async () => {
    const result = await call(daemon, 'read_file', { path: `${MARKER}.txt` });
    expect(result.is_error).toBe(false);
    const line = await waitForNthLine(daemon, 1);
    expect(line).toMatchObject({ level: INFO, msg: 'tool call', tool: 'read_file', status: 'ok' });
    expect(typeof line.duration_ms).toBe('number');
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(daemon.stderr()).not.toContain(MARKER);
  });

  it('logs a failed call as status error with its reason code, and a refused call as status refused', async () => {
    const before = callLines(daemon).length;
    const failed = await call(daemon, 'read_file', { path: `missing-${MARKER}.txt` });
    expect(failed.is_error).toBe(true);
    const refused = await call(daemon, 'glob', { pattern: `**/${MARKER}*` });
    expect(refused).toMatchObject({ is_error: true, metadata: { reason: 'approval_denied' } });
    await waitForNthLine(daemon, before + 2);
    const lines = callLines(daemon).slice(before);
    expect(lines.map((line) => [line.tool, line.status, line.level])).toEqual([
      ['read_file', 'error', INFO],
      ['glob', 'refused', INFO],
    ]);
    expect(lines[1]?.reason).toBe('approval_denied');
    expect(daemon.stderr()).not.toContain(MARKER);
  });
});

/** Resolves once the daemon has logged at least `count` `tool call` lines. */
function waitForNthLine(daemon: DaemonProcess, count: number): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const lines = callLines(daemon);
      if (lines.length < count) return false;
      daemon.child.stderr?.off('data', check);
      resolve(lines[count - 1] as LogLine);
      return true;
    };
    if (check()) return;
    daemon.child.stderr?.on('data', check);
    void daemon.exited.then(() => reject(new Error(`daemon exited before ${count} call lines\n${daemon.stderr()}`)));
  });
}
