/**
 * Structured output: the one place a tool's result meets its declared output schema (`Tool.outputSchema`),
 * run by the bridge on every result (src/bridge/call-tool.ts).
 *
 * MCP says a server that declares an output schema MUST return structured results that conform to it
 * (and clients such as the SDK's refuse a successful result without them). So, for a tool with an
 * output schema, a successful result is checked: its `structured_content`, or else its text `content`
 * parsed as JSON, must be an object the schema accepts. Then the result carries it as
 * `structured_content` (and, when its text was empty, that JSON as text). When it is not, the call is
 * an error result (`metadata.reason: "output_schema_mismatch"`) saying why, with the output after it:
 * the caller sees the output, and no client receives a result that breaks the declared contract.
 * An error result drops `structured_content` (errors need not match). A tool without an output schema
 * keeps whatever `structured_content` it gave (an `mcp-content` envelope may carry one).
 */
import { findJsonShapeViolation } from '../json-limits.ts';
import { isPlainObject } from '../json-value.ts';
import type { ToolResult } from '../result.ts';
import type { AnyTool } from '../tool.ts';
import { outputValidator } from './output-schema.ts';

function mismatch(result: ToolResult, why: string): ToolResult {
  const output = result.content === '' ? '' : `\n${result.content}`;
  return { content: `the tool's output does not match its output schema: ${why}${output}`, is_error: true, metadata: { ...result.metadata, reason: 'output_schema_mismatch' } };
}

/** Checks a result against the tool's output schema (see the module comment). */
export function withStructuredOutput(tool: AnyTool, result: ToolResult): ToolResult {
  if (result.is_error) {
    if (result.structured_content === undefined) return result;
    const { structured_content: _dropped, ...rest } = result;
    return rest;
  }
  if (tool.outputSchema === undefined) return result;
  let value: unknown = result.structured_content;
  if (value === undefined) {
    try {
      value = JSON.parse(result.content);
    } catch {
      const cut = result.metadata?.['truncated'] === true ? ' (it was cut at the output limit)' : '';
      return mismatch(result, `it is not JSON${cut}`);
    }
  }
  if (!isPlainObject(value)) return mismatch(result, `it is not a JSON object`);
  // Before anything walks it recursively (the validator, redaction).
  const violation = findJsonShapeViolation(value);
  if (violation !== undefined) return mismatch(result, `it is ${violation.message}`);
  const check = outputValidator(tool.outputSchema)(value);
  if (!check.valid) return mismatch(result, check.message);
  return { ...result, content: result.content === '' ? JSON.stringify(value) : result.content, structured_content: value };
}
