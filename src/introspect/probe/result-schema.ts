/**
 * The zod schema of a cached ProbeResult (claims.ts): what the probe cache and the wasm spec cache
 * (src/extensions/wasm-spec-cache.ts) accept back from disk. Kept apart from the probe machinery so a
 * reader of cached results does not load the probes.
 */
import { z } from 'zod';

const valueType = z.enum(['integer', 'number', 'boolean', 'string', 'path']);
const base = { command: z.string().nullable(), source: z.string().max(200) };
const values = z.array(z.string().max(500)).max(500);
const claimSchema = z.discriminatedUnion('field', [
  z.object({ ...base, field: z.literal('choices'), option: z.string(), value: values }),
  z.object({ ...base, field: z.literal('suggestions'), option: z.string(), value: values }),
  z.object({ ...base, field: z.literal('type'), option: z.string(), value: valueType }),
  z.object({ ...base, field: z.literal('takes_value'), option: z.string(), value: z.boolean() }),
  z.object({ ...base, field: z.literal('description'), option: z.string(), value: z.string() }),
  z.object({ ...base, field: z.literal('required'), option: z.string(), value: z.literal(true) }),
  z.object({ ...base, field: z.literal('positional_required'), positional: z.string(), value: z.literal(true) }),
  z.object({ ...base, field: z.literal('subcommand'), name: z.string(), description: z.string().nullable() }),
  z.object({ ...base, field: z.literal('unlisted_flag'), option: z.string(), description: z.string().nullable() }),
]);
const frameworkSchema = z.enum(['cobra', 'urfave', 'kong', 'goflag', 'clap', 'click', 'argparse', 'yargs', 'commander', 'argmatch']);
/** A ProbeResult read back from disk (the probe cache, the spec cache): anything else is not one. */
export const probeResultSchema = z.object({
  framework: frameworkSchema.nullable(),
  matches: z.array(frameworkSchema),
  runs: z.number().int().min(0),
  elapsed_ms: z.number().min(0),
  claims: z.array(claimSchema).max(10_000),
});
