/**
 * What a tool author and an operator see of three tool contracts, through the real CLI and a real
 * daemon, with a real C component that prints its argv (test/fixtures/c/argv-list.c):
 * - `""` for a positional reaches the program's argv (`[]` in its output);
 * - `.tool.json` `success_exit_codes` (inspect, check, and a call whose exit 1 is a result);
 * - a policy grant of a missing folder: a warning in `check` (an error exit with `--strict`), in
 *   `inspect`, in `GET /v1/tools/{name}/inspect` and in the daemon's log; the tool keeps its parameters.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../extensions/helpers.ts';
import { startDaemon } from '../server/daemon-process.ts';
import { PROJECT_ROOT, runCli, temporaryDirectory } from './run-cli.ts';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');

interface Finding {
  level: string;
  code: string;
  message: string;
}

describe('tool contracts through the CLI and a daemon', { timeout: 120_000 }, () => {
  let root: { path: string; remove: () => void };
  let extensions: string;
  let missing: string;
  // The wasm worker pool resolves its loader from the cwd: runs start in the project root, every path absolute.
  const cli = (args: string[]) => runCli(args, { cwd: PROJECT_ROOT, env: { TOOLHOST_CACHE_DIR: join(root.path, 'cache') }, timeoutMs: 90_000 });

  beforeAll(() => {
    root = temporaryDirectory();
    extensions = join(root.path, 'extensions');
    mkdirSync(extensions);
    missing = join(root.path, 'not-created');
    copyFileSync(join(FIXTURES, 'argv-list.wasm'), join(extensions, 'grep-like.wasm'));
    writeFileSync(join(extensions, 'grep-like.tool.json'), JSON.stringify({ success_exit_codes: [0, 1] }));
    writeFileSync(join(extensions, 'grep-like.policy.json'), JSON.stringify({ fs: [{ host: missing, guest: '/out', mode: 'rw' }] }));
    copyFileSync(join(FIXTURES, 'argv-list.wasm'), join(extensions, 'bad-codes.wasm'));
    writeFileSync(join(extensions, 'bad-codes.tool.json'), JSON.stringify({ success_exit_codes: [0, 300] }));
  });
  afterAll(() => root.remove());

  it('check: the missing folder is a warning (exit 0), an error exit with --strict; the exit codes are shown', async () => {
    const run = await cli(['check', join(extensions, 'grep-like.wasm'), '--json']);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as { findings: Finding[]; facts: { options?: number; positionals?: number } };
    expect(report.findings).toContainEqual({
      level: 'warning',
      code: 'grant-folder-missing',
      message: `the policy grants /out (rw) from ${missing}, which does not exist: help capture and calls run without this grant until the folder exists`,
    });
    expect(report.findings).toContainEqual(expect.objectContaining({ level: 'ok', code: 'success-exit-codes', message: expect.stringContaining('exit codes 0, 1 end a call with a result') }));
    // The help still ran: two options, two positionals.
    expect(report.facts).toMatchObject({ options: 2, positionals: 2 });
    const strict = await cli(['check', join(extensions, 'grep-like.wasm'), '--strict']);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toMatch(/warn\s+the policy grants \/out \(rw\)/);
  });

  it('check: a bad success_exit_codes is an error naming the field', async () => {
    const run = await cli(['check', join(extensions, 'bad-codes.wasm'), '--json']);
    expect(run.exitCode).toBe(1);
    const report = JSON.parse(run.stdout) as { findings: Finding[] };
    expect(report.findings).toContainEqual(expect.objectContaining({ level: 'error', code: 'overrides-invalid', message: expect.stringContaining('success_exit_codes.1: must be 0-255') }));
  });

  it('inspect: shows the exit codes and the warning', async () => {
    const run = await cli(['inspect', join(extensions, 'grep-like.wasm')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('exit codes  0, 1 are results; any other is an error');
    expect(run.stdout).toContain(`warning  the policy grants /out (rw) from ${missing}, which does not exist`);
    const json = JSON.parse((await cli(['inspect', join(extensions, 'grep-like.wasm'), '--json'])).stdout) as { success_exit_codes: number[]; warnings: Finding[] };
    expect(json.success_exit_codes).toEqual([0, 1]);
    expect(json.warnings).toEqual([expect.objectContaining({ code: 'grant-folder-missing' })]);
  });

  it('a daemon logs the warning, reports it on /inspect, passes "" positionals and treats exit 1 as a result', async () => {
    const daemon = await startDaemon(['--extensions', extensions, '--cache-dir', join(root.path, 'cache')], { cwd: PROJECT_ROOT });
    try {
      // stderr and stdout are separate pipes: the log line may arrive after the "listening" line.
      await waitFor('the warning in the daemon log', () => daemon.stderr().includes('extension loaded with a warning: the policy grants /out (rw)'), 30_000);
      const inspection = (await (await fetch(`${daemon.url}/v1/tools/grep-like/inspect`)).json()) as { success_exit_codes: number[]; warnings: Finding[]; schema: { properties: object } };
      expect(inspection.success_exit_codes).toEqual([0, 1]);
      expect(inspection.warnings).toEqual([expect.objectContaining({ code: 'grant-folder-missing' })]);
      expect(Object.keys(inspection.schema.properties).sort()).toEqual(['exit_code', 'pattern', 'tag', 'template']);
      const response = await fetch(`${daemon.url}/v1/tools/grep-like/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: { pattern: '', template: '', tag: '', exit_code: 1 } }),
      });
      const result = (await response.json()) as { content: string; is_error: boolean; metadata: Record<string, unknown> };
      expect(result.is_error).toBe(false);
      expect(result.content).toBe('argc=4\n[--exit-code]\n[1]\n[]\n[]\n');
      expect(result.metadata).toMatchObject({ exit_code: 1, missing_grants: ['/out'] });
      // The failed load of the other file is a load failure, not a warning.
      const failures = (await (await fetch(`${daemon.url}/v1/load-failures`)).json()) as unknown;
      expect(JSON.stringify(failures)).toContain('bad-codes.wasm');
      expect(JSON.stringify(failures)).not.toContain('grep-like');
    } finally {
      await daemon.stop();
    }
  });
});
