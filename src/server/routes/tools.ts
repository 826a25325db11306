/**
 * Tool routes: `GET /v1/tools?format=`, `GET /v1/tools/{name}`, `POST /v1/tools/{name}/call`.
 */
import { Hono } from 'hono';
import type { CallToolOptions, Host } from '../../host-types.ts';
import { requestTrace } from '../../telemetry/http-middleware.ts';
import { formatTool, formatToolList, formatToolSet, isToolListFormat, isToolSetFormat, toRawTool, TOOL_LIST_FORMATS, TOOL_SET_FORMATS, type RawTool, type ToolListFormat } from '../../schema/providers/format.ts';
import type { ToolLookup } from '../../registry.ts';
import type { AnyTool } from '../../tool.ts';
import { notFoundDetails, publicExtensionText } from '../extension-paths.ts';
import { HttpError } from '../http-errors.ts';
import { describeJsonType, readJsonObjectBody } from '../request-body.ts';
import { isPlainObject } from '../../json-value.ts';
import { toolDigest, toolsDigest } from '../tool-digests.ts';
import { bearerChallenge } from '../../identity/challenge.ts';
import { hostPrincipalPolicy, lookupFor, principalGrant, toolsFor } from '../../identity/host-policy.ts';
import { principalOption, requestPrincipal } from '../../identity/request-principal.ts';
import type { Principal } from '../../identity/principal.ts';
import { jsonError } from '../http-errors.ts';

/** `GET /v1/tools/{name}` without `?format=`: the raw description plus every provider form. */
export interface ToolDetail extends RawTool {
  formats: Record<Exclude<ToolListFormat, 'raw'>, unknown>;
}

export const CALL_BODY_FIELDS: readonly string[] = ['arguments'];

export function toolDetail(tool: AnyTool): ToolDetail {
  return {
    ...toRawTool(tool),
    formats: {
      anthropic: formatTool(tool, 'anthropic'),
      openai: formatTool(tool, 'openai'),
      gemini: formatTool(tool, 'gemini'),
      mcp: formatTool(tool, 'mcp'),
    },
  };
}

/** `?format=` of a tool route; `alsoAllowed` names formats the route handles before this (the list's `union`). */
function formatParameter(value: string | undefined, alsoAllowed: readonly string[] = []): ToolListFormat | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isToolListFormat(value)) {
    const allowed = [...TOOL_LIST_FORMATS, ...alsoAllowed];
    throw new HttpError(400, 'invalid_query', `Unknown format "${value}"; allowed values: ${allowed.join(', ')}.`, { allowed });
  }
  return value;
}

/**
 * The HTTP error for a tool that is not served: 404 `unknown_tool` or `tool_load_failed`, or 503
 * `tool_loading` while the daemon's first load still loads the file that may provide it.
 */
export function toolNotServed(host: Host, lookup: Exclude<ToolLookup, { found: true }>): HttpError {
  const message = publicExtensionText(host.extensionsDir, lookup.message);
  if (lookup.reason === 'loading') return new HttpError(503, 'tool_loading', message, notFoundDetails(host.extensionsDir, lookup));
  return new HttpError(404, lookup.reason === 'load_failed' ? 'tool_load_failed' : 'unknown_tool', message, notFoundDetails(host.extensionsDir, lookup));
}

function withDigest(item: unknown, tool: AnyTool | undefined): unknown {
  if (tool === undefined) return item;
  const sha256 = tool.details?.['sha256'];
  return { ...(item as object), digest: toolDigest(tool), ...(typeof sha256 === 'string' ? { sha256 } : {}) };
}

/** The tool `principal` may use (identity mode narrows the host's view), or the HTTP error for it. */
function visibleTool(host: Host, name: string, principal?: Principal): AnyTool {
  const lookup = lookupFor(host, name, principal);
  if (!lookup.found) throw toolNotServed(host, lookup);
  return lookup.tool;
}

/**
 * Scopes that would let `principal` call `name` when its token's scopes are what holds it back (the
 * host serves the tool, the principal's grant is scope-limited): the `insufficient_scope` challenge.
 */
function missingScopes(host: Host, name: string, principal: Principal | undefined): string[] | undefined {
  const grant = principalGrant(host, principal);
  if (grant === undefined || !grant.allowed || !grant.scopeLimited) return undefined;
  const lookup = host.lookupTool(name);
  if (!lookup.found || !grant.exposes(name)) return undefined;
  const scopes = hostPrincipalPolicy(host)?.scopesGranting(lookup.tool.permission) ?? [];
  return scopes.length > 0 ? scopes : undefined;
}

export interface ToolRoutesOptions {
  /** Identity mode: the Protected Resource Metadata URL an `insufficient_scope` challenge names. */
  metadataUrl?: string;
}

export function toolRoutes(host: Host, options: ToolRoutesOptions = {}): Hono {
  const app = new Hono();

  app.get('/v1/tools', (c) => {
    const tools = toolsFor(host, requestPrincipal(c.req.raw));
    // `?format=union`: one JSON Schema for the whole tool set (guided decoding), not a list.
    const setFormat = c.req.query('format');
    if (isToolSetFormat(setFormat)) return c.json(formatToolSet(tools, setFormat));
    const format = formatParameter(c.req.query('format'), TOOL_SET_FORMATS) ?? 'raw';
    const listed = formatToolList(tools, format);
    // Which versions this replica serves (src/server/tool-digests.ts): raw items carry their digest.
    const items = format === 'raw' ? listed.map((item, index) => withDigest(item, tools[index])) : listed;
    return c.json({ format, tools_digest: toolsDigest(tools), tools: items });
  });

  app.get('/v1/tools/:name', (c) => {
    const format = formatParameter(c.req.query('format'));
    const tool = visibleTool(host, c.req.param('name'), requestPrincipal(c.req.raw));
    return c.json(format === undefined ? toolDetail(tool) : (formatTool(tool, format) as object));
  });

  app.post('/v1/tools/:name/call', async (c) => {
    const name = c.req.param('name');
    const body = await readJsonObjectBody(c);
    const unknown = Object.keys(body).filter((key) => !CALL_BODY_FIELDS.includes(key));
    if (unknown.length > 0) {
      throw new HttpError(400, 'invalid_body', `Unknown field(s) ${unknown.map((key) => `"${key}"`).join(', ')} in the call body; send {"arguments": {...}} with the tool's parameters inside "arguments".`);
    }
    const args = body['arguments'] ?? {};
    if (!isPlainObject(args)) {
      throw new HttpError(400, 'invalid_body', `"arguments" must be a JSON object of the tool's parameters, received ${describeJsonType(args)}.`);
    }
    // A tool whose file the daemon is still loading is waited for (the host's call budget at most).
    await host.waitForTool(name, { signal: c.req.raw.signal });
    const principal = requestPrincipal(c.req.raw);
    // A tool the token's scopes are too narrow for: 403 insufficient_scope, naming scopes that would do (step-up).
    const scopes = options.metadataUrl === undefined ? undefined : missingScopes(host, name, principal);
    if (options.metadataUrl !== undefined && scopes !== undefined && !lookupFor(host, name, principal).found) {
      const description = `Calling "${name}" needs one of the scopes: ${scopes.join(', ')}.`;
      c.header('WWW-Authenticate', bearerChallenge(options.metadataUrl, { error: 'insufficient_scope', description, scope: scopes }));
      return jsonError(c, 403, 'insufficient_scope', description, { scopes });
    }
    // Looked up once: here, for the 404, and handed to the call.
    const tool = visibleTool(host, name, principal);
    // The console marks its own calls (`X-Toolhost-Client: console`) so the call history can tell them apart.
    const transport = c.req.header('x-toolhost-client') === 'console' ? 'console' : 'http';
    const callOptions: CallToolOptions = { signal: c.req.raw.signal, lookedUp: tool, transport, ...principalOption(c.req.raw) };
    const trace = requestTrace(c);
    if (trace !== undefined) callOptions.trace = trace;
    const result = await host.callTool(name, args, callOptions);
    return c.json(result);
  });

  return app;
}
