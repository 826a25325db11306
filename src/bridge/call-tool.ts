/**
 * The bridge: the ONE place raw JSON arguments become a tool's typed input, for every tool.
 * raw JSON → object check → shape limits (depth, size, key length; iterative, before any recursive walk)
 * → secret-placement check → normalize/coerce → zod parse → precheck
 * → secret substitution → execute → output schema check (src/results/structured-output.ts) → redaction.
 * Every failure is an is_error ToolResult.
 */
import { findJsonShapeViolation } from '../json-limits.ts';
import { errorResult, type ToolResult } from '../result.ts';
import { findSecretRefs, redactSecrets, redactText, substituteSecrets } from '../secrets.ts';
import type { CutEdges } from '../secrets.ts';
import type { AnyTool, ToolContext } from '../tool.ts';
import { withStructuredOutput } from '../results/structured-output.ts';
import { normalizeObject } from './coerce.ts';
import { formatIssues } from './format-issues.ts';

export type ArgumentsParse = { ok: true; value: Record<string, unknown> } | { ok: false; result: ToolResult };

/** Accepts a JSON object, or a JSON text of one (some clients send arguments as a string). */
export function parseRawArguments(toolName: string, raw: unknown): ArgumentsParse {
  let value = raw;
  if (value === undefined || value === null) value = {};
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') {
      value = {};
    } else {
      try {
        value = JSON.parse(text);
      } catch (error) {
        return { ok: false, result: errorResult(`Invalid arguments for tool "${toolName}": not valid JSON (${(error as Error).message}). Send a JSON object.`) };
      }
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, result: errorResult(`Invalid arguments for tool "${toolName}": expected a JSON object of named parameters, received ${kind}.`) };
  }
  const violation = findJsonShapeViolation(value);
  if (violation) {
    return { ok: false, result: errorResult(`Invalid arguments for tool "${toolName}": ${violation.message}. Send smaller, flatter arguments.`, { limit: violation.limit, limit_value: violation.value }) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Validates raw arguments into the tool's input, or explains every bad field. */
export function validateArguments(tool: AnyTool, raw: unknown): ArgumentsParse {
  const parsed = parseRawArguments(tool.name, raw);
  if (!parsed.ok) return parsed;
  const misplaced = Object.entries(parsed.value)
    .filter(([key, value]) => !tool.secretParams.includes(key) && findSecretRefs(value).length > 0)
    .map(([key]) => key);
  if (misplaced.length > 0) {
    const allowed = tool.secretParams.length > 0 ? `Only ${tool.secretParams.map((p) => `"${p}"`).join(', ')} may carry them.` : 'This tool takes no secrets.';
    return { ok: false, result: errorResult(`Refused: <secret_ref:...> placeholders are not allowed in parameter(s) ${misplaced.map((k) => `"${k}"`).join(', ')} of tool "${tool.name}". ${allowed}`) };
  }
  const known = Object.keys(tool.input.shape);
  const unknown = Object.keys(parsed.value).filter((key) => !known.includes(key));
  const normalized = normalizeObject(tool.input, parsed.value);
  const outcome = tool.input.safeParse(normalized);
  // Unknown top-level parameters are reported once, below, with the known ones listed; a strict
  // schema's own `unrecognized_keys` issue for the same keys would say it twice.
  const issues = outcome.success ? [] : outcome.error.issues.filter((issue) => !(issue.code === 'unrecognized_keys' && issue.path.length === 0));
  const problems = formatIssues(issues, tool.input);
  for (const key of unknown) problems.push(`${key}: unknown parameter (known parameters: ${known.join(', ') || 'none'})`);
  if (!outcome.success || problems.length > 0) {
    return { ok: false, result: errorResult(`Invalid arguments for tool "${tool.name}":\n${problems.map((line) => `- ${line}`).join('\n')}`) };
  }
  return { ok: true, value: outcome.data as Record<string, unknown> };
}

/** Runs one call of a tool end to end. Never throws for a tool failure. */
export async function callTool(tool: AnyTool, raw: unknown, context: ToolContext): Promise<ToolResult> {
  const validated = validateArguments(tool, raw);
  if (!validated.ok) return validated.result;
  let input = validated.value;
  try {
    if (tool.precheck) {
      const veto = await tool.precheck(input, context);
      if (veto !== undefined) return errorResult(veto);
    }
  } catch (error) {
    return errorResult(`Tool "${tool.name}" refused the call: ${describeError(error)}`);
  }
  let used = new Map<string, string>();
  if (tool.secretParams.length > 0) {
    const secretFields = Object.fromEntries(tool.secretParams.filter((key) => key in input).map((key) => [key, input[key]]));
    const substitution = substituteSecrets(secretFields, context.secrets);
    if (!substitution.ok) {
      return errorResult(`Unknown secret(s) ${substitution.missing.map((name) => `"${name}"`).join(', ')} referenced by a <secret_ref:...> placeholder; ask the user to configure them.`);
    }
    input = { ...input, ...(substitution.value as Record<string, unknown>) };
    used = substitution.used;
  }
  if (context.signal.aborted) return errorResult(`Tool "${tool.name}" was cancelled before it started.`);
  try {
    const executeContext = used.size === 0 ? context : { ...context, redactText: (text: string, edges?: CutEdges) => redactText(text, used, edges) };
    const result = withStructuredOutput(tool, await tool.execute(input, executeContext));
    return redactSecrets(result, used);
  } catch (error) {
    context.logger.warn({ tool: tool.name, callId: context.callId, error: redactSecrets(describeError(error), used) }, 'tool threw');
    return redactSecrets(errorResult(`Tool "${tool.name}" failed: ${describeError(error)}`), used);
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
