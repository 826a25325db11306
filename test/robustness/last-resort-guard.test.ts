import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/guarded-process.ts', import.meta.url));

it('logs an unhandled rejection and an uncaught exception with their stacks and keeps the process running', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.stdout).toBe('still alive after 2 escaped errors\n');
  expect(run.status).toBe(0);
  const lines = run.stderr.trim().split('\n').map((line) => JSON.parse(line) as { level: number; kind: string; error: string });
  expect(lines.map((line) => line.kind).sort()).toEqual(['uncaughtException', 'unhandledRejection']);
  expect(lines.every((line) => line.level === 60)).toBe(true);
  expect(lines.map((line) => line.error).join('\n')).toMatch(/rejected on purpose[\s\S]*at |thrown on purpose[\s\S]*at /);
});
