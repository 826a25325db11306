/**
 * The tool contract. Every tool, built-in or wasm, is a `Tool`: one zod object schema is the
 * single source of both its JSON Schema (`inputSchema`) and its input parser (`input`). A tool whose
 * result is a JSON object may declare its shape (`outputSchema`: a built-in's zod `output`, a wasm
 * tool's `output_schema`); the bridge then returns it as `structured_content` (src/results/structured-output.ts).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { zodToJsonSchema as ZodToJsonSchema } from 'zod-to-json-schema';
import type { CallEvents } from './call-events.ts';
import type { TraceSpan } from './telemetry/span.ts';
import type { CommandSandboxSettings } from './command-sandbox.ts';
import type { Logger } from './logger.ts';
import type { PermissionLevel, ToolEffect } from './permission.ts';
import type { ToolResult } from './result.ts';
import { addDocumentedKeywords } from './schema/documented-keywords.ts';
import { normalizeSchema, type JsonSchema } from './schema/normalize.ts';
import type { CutEdges, SecretsResolver } from './secrets.ts';
import { assertValidToolName } from './tool-name.ts';

export type ToolSource = 'builtin' | 'wasm';

/**
 * State a tool keeps for the life of a host rather than one call (e.g. the `shell` tool's background
 * processes). The host creates it on first use (`ToolContext.hostResource`) and closes it when it stops.
 */
export interface HostResource {
  /** Frees what the resource holds (kills processes, closes handles). Called once, when the host stops. */
  close(): Promise<void>;
}

/** One kind of host resource: a host keeps at most one instance per key, compared by identity. */
export interface HostResourceKey<Resource extends HostResource> {
  /** For logs. */
  readonly name: string;
  create(): Resource;
}

/** The zod schema a tool's input is declared with: always an object schema. */
export type ToolInputSchema = z.ZodObject<z.ZodRawShape>;

export interface ToolContext {
  /** Absolute path of the workspace root; file tools are confined to it. */
  workspaceRoot: string;
  /** The host's permission mode: tools above it are hidden and refused. */
  permissionMode: PermissionLevel;
  /** Unique id of this call, for logs and correlation. */
  callId: string;
  /** Aborted when the call is cancelled or its deadline passes. */
  signal: AbortSignal;
  /** Epoch milliseconds after which the call should give up. */
  deadline: number;
  logger: Logger;
  secrets: SecretsResolver;
  /**
   * Redacts the secrets used in this call from a text the tool is about to cut short (set by the
   * bridge; absent outside it). Results are redacted again as a whole after `execute`, but only a tool
   * knows where it cut, so output limits must apply this before truncating.
   */
  redactText?: (text: string, edges?: CutEdges) => string;
  /**
   * The tools the host offers this caller (permission mode and include/exclude applied), sorted by
   * name: what a tool-search tool searches. Set by the host; absent outside one.
   */
  listTools?: () => readonly AnyTool[];
  /**
   * The host's one instance of a resource, created on first use and closed when the host stops, so
   * state that outlives a call (background processes) is per host, not per module. Set by the host;
   * absent outside one. After the host has stopped, a new instance is returned already closed.
   */
  hostResource?: <Resource extends HostResource>(key: HostResourceKey<Resource>) => Resource;
  /**
   * Calls another tool through the host's whole call path (lookup under this permission mode,
   * include/exclude, approvals, the tool's policy and limits), bounded by this call's signal and
   * deadline: how a tool that runs other tools (`run_code`) gets no more power than its caller.
   * Set by the host; absent outside one.
   */
  callTool?: (name: string, args: unknown) => Promise<ToolResult>;
  /**
   * How commands a tool runs for the caller (`shell`, background processes) are confined: network,
   * process and memory caps, the host's own files kept read-only or hidden (src/command-sandbox.ts).
   * Set by the host; absent outside one (then: no network, nothing protected).
   */
  sandbox?: CommandSandboxSettings;
  /**
   * Who listens to this call while it runs (src/call-events.ts): report progress and stderr lines
   * here. Absent when nobody does: then report nothing (and spend nothing on it).
   */
  events?: CallEvents;
  /**
   * This call's `execute_tool` span when tracing is on (src/telemetry/span.ts): a tool kind adds its
   * own phases as children (a wasm tool: `instantiate`, `run`). Absent when tracing is off.
   */
  trace?: TraceSpan;
}

export interface Tool<Input = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly source: ToolSource;
  readonly permission: PermissionLevel;
  /**
   * True for a tool that calls other tools through the host (`ToolContext.callTool`, e.g. `run_code`):
   * it needs only `permission` itself, but reaches every tool the host exposes, up to the host's
   * permission mode. Listings show that reach (`toolhost list`, MCP annotations).
   */
  readonly callsTools?: boolean;
  /** True when the tool reaches the network (MCP openWorldHint). */
  readonly network: boolean;
  /**
   * What the tool does to the world as its author declared it for every command it runs (a wasm tool's
   * usage spec `effect`); absent when not declared for all. Refines the MCP hints (src/schema/providers/mcp.ts).
   */
  readonly effect?: ToolEffect;
  /** Normalized JSON Schema of the input, derived from `input`. */
  readonly inputSchema: JsonSchema;
  /**
   * Normalized JSON Schema of the result as a JSON object (MCP `outputSchema`); absent when the tool
   * declares none. A successful result must then be such an object (else the call is an error).
   */
  readonly outputSchema?: JsonSchema;
  /** The zod schema the bridge validates raw arguments with. */
  readonly input: ToolInputSchema;
  /** Parameters that may carry `<secret_ref:NAME>` placeholders. Always explicit. */
  readonly secretParams: readonly string[];
  /** Optional veto before `execute`: return a message to refuse the call (as an is_error result). */
  precheck?(input: Input, context: ToolContext): string | undefined | Promise<string | undefined>;
  execute(input: Input, context: ToolContext): Promise<ToolResult>;
  /** Free-form facts about the tool (e.g. a wasm tool's sha256 and file). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** The longest one call may take (the host's deadline); default: the host's call timeout. */
  readonly timeoutMs?: number;
}

export interface ToolDefinition<Shape extends z.ZodRawShape> {
  name: string;
  description: string;
  source?: ToolSource;
  permission: PermissionLevel;
  /** See Tool.callsTools. */
  callsTools?: boolean;
  network?: boolean;
  effect?: ToolEffect;
  input: z.ZodObject<Shape>;
  /** The result's shape as a zod object (a built-in's structured output); its JSON Schema is `outputSchema`. */
  output?: z.ZodObject<z.ZodRawShape>;
  /** The result's shape as a JSON Schema already checked and normalized (a wasm tool's `output_schema`); `output` wins. */
  outputSchema?: JsonSchema;
  secretParams: readonly (keyof Shape & string)[];
  precheck?(input: z.output<z.ZodObject<Shape>>, context: ToolContext): string | undefined | Promise<string | undefined>;
  execute(input: z.output<z.ZodObject<Shape>>, context: ToolContext): Promise<ToolResult>;
  details?: Record<string, unknown>;
  timeoutMs?: number;
  /** Annotations zod cannot carry, applied to the derived JSON Schema (when it is first read). */
  annotateSchema?: (schema: JsonSchema) => JsonSchema;
}

let converter: typeof ZodToJsonSchema | undefined;

/**
 * zod-to-json-schema (40 modules), loaded on the first schema asked for: a one-shot `toolhost call`
 * validates with zod and never asks. Loaded synchronously (`require` of its ES module build, the same
 * module instance an `import` gets); where the loader cannot resolve it so (a test transformer), its
 * CommonJS build.
 */
function zodToJsonSchema(...args: Parameters<typeof ZodToJsonSchema>): ReturnType<typeof ZodToJsonSchema> {
  if (converter === undefined) {
    const require = createRequire(import.meta.url);
    const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
    const entry = typeof resolve === 'function' ? fileURLToPath(resolve('zod-to-json-schema')) : 'zod-to-json-schema';
    converter = (require(entry) as { zodToJsonSchema: typeof ZodToJsonSchema }).zodToJsonSchema;
  }
  return converter(...args);
}

/** Derives the normalized JSON Schema of a zod object schema. */
export function jsonSchemaOf(input: ToolInputSchema): JsonSchema {
  // documented keywords (a default the parser does not fill in): schema/documented-keywords.ts
  const raw = zodToJsonSchema(input, { target: 'jsonSchema7', $refStrategy: 'root', postProcess: addDocumentedKeywords }) as JsonSchema;
  return normalizeSchema(raw);
}

/** Declares a tool once; its JSON Schema and parser both come from `input`. */
export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): Tool<z.output<z.ZodObject<Shape>>> {
  assertValidToolName(definition.name);
  for (const param of definition.secretParams) {
    if (!(param in definition.input.shape)) {
      throw new Error(`Tool "${definition.name}" declares secret parameter "${param}" that is not in its input schema`);
    }
  }
  let inputSchema: JsonSchema | undefined;
  const tool: Tool<z.output<z.ZodObject<Shape>>> = {
    name: definition.name,
    description: definition.description,
    source: definition.source ?? 'builtin',
    permission: definition.permission,
    network: definition.network ?? false,
    ...(definition.effect !== undefined ? { effect: definition.effect } : {}),
    ...(definition.callsTools === true ? { callsTools: true } : {}),
    input: definition.input as unknown as ToolInputSchema,
    // derived on first read (a one-shot call never reads it), then kept
    get inputSchema(): JsonSchema {
      if (inputSchema === undefined) {
        const derived = jsonSchemaOf(definition.input as unknown as ToolInputSchema);
        inputSchema = definition.annotateSchema ? definition.annotateSchema(derived) : derived;
      }
      return inputSchema;
    },
    ...(definition.output !== undefined
      ? { outputSchema: jsonSchemaOf(definition.output) }
      : definition.outputSchema !== undefined
        ? { outputSchema: definition.outputSchema }
        : {}),
    secretParams: [...definition.secretParams],
    execute: definition.execute,
    ...(definition.precheck ? { precheck: definition.precheck } : {}),
    ...(definition.details ? { details: definition.details } : {}),
    ...(definition.timeoutMs !== undefined ? { timeoutMs: definition.timeoutMs } : {}),
  };
  return tool;
}

/** A tool whose input type is not known statically (registries hold these). */
export type AnyTool = Tool<any>;
