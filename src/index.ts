// The public API of toolhost. Every export here is public: keep it explicit.
export { defineTool, jsonSchemaOf } from './tool.ts';
export type { Tool, AnyTool, ToolContext, ToolDefinition, ToolInputSchema, ToolSource } from './tool.ts';
export { textResult, errorResult } from './result.ts';
export type { ToolResult } from './result.ts';
export { PERMISSION_LEVELS, isPermitted, isPermissionLevel, permissionRank } from './permission.ts';
export type { PermissionLevel } from './permission.ts';
export { ToolHostError } from './errors.ts';
export type { ToolHostErrorCode } from './errors.ts';
export { TOOL_NAME_PATTERN, isValidToolName, sanitizeToolName } from './tool-name.ts';
export { createSecretsResolver, SECRET_ENV_PREFIX } from './secrets.ts';
export type { SecretsResolver } from './secrets.ts';
export type { JsonSchema } from './schema/normalize.ts';
export { createLogger, silentLogger } from './logger.ts';
export type { Logger } from './logger.ts';
