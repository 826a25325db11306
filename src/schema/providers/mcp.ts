/**
 * MCP `Tool` (tools/list). The behavior hints are derived from the tool's permission level and
 * network flag:
 *
 * | permission | readOnlyHint | destructiveHint | idempotentHint |
 * |------------|--------------|-----------------|----------------|
 * | none       | true         | false           | true           |
 * | read_only  | true         | false           | true           |
 * | write      | false        | true            | false          |
 * | execute    | false        | true            | false          |
 *
 * openWorldHint = tool.network.
 *
 * A tool whose author declared the effect of every command it runs (`tool.effect`, from a usage spec)
 * refines `destructiveHint`: `destructive` → true; `write` ("removes nothing that cannot be recreated")
 * → false. The permission level already counts the effect (a declared write raises it to at least
 * `write`, see permissionWithEffect), so readOnlyHint never says read-only for a tool that writes; a
 * declared `read` changes nothing, since it cannot lower what the grants allow.
 * A tool that calls other tools (`callsTools`, e.g. `run_code`) is hinted at the most it can reach,
 * not at the level it needs itself: through the host it can call `shell` (execute) and tools with
 * network grants, so it gets execute's hints and openWorldHint, and a client deciding by
 * readOnlyHint does not wave it through as harmless.
 *
 * `write` is destructive because writing overwrites existing content. It is not declared
 * idempotent: the permission level alone cannot tell an overwrite (idempotent) from an append or
 * a search-and-replace edit (not idempotent), and a client may retry calls it believes
 * idempotent, so claiming it wrongly is the harmful direction; false is also MCP's default.
 * Hints are advisory; they never replace the host's permission checks.
 */
import type { PermissionLevel, ToolEffect } from '../../permission.ts';
import type { JsonSchema } from '../normalize.ts';
import type { AnnotatedToolDescriptor } from './tool-descriptor.ts';

export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** The tool's declared output schema (Tool.outputSchema); absent when it declares none. */
  outputSchema?: JsonSchema;
  annotations: McpToolAnnotations;
}

type PermissionHints = Omit<McpToolAnnotations, 'openWorldHint'>;

const HINTS_BY_PERMISSION: Readonly<Record<PermissionLevel, PermissionHints>> = {
  none: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  read_only: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  write: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  execute: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
};

export function mcpAnnotationsFor(permission: PermissionLevel, network: boolean, effect?: ToolEffect): McpToolAnnotations {
  const hints = { ...HINTS_BY_PERMISSION[permission], openWorldHint: network };
  if (!hints.readOnlyHint && effect === 'destructive') hints.destructiveHint = true;
  if (!hints.readOnlyHint && effect === 'write') hints.destructiveHint = false;
  return hints;
}

export function toMcpTool(tool: AnnotatedToolDescriptor): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: structuredClone(tool.inputSchema),
    ...(tool.outputSchema !== undefined ? { outputSchema: structuredClone(tool.outputSchema) } : {}),
    annotations: tool.callsTools === true ? mcpAnnotationsFor('execute', true) : mcpAnnotationsFor(tool.permission, tool.network, tool.effect),
  };
}
