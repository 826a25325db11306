import { silentLogger } from '../../src/logger.ts';
import { createSecretsResolver } from '../../src/secrets.ts';
import type { ToolContext } from '../../src/tool.ts';

/** A ToolContext for calling tools directly in tests. */
export function testContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    workspaceRoot: process.cwd(),
    permissionMode: 'execute',
    callId: 'test-call',
    signal: new AbortController().signal,
    deadline: Date.now() + 30_000,
    logger: silentLogger(),
    secrets: createSecretsResolver({ env: {} }),
    ...overrides,
  };
}
