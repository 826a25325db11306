/**
 * Tool digests: which tools, in which versions, a replica serves, so a fleet operator sees replicas
 * that disagree (one loaded a newer component, another still the old one).
 *
 * A tool's `digest` is the sha256 (hex) of the canonical JSON (keys sorted) of what a caller gets from
 * it: name, description, source, permission, network, input and output schema, plus, for a wasm tool,
 * the component's sha256 and its resolved policy (what it may read, reach, use). `tools_digest` is the
 * sha256 of the sorted `name digest` lines of every visible tool: equal on two replicas exactly when
 * they serve the same tools. Digests are memoized per tool object (a reload replaces the object).
 */
import { createHash } from 'node:crypto';
import type { AnyTool } from '../tool.ts';

export interface ToolDigest {
  name: string;
  /** sha256 of the tool as served (see the header). */
  digest: string;
  /** A wasm tool's component sha256; absent for built-ins. */
  sha256?: string;
}

const memo = new WeakMap<AnyTool, string>();

/** The tool's digest (memoized per tool object). */
export function toolDigest(tool: AnyTool): string {
  const known = memo.get(tool);
  if (known !== undefined) return known;
  const details = tool.details ?? {};
  const served = {
    name: tool.name,
    description: tool.description,
    source: tool.source,
    permission: tool.permission,
    network: tool.network,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema ?? null,
    sha256: typeof details['sha256'] === 'string' ? details['sha256'] : null,
    policy: details['policy'] ?? null,
  };
  const digest = createHash('sha256').update(canonicalJson(served)).digest('hex');
  memo.set(tool, digest);
  return digest;
}

/** Every tool's digest, sorted by name. */
export function toolDigests(tools: readonly AnyTool[]): ToolDigest[] {
  return [...tools]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((tool) => {
      const sha256 = tool.details?.['sha256'];
      return { name: tool.name, digest: toolDigest(tool), ...(typeof sha256 === 'string' ? { sha256 } : {}) };
    });
}

/** One sha256 over the sorted `name digest` lines: the same on two replicas exactly when they serve the same tools. */
export function toolsDigest(tools: readonly AnyTool[]): string {
  const hash = createHash('sha256');
  for (const entry of toolDigests(tools)) hash.update(`${entry.name} ${entry.digest}\n`);
  return hash.digest('hex');
}

/**
 * JSON with object keys sorted at every level (arrays keep their order); `undefined` members are
 * dropped as JSON.stringify drops them. Tool schemas are the host's own derivations, acyclic.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
    const record = member as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
  });
}
