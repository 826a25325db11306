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

function visibleTool(host: Host, name: string): AnyTool {
  const lookup = host.lookupTool(name);
  if (!lookup.found) throw toolNotServed(host, lookup);
  return lookup.tool;
}

export function toolRoutes(host: Host): Hono {
  const app = new Hono();

  app.get('/v1/tools', (c) => {
    // `?format=union`: one JSON Schema for the whole tool set (guided decoding), not a list.
    const setFormat = c.req.query('format');
    if (isToolSetFormat(setFormat)) return c.json(formatToolSet(host.listTools(), setFormat));
    const format = formatParameter(c.req.query('format'), TOOL_SET_FORMATS) ?? 'raw';
    return c.json({ format, tools: formatToolList(host.listTools(), format) });
  });

  app.get('/v1/tools/:name', (c) => {
    const format = formatParameter(c.req.query('format'));
    const tool = visibleTool(host, c.req.param('name'));
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
    // Looked up once: here, for the 404, and handed to the call.
    const tool = visibleTool(host, name);
    // The console marks its own calls (`X-Toolhost-Client: console`) so the call history can tell them apart.
    const transport = c.req.header('x-toolhost-client') === 'console' ? 'console' : 'http';
    const options: CallToolOptions = { signal: c.req.raw.signal, lookedUp: tool, transport };
    const trace = requestTrace(c);
    if (trace !== undefined) options.trace = trace;
    const result = await host.callTool(name, args, options);
    return c.json(result);
  });

  return app;
}
