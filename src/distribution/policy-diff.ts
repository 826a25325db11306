/**
 * What changes between two sandbox policies (the `.policy.json` shape), in the terms a reviewer
 * needs: which grants are new (wider: new fs grants or rw where there was ro, network hosts,
 * injected headers, pinned addresses, environment variables, raised budgets) and which are gone
 * (narrower). A wider policy is what `toolhost add|update` refuse without `--accept-policy`.
 */
import { parsePolicy, type ToolPolicy } from '../policy.ts';

export interface PolicyChange {
  /** `fs`, `network`, `env`, `headers`, `resolve`, or a budget's key. */
  field: string;
  /** One line, e.g. `/data → ./data (rw)`. */
  detail: string;
}

export interface PolicyDiff {
  wider: PolicyChange[];
  narrower: PolicyChange[];
}

const BUDGETS = ['timeout_ms', 'memory_mb', 'output_bytes'] as const;
const NETWORK_BUDGETS = ['connect_timeout_ms', 'first_byte_timeout_ms', 'request_timeout_ms', 'max_request_body_bytes', 'max_response_body_bytes'] as const;

/** Parses a policy file's bytes (undefined or empty: the deny-everything policy). */
export function policyOf(bytes: Uint8Array | undefined, source: string): ToolPolicy {
  if (bytes === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new Error(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  return parsePolicy(value, source);
}

export function diffPolicies(before: ToolPolicy, after: ToolPolicy): PolicyDiff {
  const diff: PolicyDiff = { wider: [], narrower: [] };
  const grantKey = (grant: { host: string; guest: string }): string => `${grant.guest} → ${grant.host}`;
  const beforeFs = new Map((before.fs ?? []).map((grant) => [grantKey(grant), grant.mode]));
  const afterFs = new Map((after.fs ?? []).map((grant) => [grantKey(grant), grant.mode]));
  for (const [key, mode] of afterFs) {
    const was = beforeFs.get(key);
    if (was === undefined) diff.wider.push({ field: 'fs', detail: `${key} (${mode})` });
    else if (was === 'ro' && mode === 'rw') diff.wider.push({ field: 'fs', detail: `${key} ro → rw` });
    else if (was === 'rw' && mode === 'ro') diff.narrower.push({ field: 'fs', detail: `${key} rw → ro` });
  }
  for (const [key, mode] of beforeFs) if (!afterFs.has(key)) diff.narrower.push({ field: 'fs', detail: `${key} (${mode})` });

  const beforeEnv = before.env ?? {};
  const afterEnv = after.env ?? {};
  for (const [name, value] of Object.entries(afterEnv)) {
    if (!(name in beforeEnv)) diff.wider.push({ field: 'env', detail: name });
    else if (beforeEnv[name] !== value) diff.wider.push({ field: 'env', detail: `${name} (value changed)` });
  }
  for (const name of Object.keys(beforeEnv)) if (!(name in afterEnv)) diff.narrower.push({ field: 'env', detail: name });

  const beforeAllow = new Set(before.network?.allow ?? []);
  const afterAllow = new Set(after.network?.allow ?? []);
  for (const entry of afterAllow) if (!beforeAllow.has(entry)) diff.wider.push({ field: 'network', detail: entry });
  for (const entry of beforeAllow) if (!afterAllow.has(entry)) diff.narrower.push({ field: 'network', detail: entry });

  compareRecords(before.network?.headers, after.network?.headers, 'headers', diff);
  compareRecords(before.network?.resolve, after.network?.resolve, 'resolve', diff);

  for (const key of BUDGETS) compareBudget(key, before[key], after[key], diff);
  for (const key of NETWORK_BUDGETS) compareBudget(`network.${key}`, before.network?.[key], after.network?.[key], diff);
  return diff;
}

/** Header sets and pinned addresses: a new or changed host entry is wider. */
function compareRecords(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, field: string, diff: PolicyDiff): void {
  const was = before ?? {};
  const now = after ?? {};
  for (const [host, value] of Object.entries(now)) {
    if (!(host in was)) diff.wider.push({ field, detail: host });
    else if (JSON.stringify(was[host]) !== JSON.stringify(value)) diff.wider.push({ field, detail: `${host} (changed)` });
  }
  for (const host of Object.keys(was)) if (!(host in now)) diff.narrower.push({ field, detail: host });
}

/** A budget left unset takes the host's default: compare only when both are set, or one is newly set. */
function compareBudget(field: string, before: number | undefined, after: number | undefined, diff: PolicyDiff): void {
  if (before === after) return;
  if (after === undefined) {
    diff.wider.push({ field, detail: `${before} → the default` });
    return;
  }
  if (before === undefined || after > before) diff.wider.push({ field, detail: `${before ?? 'the default'} → ${after}` });
  else diff.narrower.push({ field, detail: `${before} → ${after}` });
}

/** True when the diff adds anything. */
export function isWider(diff: PolicyDiff): boolean {
  return diff.wider.length > 0;
}

/** Lines for a terminal: `+ network: api.example.com`, `- fs: /data → ./data (ro)`. */
export function renderPolicyDiff(diff: PolicyDiff): string[] {
  return [...diff.wider.map((change) => `+ ${change.field}: ${change.detail}`), ...diff.narrower.map((change) => `- ${change.field}: ${change.detail}`)];
}

/**
 * The policy a local config makes of the signed one: the config's `policies[<tool>]` fields replace
 * the signed file's (as the host merges them). Returns the effective policy and what it widens.
 */
export function localOverride(signed: ToolPolicy, configured: ToolPolicy | undefined): { effective: ToolPolicy; widened: PolicyDiff } {
  const effective: ToolPolicy = { ...signed, ...(configured ?? {}) };
  return { effective, widened: diffPolicies(signed, effective) };
}
