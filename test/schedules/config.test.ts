/**
 * Config key `schedules`: exactly its keys, cron expressions and time zones checked when the config
 * loads (CONFIG_INVALID naming the schedule), unique names; and the next runs croner computes.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig, resolveConfig } from '../../src/config.ts';
import { ToolHostError } from '../../src/errors.ts';
import { parseCron } from '../../src/schedules/cron.ts';

const base = { name: 'tick', cron: '*/2 * * * * *', tool: 'list_dir', arguments: {} };

function configError(value: unknown): string {
  try {
    parseConfig(value);
  } catch (error) {
    if (ToolHostError.is(error, 'CONFIG_INVALID')) return error.message;
    throw error;
  }
  throw new Error('expected a CONFIG_INVALID error');
}

describe('schedules config', () => {
  it('accepts five- and six-field expressions with every optional key', () => {
    const config = parseConfig({
      schedules: [
        { ...base, timezone: 'Europe/Berlin', overlap: 'queue', jitter_ms: 500 },
        { name: 'nightly.report_1', cron: '30 2 * * *', tool: 'shell', arguments: { command: 'true' } },
      ],
    });
    expect(config.schedules?.map((schedule) => schedule.name)).toEqual(['tick', 'nightly.report_1']);
  });

  it('resolves to an empty list without the key', () => {
    expect(resolveConfig({ env: {}, cwd: process.cwd() }).schedules).toEqual([]);
  });

  it('refuses an invalid cron expression, naming the schedule', () => {
    const message = configError({ schedules: [{ ...base, name: 'broken', cron: '61 * * * *' }] });
    expect(message).toContain('schedules.0.cron');
    expect(message).toContain('schedule "broken"');
    expect(message).toContain('minute: 61');
  });

  it('refuses seven fields (a year) and a single word', () => {
    expect(configError({ schedules: [{ ...base, cron: '0 0 0 * * * 2030' }] })).toContain('schedule "tick": cron "0 0 0 * * * 2030" is not valid');
    expect(configError({ schedules: [{ ...base, cron: 'often' }] })).toContain('schedule "tick"');
  });

  it('refuses an expression that never fires', () => {
    expect(configError({ schedules: [{ ...base, cron: '0 0 30 2 *' }] })).toContain('never fires');
  });

  it('refuses an unknown time zone, naming the schedule', () => {
    const message = configError({ schedules: [{ ...base, timezone: 'Mars/Olympus_Mons' }] });
    expect(message).toContain('schedules.0.timezone');
    expect(message).toContain('schedule "tick": time zone "Mars/Olympus_Mons"');
  });

  it('refuses duplicate names, unknown keys, a missing arguments object and bad values', () => {
    expect(configError({ schedules: [base, { ...base }] })).toContain('schedule "tick" is defined more than once');
    expect(configError({ schedules: [{ ...base, every: '2s' }] })).toContain('schedules.0.every: unknown field');
    const { arguments: _omitted, ...withoutArguments } = base;
    expect(configError({ schedules: [withoutArguments] })).toContain('schedules.0.arguments');
    expect(configError({ schedules: [{ ...base, overlap: 'parallel' }] })).toContain('schedules.0.overlap');
    expect(configError({ schedules: [{ ...base, jitter_ms: -1 }] })).toContain('schedules.0.jitter_ms');
    expect(configError({ schedules: [{ ...base, name: 'a b' }] })).toContain('schedules.0.name');
    expect(configError({ schedules: [{ ...base, name: 'x:y' }] })).toContain('schedules.0.name');
  });
});

describe('next runs', () => {
  it('six fields run on seconds; each next run is strictly after the one before', () => {
    const cron = parseCron('*/2 * * * * *', 'UTC');
    const start = Date.parse('2026-01-01T00:00:02.000Z');
    expect(new Date(cron.nextAfter(start) ?? 0).toISOString()).toBe('2026-01-01T00:00:04.000Z');
    expect(new Date(cron.nextAfter(start + 500) ?? 0).toISOString()).toBe('2026-01-01T00:00:04.000Z');
  });

  it('reads the expression in the schedule time zone', () => {
    const after = Date.parse('2026-06-01T00:00:00.000Z');
    expect(new Date(parseCron('0 0 9 * * *', 'Europe/Berlin').nextAfter(after) ?? 0).toISOString()).toBe('2026-06-01T07:00:00.000Z');
    expect(new Date(parseCron('0 9 * * *', 'America/New_York').nextAfter(after) ?? 0).toISOString()).toBe('2026-06-01T13:00:00.000Z');
  });

  it('five fields run on the minute', () => {
    expect(new Date(parseCron('*/15 * * * *', 'UTC').nextAfter(Date.parse('2026-01-01T10:07:30Z')) ?? 0).toISOString()).toBe('2026-01-01T10:15:00.000Z');
  });
});
