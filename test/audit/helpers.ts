/**
 * Helpers for the audit log tests: a project folder with a config whose `audit` section points
 * outside the workspace, a real daemon on it, calls over HTTP, the log's records, and byte-level
 * edits of copies of the log (what an attacker with write access would try).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, temporaryDirectory, type CliRun } from '../cli/run-cli.ts';
import { startDaemon, type DaemonProcess } from '../server/daemon-process.ts';

export const AUDIT_ADMIN_TOKEN = 'audit-admin-token-7c1d93e2a4b5f6';

export interface AuditProject {
  root: string;
  config: string;
  /** The audit log's path. */
  log: string;
  remove(): void;
}

/** A folder with `ws/` (the workspace), `tools/` (extensions), `logs/` and `config.json` holding `config` plus `audit`. */
export function auditProject(audit: Record<string, unknown>, extra: Record<string, unknown> = {}): AuditProject {
  const folder = temporaryDirectory('toolhost-audit-');
  for (const name of ['ws', 'tools', 'logs']) mkdirSync(join(folder.path, name));
  const config = join(folder.path, 'config.json');
  writeFileSync(config, JSON.stringify({ workspace: 'ws', extensions: 'tools', audit: { path: 'logs/audit.jsonl', ...audit }, ...extra }));
  return { root: folder.path, config, log: join(folder.path, 'logs', 'audit.jsonl'), remove: folder.remove };
}

export function startAuditDaemon(project: AuditProject, env: Record<string, string> = {}): Promise<DaemonProcess> {
  return startDaemon(['--config', project.config], { cwd: project.root, env: { TOOLHOST_ADMIN_TOKEN: AUDIT_ADMIN_TOKEN, ...env } });
}

/** `POST /v1/tools/{name}/call`; the parsed answer. */
export async function callOverHttp(url: string, tool: string, args: unknown): Promise<any> {
  const response = await fetch(`${url}/v1/tools/${tool}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
  return response.json();
}

/** Waits until `GET /readyz` says the extensions folder has loaded. */
export async function waitReady(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await fetch(`${url}/readyz`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the daemon did not get ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The records of one file, parsed (complete lines only). */
export function recordsOf(file: string): any[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

/** Every file of the log (rotated, oldest first, then the current one). */
export function logFiles(log: string): string[] {
  const folder = join(log, '..');
  const base = log.slice(folder.length + 1);
  const rotated = readdirSync(folder)
    .filter((name) => new RegExp(`^${base.replace('.', '\\.')}\\.\\d+$`).test(name))
    .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
  return [...rotated.map((name) => join(folder, name)), ...(existsSync(log) ? [log] : [])];
}

export function allRecords(log: string): any[] {
  return logFiles(log).flatMap(recordsOf);
}

/** A copy of the log's folder (files, head) to tamper with. */
export function copyLog(log: string): string {
  const folder = join(log, '..');
  const copy = temporaryDirectory('toolhost-audit-copy-');
  for (const name of readdirSync(folder)) if (!name.endsWith('.lock')) copyFileSync(join(folder, name), join(copy.path, name));
  return join(copy.path, log.slice(folder.length + 1));
}

export function auditCli(args: readonly string[], cwd: string): Promise<CliRun> {
  return runCli(['audit', ...args], { cwd, timeoutMs: 60_000 });
}

/** The byte offset of the start of line `index` (0-based) of `file`. */
export function lineOffset(file: string, index: number): number {
  const bytes = readFileSync(file);
  let offset = 0;
  for (let line = 0; line < index; line += 1) offset = bytes.indexOf(0x0a, offset) + 1;
  return offset;
}
