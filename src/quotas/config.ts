/**
 * The `quotas` config key: `{"<tool name or glob>": {"per_minute": N, "concurrency": M, "queue": Q,
 * "queue_timeout_ms": T}}`. A glob key (`*`, `?`, `[...]`, the approval rules' dialect) is ONE
 * shared budget for every tool it matches (e.g. `"*": {"concurrency": 4}` caps all calls at four),
 * and every key that matches a call applies.
 */
import { z } from 'zod';

const positiveInteger = z.number().int().positive();

export const quotaSchema = z
  .object({
    /** Calls admitted in any sliding 60-second window. */
    per_minute: positiveInteger.optional(),
    /** Calls running at once. */
    concurrency: positiveInteger.optional(),
    /** Calls that may wait for a concurrency slot (default 16; 0 refuses at once). */
    queue: z.number().int().nonnegative().optional(),
    /** Longest wait for a slot before the call is refused (default 30000). */
    queue_timeout_ms: positiveInteger.optional(),
  })
  .strict()
  .refine((quota) => quota.per_minute !== undefined || quota.concurrency !== undefined, { message: 'a quota sets per_minute, concurrency, or both' });

export const quotasSchema = z.record(z.string().min(1, 'a quota key is a tool name or glob'), quotaSchema);

export type QuotaConfig = z.infer<typeof quotaSchema>;
export type QuotasConfig = z.infer<typeof quotasSchema>;

/** The host option carrying them (createHost reads it; the config resolver fills it). */
export interface QuotaHostOptions {
  quotas?: QuotasConfig | undefined;
}
