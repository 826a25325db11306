/**
 * The sandbox policy of a wasm tool: which host directories it sees, which environment variables,
 * which network hosts, and its time, memory and output budgets. Deny-by-default: an empty policy
 * grants no filesystem, no environment and no network.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { ToolHostError } from './errors.ts';
import { isIP } from 'node:net';
import { matchAllowedHost, matchAllowList, normalizeHost, parseAllowEntry, type AllowEntry } from './wasm/net/allow-list.ts';

const fsGrantSchema = z
  .object({
    host: z.string().min(1, 'host directory must not be empty'),
    guest: z
      .string()
      .regex(/^\/(?!.*(^|\/)\.\.?(\/|$)).*$/, 'guest path must be absolute, without "." or ".." segments'),
    mode: z.enum(['ro', 'rw']),
  })
  .strict();

/** Header names as HTTP defines them (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const allowEntrySchema = z.string().superRefine((text, context) => {
  const entry = parseAllowEntry(text);
  if (typeof entry === 'string') context.addIssue({ code: z.ZodIssueCode.custom, message: entry });
});

const positiveMs = z.number().int().positive().max(3_600_000);

/**
 * `network`: the hosts a tool may reach (see src/wasm/net/allow-list.ts for the entry forms), the
 * headers the host adds for some of them (values may hold `<secret_ref:NAME>`), addresses pinned for
 * names (like curl's --resolve: no DNS for them), and the request budgets. Every field but `allow`
 * is optional; `NETWORK_DEFAULTS` fills the budgets.
 */
const networkSchema = z
  .object({
    allow: z.array(allowEntrySchema),
    headers: z
      .record(
        z.string().min(1),
        z.record(z.string().regex(HEADER_NAME, 'header names are HTTP tokens'), z.string().regex(/^[^\r\n\0]*$/, 'header values must not hold CR, LF or NUL')),
      )
      .optional(),
    resolve: z.record(z.string().min(1), z.array(z.string().refine((address) => isIP(address) !== 0, 'must be an IP address')).min(1)).optional(),
    connect_timeout_ms: positiveMs.optional(),
    first_byte_timeout_ms: positiveMs.optional(),
    request_timeout_ms: positiveMs.optional(),
    max_request_body_bytes: z.number().int().nonnegative().max(1024 * 1024 * 1024).optional(),
    max_response_body_bytes: z.number().int().nonnegative().max(1024 * 1024 * 1024).optional(),
  })
  .strict();

/** The network budgets a policy does not set. */
export const NETWORK_DEFAULTS = Object.freeze({
  connect_timeout_ms: 5_000,
  first_byte_timeout_ms: 10_000,
  request_timeout_ms: 30_000,
  max_request_body_bytes: 10 * 1024 * 1024,
  max_response_body_bytes: 10 * 1024 * 1024,
});

export const toolPolicySchema = z
  .object({
    fs: z.array(fsGrantSchema).optional(),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are [A-Za-z_][A-Za-z0-9_]*'), z.string()).optional(),
    network: networkSchema.optional(),
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

/** The network grant as written (budgets left unset take `NETWORK_DEFAULTS` where a call is made). */
export type NetworkPolicy = z.infer<typeof networkSchema>;

/** A policy with host paths absolute and every default filled in. */
export interface ResolvedToolPolicy {
  fs: ResolvedFsGrant[];
  env: Record<string, string>;
  network: NetworkPolicy;
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
  const network = parsed.data.network;
  if (network !== undefined) checkNetworkHosts(network, source);
  return parsed.data;
}

/** A `headers` or `resolve` key: `host` or `host:port`, normalized like an allow entry. */
export function parseHostKey(key: string): { host: string; port: number | undefined } | undefined {
  const match = /^(.*[^:]|\[.*\]):(\d{1,5})$/.exec(key);
  const host = normalizeHost(match ? match[1]! : key);
  if (host === undefined) return undefined;
  return { host, port: match ? Number(match[2]) : undefined };
}

/** Header hosts must be allowed (else the secret would never be sent, silently); pinned names must be names. */
function checkNetworkHosts(network: NetworkPolicy, source: string): void {
  const entries = network.allow.map((text) => parseAllowEntry(text) as AllowEntry);
  for (const key of Object.keys(network.headers ?? {})) {
    const parsed = parseHostKey(key);
    if (parsed === undefined) {
      throw new ToolHostError('POLICY_INVALID', `Invalid ${source}: network.headers.${key}: not a host or host:port`);
    }
    const allowed = parsed.port === undefined ? matchAllowedHost(entries, parsed.host) : matchAllowList(entries, { scheme: undefined, host: parsed.host, port: parsed.port });
    if (allowed === undefined) {
      throw new ToolHostError('POLICY_INVALID', `Invalid ${source}: network.headers.${key}: the host is not in network.allow`);
    }
  }
  for (const key of Object.keys(network.resolve ?? {})) {
    const host = normalizeHost(key);
    if (host === undefined || isIP(host) !== 0) throw new ToolHostError('POLICY_INVALID', `Invalid ${source}: network.resolve.${key}: not a host name`);
  }
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
    network: resolveNetwork(given.network),
    timeout_ms: given.timeout_ms ?? DEFAULT_POLICY.timeout_ms,
    memory_mb: given.memory_mb ?? DEFAULT_POLICY.memory_mb,
    output_bytes: given.output_bytes ?? DEFAULT_POLICY.output_bytes,
  };
}

/** A copy of the network grant (fields not written stay absent; defaults apply per call). */
function resolveNetwork(network: NetworkPolicy | undefined): NetworkPolicy {
  if (network === undefined) return { allow: [] };
  const copy: NetworkPolicy = { ...network, allow: [...network.allow] };
  if (network.headers !== undefined) copy.headers = Object.fromEntries(Object.entries(network.headers).map(([host, fields]) => [host, { ...fields }]));
  if (network.resolve !== undefined) copy.resolve = Object.fromEntries(Object.entries(network.resolve).map(([host, addresses]) => [host, [...addresses]]));
  return copy;
}

/** An fs grant whose host folder is not there when looked at: a missing path, or a path that is not a folder. */
export interface MissingFsGrant {
  grant: ResolvedFsGrant;
  /** `does not exist` or `is not a folder`. */
  reason: string;
}

/**
 * The policy with only the fs grants whose host folders exist now, and the others. A grant of a missing
 * folder cannot be opened for the guest; running without it (rather than failing the run) keeps the
 * tool's help and its other grants working. Looked at on every call: a folder created later is served.
 */
export function withPresentGrants(policy: ResolvedToolPolicy): { policy: ResolvedToolPolicy; missing: MissingFsGrant[] } {
  const present: ResolvedFsGrant[] = [];
  const missing: MissingFsGrant[] = [];
  for (const grant of policy.fs) {
    const reason = folderProblem(grant.host);
    if (reason === undefined) present.push(grant);
    else missing.push({ grant, reason });
  }
  return { policy: missing.length === 0 ? policy : { ...policy, fs: present }, missing };
}

function folderProblem(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : 'is not a folder';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`;
  }
}
