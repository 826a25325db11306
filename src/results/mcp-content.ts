/**
 * The `"output": "mcp-content"` envelope: a tool whose spec says so prints ONE JSON object on stdout in
 * the shape of an MCP CallToolResult, and its parts become the result's rich content:
 *
 * ```json
 * {"content": [{"type": "text", "text": "…"},
 *              {"type": "image", "data": "<base64>", "mimeType": "image/png"},
 *              {"type": "audio", "data": "<base64>", "mimeType": "audio/wav"},
 *              {"type": "resource", "resource": {"uri": "…", "mimeType": "…", "text": "…" | "blob": "<base64>"}},
 *              {"type": "resource_link", "uri": "file:///<path in the workspace>", "name": "…", "mimeType": "…"}],
 *  "isError": false,
 *  "structuredContent": {…}}
 * ```
 *
 * Checked strictly (unknown keys refused), then bounded: at most MAX_RESULT_PARTS parts, each image or
 * audio at most MAX_MEDIA_BYTES decoded and starting like the media type it names (for the types
 * toolhost knows, src/results/media-types.ts); a `file:` URI must name a path inside the workspace, and
 * a resource_link must name an existing workspace file (no other scheme: a link is something the client
 * may go and read). Text parts are joined (newline) into the result's `content`; the rest become
 * `parts`, in order. Anything wrong makes the call an error result saying what, never a partial result.
 */
import { z } from 'zod';
import { findJsonShapeViolation } from '../json-limits.ts';
import type { ResultPart, ToolResult } from '../result.ts';
import { formatZodIssues } from '../introspect/spec-schema.ts';
import { bytesHoldSecret, MEDIA_SECRET_MESSAGE } from './media-output.ts';
import { bytesMatchMediaType, hexPrefix, MAX_MEDIA_BYTES } from './media-types.ts';
import { base64Bytes, checkWorkspaceFile, MAX_PART_URI_CHARS, MAX_RESULT_PARTS, resolveWorkspaceFileUri } from './result-parts.ts';

/** Strict base64 (standard alphabet, padded): a linear check. */
const base64 = z
  .string()
  .refine((value) => value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value), 'must be base64 (standard alphabet, padded)')
  .refine((value) => base64Bytes(value) <= MAX_MEDIA_BYTES, `must decode to at most ${MAX_MEDIA_BYTES} bytes`);
const mediaType = (kind: 'image' | 'audio') => z.string().max(100).regex(new RegExp(`^${kind}/[a-z0-9][a-z0-9.+-]*$`), `must be an ${kind}/… media type`);
const uri = z.string().min(1).max(MAX_PART_URI_CHARS).regex(/^[A-Za-z][A-Za-z0-9+.-]*:\S*$/, 'must be an absolute URI (scheme:…, no spaces)');

const textPart = z.object({ type: z.literal('text'), text: z.string() }).strict();
const imagePart = z.object({ type: z.literal('image'), data: base64, mimeType: mediaType('image') }).strict();
const audioPart = z.object({ type: z.literal('audio'), data: base64, mimeType: mediaType('audio') }).strict();
const resourcePart = z
  .object({
    type: z.literal('resource'),
    resource: z.union([
      z.object({ uri, mimeType: z.string().max(100).optional(), text: z.string() }).strict(),
      z.object({ uri, mimeType: z.string().max(100).optional(), blob: base64 }).strict(),
    ]),
  })
  .strict();
const linkPart = z
  .object({
    type: z.literal('resource_link'),
    uri,
    name: z.string().min(1).max(1000),
    mimeType: z.string().max(100).optional(),
    description: z.string().max(10_000).optional(),
  })
  .strict();

export const mcpContentEnvelopeSchema = z
  .object({
    content: z.array(z.discriminatedUnion('type', [textPart, imagePart, audioPart, resourcePart, linkPart])).max(MAX_RESULT_PARTS, `must hold at most ${MAX_RESULT_PARTS} parts`),
    isError: z.boolean().optional(),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type McpContentRead = { ok: true; result: ToolResult } | { ok: false; message: string };

function refused(message: string): McpContentRead {
  return { ok: false, message: `the tool's mcp-content output was refused: ${message}` };
}

/** Reads a tool's stdout as an mcp-content envelope (see the module comment). */
export async function readMcpContent(stdout: string, workspaceRoot: string, redact?: (text: string) => string): Promise<McpContentRead> {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    return refused(`stdout is not one JSON object (${(error as Error).message})`);
  }
  const violation = findJsonShapeViolation(value);
  if (violation !== undefined) return refused(`it is ${violation.message}`);
  const parsed = mcpContentEnvelopeSchema.safeParse(value);
  if (!parsed.success) return refused(formatZodIssues(parsed.error));
  const texts: string[] = [];
  const parts: ResultPart[] = [];
  for (const [index, item] of parsed.data.content.entries()) {
    const where = `content.${index}`;
    switch (item.type) {
      case 'text':
        texts.push(item.text);
        break;
      case 'image':
      case 'audio': {
        const bytes = Buffer.from(item.data, 'base64');
        if (!bytesMatchMediaType(bytes, item.mimeType)) return refused(`${where}: the data is not ${item.mimeType} (it starts with ${hexPrefix(bytes)})`);
        if (bytesHoldSecret(bytes, redact)) return refused(`${where}: ${MEDIA_SECRET_MESSAGE}`);
        parts.push({ type: item.type, data: item.data, mime_type: item.mimeType });
        break;
      }
      case 'resource': {
        const resource = item.resource;
        if (resource.uri.startsWith('file:')) {
          const check = resolveWorkspaceFileUri(workspaceRoot, resource.uri);
          if (!check.ok) return refused(`${where}.resource.uri: ${check.reason}`);
        }
        if ('blob' in resource && bytesHoldSecret(Buffer.from(resource.blob, 'base64'), redact)) return refused(`${where}: the blob holds a secret used in this call`);
        parts.push({
          type: 'resource',
          uri: resource.uri,
          ...(resource.mimeType !== undefined ? { mime_type: resource.mimeType } : {}),
          ...('text' in resource ? { text: resource.text } : { blob: resource.blob }),
        });
        break;
      }
      case 'resource_link': {
        const check = await checkWorkspaceFile(workspaceRoot, item.uri);
        if (!check.ok) return refused(`${where}.uri: ${check.reason}`);
        parts.push({
          type: 'resource_link',
          uri: item.uri,
          name: item.name,
          size: check.size,
          ...(item.mimeType !== undefined ? { mime_type: item.mimeType } : {}),
          ...(item.description !== undefined ? { description: item.description } : {}),
        });
        break;
      }
    }
  }
  const result: ToolResult = { content: texts.join('\n'), is_error: parsed.data.isError === true };
  if (parts.length > 0) result.parts = parts;
  if (parsed.data.structuredContent !== undefined) result.structured_content = parsed.data.structuredContent;
  return { ok: true, result };
}
