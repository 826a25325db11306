/** Test helper: real tools made with `defineTool`, so schemas go through the production path. */
import { z } from 'zod';
import type { PermissionLevel } from '../../src/permission.ts';
import { textResult } from '../../src/result.ts';
import { type AnyTool, defineTool } from '../../src/tool.ts';

export function makeTool(name: string, input: z.ZodObject<z.ZodRawShape>, permission: PermissionLevel = 'read_only', network = false): AnyTool {
  return defineTool({
    name,
    description: `The ${name} tool`,
    permission,
    network,
    input,
    secretParams: [],
    execute: async () => textResult('ok'),
  });
}
