/**
 * Config key `state`: where state shared by the replicas of a fleet lives. `{"redis":
 * "redis://host:port/db"}` (or env TOOLHOST_REDIS_URL) puts it in Redis; absent, every piece of
 * state stays in this process's memory (one daemon per machine: today's behaviour).
 */
import { z } from 'zod';

export const REDIS_URL_ENV = 'TOOLHOST_REDIS_URL';

export const stateConfigSchema = z
  .object({
    /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
    redis: z
      .string()
      .min(1)
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be a redis:// or rediss:// URL with a host, e.g. "redis://127.0.0.1:6379/0"'),
  })
  .strict();

export type StateConfig = z.infer<typeof stateConfigSchema>;

/** The URL with its password replaced by `***`, for logs and `/healthz`. */
export function redactedRedisUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'redis://(invalid)';
  }
}
