import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PERMISSION_LEVELS, type PermissionLevel } from '../../src/permission.ts';
import { mcpAnnotationsFor, toMcpTool } from '../../src/schema/providers/mcp.ts';
import { makeTool } from './tool-fixtures.ts';

const EXPECTED_HINTS: Record<PermissionLevel, { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean }> = {
  none: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  read_only: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  write: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  execute: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
};

describe('toMcpTool', () => {
  it.each(PERMISSION_LEVELS.flatMap((permission) => [false, true].map((network) => [permission, network] as const)))(
    'derives annotations for permission %s, network %s',
    (permission, network) => {
      const tool = makeTool('sample_tool', z.object({ path: z.string() }), permission, network);
      const formatted = toMcpTool(tool);
      expect(formatted).toEqual({
        name: 'sample_tool',
        description: 'The sample_tool tool',
        inputSchema: tool.inputSchema,
        annotations: { ...EXPECTED_HINTS[permission], openWorldHint: network },
      });
      expect(formatted.annotations).toEqual(mcpAnnotationsFor(permission, network));
    },
  );

  it('never marks a tool both read-only and destructive', () => {
    for (const permission of PERMISSION_LEVELS) {
      const hints = mcpAnnotationsFor(permission, false);
      expect(hints.readOnlyHint && hints.destructiveHint).toBe(false);
    }
  });

  it('produces a tool the MCP SDK schema accepts', () => {
    const tool = makeTool('fetch_url', z.object({ url: z.string().url(), headers: z.record(z.string()).optional() }), 'read_only', true);
    const parsed = ToolSchema.safeParse(toMcpTool(tool));
    expect(parsed.success).toBe(true);
  });
});
