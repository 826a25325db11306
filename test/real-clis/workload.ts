/**
 * The workload of one real CLI (test/real-clis/workloads/<tool>.json), read and checked. A workload is
 * what an agent would do with the tool: calls with JSON arguments written against the tool's inferred
 * schema (the property names it shows), each with the command line a person would type for the same
 * intent. The bench runs the JSON through toolhost and the command line under the reference runtime, in
 * two copies of the same data folder, and compares what they print (and the files they write) byte
 * for byte. Nothing here is tuned to the parser: a call the schema cannot express is a miss.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const callSchema = z.object({
  /** What the agent wants, in words. */
  intent: z.string().min(1),
  /** The JSON arguments the agent sends. */
  args: z.record(z.unknown()),
  /** The same call written against the schema of overrides/<tool>.tool.json (the override pass only). */
  override_args: z.record(z.unknown()).optional(),
  /** The command line (after the program name) a person would type for the intent. */
  argv: z.array(z.string()),
  /** Files (under the data folder) the call writes; compared byte for byte after the call. */
  outputs: z.array(z.string()).default([]),
  /** The exit status the reference run ends with (unifdef exits 1 when its output differs from the input). */
  exit: z.number().int().min(0).max(255).default(0),
});

const workloadSchema = z.object({
  tool: z.string().min(1),
  about: z.string().default(''),
  /** How the data folder is granted at /data: `ro` unless the tool writes files. */
  grant: z.enum(['ro', 'rw']).default('ro'),
  /**
   * Environment of the sandbox, the same under both runtimes: the policy's `env` and wasmtime's `--env`
   * (python-dotenv writes through a temporary file in TMPDIR, and the sandbox has no /tmp).
   */
  env: z.record(z.string()).default({}),
  /** Input files created in the data folder before the first call: name → UTF-8 content. */
  files: z.record(z.string()).default({}),
  calls: z.array(callSchema).min(1),
});

export type WorkloadCall = z.infer<typeof callSchema>;
export type Workload = z.infer<typeof workloadSchema>;

/** Every workload in the folder, by tool name; a malformed file throws with its name. */
export function readWorkloads(folder: string): Map<string, Workload> {
  const workloads = new Map<string, Workload>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
    const parsed = workloadSchema.safeParse(JSON.parse(readFileSync(join(folder, file), 'utf8')));
    if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    workloads.set(parsed.data.tool, parsed.data);
  }
  return workloads;
}
