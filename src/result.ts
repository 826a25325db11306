/** The one result shape every tool call returns, built-in or wasm, over every edge. */
export interface ToolResult {
  content: string;
  is_error: boolean;
  metadata?: Record<string, unknown>;
}

export function textResult(content: string, metadata?: Record<string, unknown>): ToolResult {
  return metadata === undefined ? { content, is_error: false } : { content, is_error: false, metadata };
}

export function errorResult(content: string, metadata?: Record<string, unknown>): ToolResult {
  return metadata === undefined ? { content, is_error: true } : { content, is_error: true, metadata };
}
