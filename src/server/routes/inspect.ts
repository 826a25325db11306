/**
 * `GET /v1/tools/{name}/inspect`: how a wasm tool's help was understood (the `toolhost inspect --json`
 * report, with the help lines the parser did not read) and the policy it runs under — for the web
 * console and any client that wants to explain a tool. Policies can carry secrets (env values,
 * network header values holding `<secret_ref:…>`), so this answer names them and never shows them.
 * The tool's `file` is relative to the extensions folder (extension-paths.ts). `provenance` is the
 * one `inspect --json` shows (src/distribution/provenance.ts), by the daemon's lockfile, with the
 * lockfile named by its base name; it uses the digest the load computed (a changed file reloads
 * with its new digest) and the lockfile as it is now (lockfile-cache.ts), so it follows both.
 */
import { lookupFor } from '../../identity/host-policy.ts';
import { requestPrincipal } from '../../identity/request-principal.ts';
import { basename } from 'node:path';
import { Hono } from 'hono';
import type { LockfileCache } from '../../distribution/lockfile-cache.ts';
import { provenanceFromLock, type LockfileState, type Provenance } from '../../distribution/provenance.ts';
import type { WasmToolDetails } from '../../extensions/wasm-tool.ts';
import { inspectWasmTool, type WasmToolInspection } from '../../extensions/tool-inspection.ts';
import type { Host } from '../../host-types.ts';
import type { ResolvedFsGrant, ResolvedToolPolicy } from '../../policy.ts';
import type { AnyTool } from '../../tool.ts';
import { notFoundDetails, publicExtensionPath, publicExtensionText } from '../extension-paths.ts';
import { HttpError } from '../http-errors.ts';
import { toolNotServed } from './tools.ts';

/** A policy with every secret-bearing value replaced by the names it holds. */
export interface PublicPolicy {
  fs: ResolvedFsGrant[];
  /** Names of the environment variables the tool sees; the values stay on the host. */
  env: string[];
  network: {
    allow: string[];
    /** Per host, the names of the headers the host adds; the values stay on the host. */
    headers?: Record<string, string[]>;
    resolve?: Record<string, string[]>;
    [budget: string]: unknown;
  };
  timeout_ms: number;
  memory_mb: number;
  output_bytes: number;
}

/** The `inspect --json` keys (never renamed) plus the load facts, with the policy made public. */
export type ToolInspection = WasmToolInspection<PublicPolicy> & { provenance?: Provenance };

export function publicPolicy(policy: ResolvedToolPolicy): PublicPolicy {
  const { headers, resolve, allow, ...budgets } = policy.network;
  return {
    fs: policy.fs.map((grant) => ({ ...grant })),
    env: Object.keys(policy.env).sort(),
    network: {
      ...budgets,
      allow: [...allow],
      ...(headers === undefined ? {} : { headers: Object.fromEntries(Object.entries(headers).map(([host, fields]) => [host, Object.keys(fields).sort()])) }),
      ...(resolve === undefined ? {} : { resolve: Object.fromEntries(Object.entries(resolve).map(([host, addresses]) => [host, [...addresses]])) }),
    },
    timeout_ms: policy.timeout_ms,
    memory_mb: policy.memory_mb,
    output_bytes: policy.output_bytes,
  };
}

export function inspectTool(tool: AnyTool): ToolInspection {
  return inspectWasmTool(tool, publicPolicy);
}

/** A lockfile state whose problem text names the lockfile by `label` instead of its host path. */
function publicLockfileState(state: LockfileState, path: string, label: string): LockfileState {
  return state.kind === 'invalid' ? { kind: 'invalid', problem: state.problem.split(path).join(label) } : state;
}

/** Where the tool came from, by the lockfile as it is now and the digest its load computed. */
export function toolProvenance(tool: AnyTool, lockfile: LockfileCache): Provenance {
  const details = tool.details as WasmToolDetails;
  const label = basename(lockfile.path);
  return provenanceFromLock(basename(details.file), details.sha256, publicLockfileState(lockfile.current(), lockfile.path, label), label);
}

export interface InspectRouteOptions {
  /** The lockfile `provenance` is read from; without one the answer has no `provenance`. */
  lockfile?: LockfileCache;
}

export function inspectRoutes(host: Host, options: InspectRouteOptions = {}): Hono {
  const app = new Hono();
  app.get('/v1/tools/:name/inspect', (c) => {
    const lookup = lookupFor(host, c.req.param('name'), requestPrincipal(c.req.raw));
    if (!lookup.found) {
      throw toolNotServed(host, lookup);
    }
    if (lookup.tool.source !== 'wasm') {
      throw new HttpError(404, 'not_found', `"${lookup.tool.name}" is a built-in tool: it has no --help to inspect; GET /v1/tools/${lookup.tool.name} has its schema.`, { source: lookup.tool.source });
    }
    const inspection = inspectTool(lookup.tool);
    const provenance = options.lockfile === undefined ? {} : { provenance: toolProvenance(lookup.tool, options.lockfile) };
    return c.json({ ...inspection, file: publicExtensionPath(host.extensionsDir, inspection.file), ...provenance });
  });
  return app;
}
