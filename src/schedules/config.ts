/**
 * Config key `schedules`: tool calls the daemon makes by itself on a cron schedule.
 *
 *   "schedules": [{"name": "nightly-report", "cron": "0 30 2 * * *", "tool": "shell",
 *                  "arguments": {"command": "make report"}, "timezone": "Europe/Berlin",
 *                  "overlap": "skip", "jitter_ms": 5000}]
 *
 * Exactly these keys. `name` is unique (it is the run's principal `schedule:<name>` and its key in
 * shared state); `cron` has five fields or six (seconds first) and is checked here, with
 * `timezone`, when the config loads, so a bad one fails `CONFIG_INVALID` naming the schedule.
 * `overlap` (default `skip`): what a tick does while the schedule's previous run is still running
 * (`skip` records it as skipped, `queue` runs it after, at most one waiting). `jitter_ms`: a random
 * delay in [0, jitter_ms) before each run. croner is loaded only when the config has schedules.
 */
import { z } from 'zod';
import { cronProblem } from './cron.ts';

export const SCHEDULE_OVERLAP = ['skip', 'queue'] as const;
export type ScheduleOverlap = (typeof SCHEDULE_OVERLAP)[number];

/** Letters, digits, `.`, `_`, `-`; it names Redis keys and the principal `schedule:<name>`. */
export const SCHEDULE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Longest cron expression accepted. */
export const MAX_CRON_LENGTH = 256;
/** Largest `jitter_ms`: one hour. */
export const MAX_JITTER_MS = 3_600_000;

export const scheduleSchema = z
  .object({
    name: z.string().regex(SCHEDULE_NAME_PATTERN, 'a schedule name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit'),
    cron: z.string().min(1).max(MAX_CRON_LENGTH),
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    timezone: z.string().min(1).optional(),
    overlap: z.enum(SCHEDULE_OVERLAP).optional(),
    jitter_ms: z.number().int().nonnegative().max(MAX_JITTER_MS).optional(),
  })
  .strict()
  .superRefine((schedule, context) => {
    if (typeof schedule.cron !== 'string' || (schedule.timezone !== undefined && typeof schedule.timezone !== 'string')) return;
    const problem = cronProblem(schedule.cron, schedule.timezone);
    if (problem !== undefined) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: [problem.startsWith('time zone') ? 'timezone' : 'cron'], message: `schedule "${schedule.name}": ${problem}` });
    }
  });

export const schedulesSchema = z.array(scheduleSchema).superRefine((schedules, context) => {
  const seen = new Set<string>();
  schedules.forEach((schedule, index) => {
    if (seen.has(schedule.name)) context.addIssue({ code: z.ZodIssueCode.custom, path: [index, 'name'], message: `schedule "${schedule.name}" is defined more than once; names must be unique` });
    seen.add(schedule.name);
  });
});

export type ScheduleConfig = z.infer<typeof scheduleSchema>;
