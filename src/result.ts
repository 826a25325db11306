/**
 * The one result shape every tool call returns, built-in or wasm, over every edge.
 *
 * `content` is always the result as text: what text-only edges (OpenAI function results, the CLI, the
 * text protocol) carry. Two optional fields carry more, for edges that can show it:
 * - `structured_content`: the output as a JSON object, present only for a tool that declares an output
 *   schema (`Tool.outputSchema`) and only when the output matched it (src/structured-output.ts); then
 *   `content` is the same JSON as text.
 * - `parts`: content beyond the text, in order after it: images, audio, embedded resources and links to
 *   workspace files (src/result-parts.ts checks and caps them). `content` then names each part in a
 *   short line, so a text-only edge still says what came back.
 */
export interface ToolResult {
  content: string;
  is_error: boolean;
  metadata?: Record<string, unknown>;
  /** The output as a JSON object matching the tool's output schema (MCP `structuredContent`). */
  structured_content?: Record<string, unknown>;
  /** Rich content after the text (MCP image, audio, resource and resource_link content). */
  parts?: ResultPart[];
}

/** Base64 image bytes (`image/png`, `image/jpeg`, `image/gif`, `image/webp`, `image/svg+xml`, …). */
export interface ImagePart {
  type: 'image';
  /** Base64 of the bytes. */
  data: string;
  mime_type: string;
}

/** Base64 audio bytes (`audio/wav`, `audio/mpeg`, `audio/ogg`, …). */
export interface AudioPart {
  type: 'audio';
  data: string;
  mime_type: string;
}

/** A resource whose contents travel in the result (MCP EmbeddedResource): `text` or base64 `blob`. */
export interface EmbeddedResourcePart {
  type: 'resource';
  uri: string;
  mime_type?: string;
  text?: string;
  blob?: string;
}

/** A link to a resource the client may read (MCP ResourceLink): a workspace file is `file:///<path in the workspace>`. */
export interface ResourceLinkPart {
  type: 'resource_link';
  uri: string;
  name: string;
  mime_type?: string;
  description?: string;
  /** Bytes, when known. */
  size?: number;
}

export type ResultPart = ImagePart | AudioPart | EmbeddedResourcePart | ResourceLinkPart;

export function textResult(content: string, metadata?: Record<string, unknown>): ToolResult {
  return metadata === undefined ? { content, is_error: false } : { content, is_error: false, metadata };
}

export function errorResult(content: string, metadata?: Record<string, unknown>): ToolResult {
  return metadata === undefined ? { content, is_error: true } : { content, is_error: true, metadata };
}
