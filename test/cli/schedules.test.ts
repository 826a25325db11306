/**
 * `toolhost schedules` without a daemon: the config's schedules with next runs computed from their
 * expressions (a note on stderr when no daemon answered), JSON or a table; a bad expression is a
 * usage error naming the schedule. (With a daemon: test/schedules/daemon.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCron } from '../../src/schedules/cron.ts';
import { freePort } from '../fleet/harness.ts';
import { runCli, temporaryDirectory } from './run-cli.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function configWith(schedules: unknown[]): { dir: string; file: string } {
  const dir = temporaryDirectory('toolhost-schedules-cli-');
  cleanups.push(dir.remove);
  const file = join(dir.path, 'toolhost.json');
  writeFileSync(file, JSON.stringify({ schedules }));
  return { dir: dir.path, file };
}

const SCHEDULES = [
  { name: 'every-two', cron: '*/2 * * * * *', tool: 'list_dir', arguments: { path: '.' }, timezone: 'UTC' },
  { name: 'nightly', cron: '30 2 * * *', tool: 'shell', arguments: { command: 'make secret-thing' }, timezone: 'Europe/Berlin', overlap: 'queue', jitter_ms: 1000 },
];

describe('toolhost schedules', () => {
  it('--local --json: next runs computed from the config, no arguments shown', async () => {
    const { dir, file } = configWith(SCHEDULES);
    const run = await runCli(['schedules', '--config', file, '--local', '--json'], { cwd: dir });
    expect(run.exitCode, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as { source: string; schedules: Array<{ name: string; cron: string; timezone: string; overlap: string; jitter_ms: number; next_run: string }> };
    expect(body.source).toBe('config');
    expect(body.schedules.map((schedule) => [schedule.name, schedule.timezone, schedule.overlap, schedule.jitter_ms])).toEqual([
      ['every-two', 'UTC', 'skip', 0],
      ['nightly', 'Europe/Berlin', 'queue', 1000],
    ]);
    // each next run is a tick of its expression
    for (const schedule of body.schedules) {
      const cron = parseCron(schedule.cron, schedule.timezone);
      const next = Date.parse(schedule.next_run);
      expect(cron.nextAfter(next - 1)).toBe(next);
    }
    expect(run.stdout).not.toContain('secret-thing');
    expect(run.stderr).toBe('');
  });

  it('says on stderr when no daemon answered, and prints a table', async () => {
    const { dir, file } = configWith(SCHEDULES);
    const port = await freePort();
    const run = await runCli(['schedules', '--config', file, '--url', `http://127.0.0.1:${port}`], { cwd: dir });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(`no daemon answered at http://127.0.0.1:${port}: next runs computed from the config`);
    expect(run.stdout).toMatch(/^NAME\s+CRON\s+TOOL\s+NEXT RUN$/m);
    expect(run.stdout).toMatch(/^every-two\s+\*\/2 \* \* \* \* \*\s+list_dir\s+\d{4}-/m);
  });

  it('refuses a config whose cron expression is invalid, naming the schedule', async () => {
    const { dir, file } = configWith([{ ...SCHEDULES[0], name: 'broken', cron: '*/2 * * * * * * *' }]);
    const run = await runCli(['schedules', '--config', file, '--local'], { cwd: dir });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('schedule "broken": cron "*/2 * * * * * * *" is not valid');
  });

  it('lists nothing without schedules', async () => {
    const { dir, file } = configWith([]);
    const run = await runCli(['schedules', '--config', file, '--local'], { cwd: dir });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('(no schedules');
  });
});
