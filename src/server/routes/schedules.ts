/**
 * `GET /v1/schedules`: the configured schedules (config `schedules`) with their next run, last
 * result and counts (src/schedules/). In a fleet the last results are the fleet's, from Redis.
 * Behind the bearer token like the other /v1 routes; the schedules' arguments are not shown.
 */
import { Hono } from 'hono';
import type { ScheduleService, SchedulesBody } from '../../schedules/types.ts';

export const SCHEDULES_PATH = '/v1/schedules';

export function scheduleRoutes(schedules: ScheduleService | undefined): Hono {
  const app = new Hono();
  app.get(SCHEDULES_PATH, async (c) => {
    const body: SchedulesBody = schedules !== undefined ? await schedules.list() : { schedules: [], state: 'memory' };
    return c.json(body);
  });
  return app;
}
