/**
 * `provider=union`: a turn decoded under the `?format=union` schema (src/schema/providers/union.ts),
 * `{content: string, tool_calls: [{name, arguments}]}`. The envelope is checked here; the tool names
 * and every call's arguments are checked against the host's tools before anything runs
 * (`checkUnionCalls`), so an invalid turn is refused whole, with every reason, instead of half-run.
 * Out: one `{role: "tool", name, content}` message per call, in call order (the shape chat templates
 * of self-hosted models read); failures are prefixed "Error: ".
 */
import { toolsFor } from '../../identity/host-policy.ts';
import type { Principal } from '../../identity/principal.ts';
import { validateArguments } from '../../bridge/call-tool.ts';
import type { Host } from '../../host-types.ts';
import { contentWithErrorPrefix, DispatchShapeError, type ExecutedToolCall, type ProviderAdapter, type ToolCallRequest } from './types.ts';
import { isPlainObject } from '../../json-value.ts';

export interface UnionToolMessage {
  role: 'tool';
  name: string;
  content: string;
}

const TURN_FIELDS = ['content', 'tool_calls'];
const CALL_FIELDS = ['name', 'arguments'];

function unknownFields(value: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !known.includes(key));
}

export const unionAdapter: ProviderAdapter = {
  provider: 'union',

  matches: () => false,

  extractCalls(body) {
    const problems: string[] = [];
    if (!isPlainObject(body)) throw new DispatchShapeError('A union turn is an object {"content": string, "tool_calls": [{"name", "arguments"}]}.');
    if (typeof body['content'] !== 'string') problems.push('content: must be a string (may be empty)');
    for (const key of unknownFields(body, TURN_FIELDS)) problems.push(`${key}: unknown field (a turn has only "content" and "tool_calls")`);
    const toolCalls = body['tool_calls'];
    const calls: ToolCallRequest[] = [];
    if (!Array.isArray(toolCalls)) problems.push('tool_calls: must be an array (empty when there is nothing to call)');
    else {
      toolCalls.forEach((item: unknown, index) => {
        const where = `tool_calls[${index}]`;
        if (!isPlainObject(item)) {
          problems.push(`${where}: must be an object {"name", "arguments"}`);
          return;
        }
        for (const key of unknownFields(item, CALL_FIELDS)) problems.push(`${where}.${key}: unknown field (a call has only "name" and "arguments")`);
        const name = item['name'];
        if (typeof name !== 'string' || name === '') problems.push(`${where}.name: must be a non-empty string`);
        if (!isPlainObject(item['arguments'])) problems.push(`${where}.arguments: must be an object`);
        if (typeof name === 'string' && name !== '') calls.push({ id: null, name, arguments: item['arguments'] });
      });
    }
    if (problems.length > 0) throw new DispatchShapeError(`Invalid union turn:\n${problems.map((line) => `- ${line}`).join('\n')}`);
    return calls;
  },

  formatResults(executed: readonly ExecutedToolCall[]): UnionToolMessage[] {
    return executed.map(({ call, result }) => ({ role: 'tool', name: call.name, content: contentWithErrorPrefix(result) }));
  },
};

/**
 * What the union schema would refuse beyond the envelope: a name that is no branch (a tool the
 * caller cannot see) and arguments the tool's own schema refuses. Checked with the bridge's own
 * validation, so the reasons read exactly like a refused call's.
 * @throws DispatchShapeError listing every problem, before any call runs.
 */
export function checkUnionCalls(host: Host, calls: readonly ToolCallRequest[], principal?: Principal): void {
  const visible = new Map(toolsFor(host, principal).map((tool) => [tool.name, tool]));
  const problems: string[] = [];
  calls.forEach((call, index) => {
    const tool = visible.get(call.name);
    if (!tool) {
      problems.push(`tool_calls[${index}].name: "${call.name}" is not one of the tools (${[...visible.keys()].join(', ') || 'none'})`);
      return;
    }
    const parsed = validateArguments(tool, call.arguments);
    if (!parsed.ok) problems.push(`tool_calls[${index}].arguments: ${parsed.result.content}`);
  });
  if (problems.length > 0) throw new DispatchShapeError(`Invalid union turn:\n${problems.map((line) => `- ${line}`).join('\n')}`);
}
