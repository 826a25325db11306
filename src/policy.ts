/**
 * The sandbox policy of a wasm tool: which host directories it sees, which environment variables,
 * which network hosts, and its time, memory and output budgets. Deny-by-default: an empty policy
 * grants no filesystem, no environment and no network.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { ToolHostError } from './errors.ts';

const fsGrantSchema = z
  .object({
    host: z.string().min(1, 'host directory must not be empty'),
    guest: z
      .string()
      .regex(/^\/(?!.*(^|\/)\.\.?(\/|$)).*$/, 'guest path must be absolute, without "." or ".." segments'),
    mode: z.enum(['ro', 'rw']),
  })
  .strict();

export const toolPolicySchema = z
  .object({
    fs: z.array(fsGrantSchema).optional(),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are [A-Za-z_][A-Za-z0-9_]*'), z.string()).optional(),
    network: z.object({ allow: z.array(z.string().min(1)) }).strict().optional(),
    timeout_ms: z.number().int().positive().max(3_600_000).optional(),
    memory_mb: z.number().int().positive().max(4096).optional(),
    output_bytes: z.number().int().positive().max(1024 * 1024 * 1024).optional(),
  })
  .strict();

/** A policy as written in a policy file: every field optional. */
export type ToolPolicy = z.infer<typeof toolPolicySchema>;

export interface ResolvedFsGrant {
  /** Absolute host directory. */
  host: string;
  /** Absolute guest path, e.g. `/data`. */
  guest: string;
  mode: 'ro' | 'rw';
}

/** A policy with host paths absolute and every default filled in. */
export interface ResolvedToolPolicy {
  fs: ResolvedFsGrant[];
  env: Record<string, string>;
  network: { allow: string[] };
  timeout_ms: number;
  memory_mb: number;
  output_bytes: number;
}

export const DEFAULT_POLICY: Readonly<ResolvedToolPolicy> = Object.freeze({
  fs: [],
  env: {},
  network: { allow: [] },
  timeout_ms: 10_000,
  memory_mb: 256,
  output_bytes: 1024 * 1024,
});

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Validates a parsed policy value; throws ToolHostError('POLICY_INVALID') naming the field path. */
export function parsePolicy(value: unknown, source = 'policy'): ToolPolicy {
  const parsed = toolPolicySchema.safeParse(value);
  if (!parsed.success) {
    throw new ToolHostError('POLICY_INVALID', `Invalid ${source}: ${describeIssues(parsed.error)}`);
  }
  const guests = new Set<string>();
  for (const [index, grant] of (parsed.data.fs ?? []).entries()) {
    const guest = grant.guest.replace(/\/+$/, '') || '/';
    if (guests.has(guest)) throw new ToolHostError('POLICY_INVALID', `Invalid ${source}: fs.${index}.guest: ${grant.guest} is granted twice`);
    guests.add(guest);
  }
  return parsed.data;
}

/** Reads and validates a JSON policy file; throws ToolHostError('POLICY_INVALID') naming the file and field. */
export async function readPolicyFile(file: string): Promise<ToolPolicy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ToolHostError('POLICY_INVALID', `Cannot read policy file ${file}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolHostError('POLICY_INVALID', `Policy file ${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parsePolicy(value, `policy file ${file}`);
}

/** Resolves relative host paths against `workspaceRoot` and fills defaults (deny everything). */
export function resolvePolicy(policy: ToolPolicy | undefined, workspaceRoot: string): ResolvedToolPolicy {
  const given = policy ?? {};
  return {
    fs: (given.fs ?? []).map((grant) => ({
      host: isAbsolute(grant.host) ? resolve(grant.host) : resolve(workspaceRoot, grant.host),
      guest: grant.guest.replace(/\/+$/, '') || '/',
      mode: grant.mode,
    })),
    env: { ...(given.env ?? {}) },
    network: { allow: [...(given.network?.allow ?? [])] },
    timeout_ms: given.timeout_ms ?? DEFAULT_POLICY.timeout_ms,
    memory_mb: given.memory_mb ?? DEFAULT_POLICY.memory_mb,
    output_bytes: given.output_bytes ?? DEFAULT_POLICY.output_bytes,
  };
}
