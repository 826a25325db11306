/**
 * Configuration: one optional JSON config file (zod-validated, strict), environment variables and
 * command-line flags, merged with precedence flags > env > file > defaults into the `HostOptions`
 * of the host and the options of the HTTP server.
 *
 * Relative paths resolve against the config file's directory (file values) or `cwd` (flags, env).
 * Policy `fs[].host` paths are left as written: they resolve against the workspace root.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { approvalRulesSchema } from './approvals/rules.ts';
import { expectedType } from './bridge/format-issues.ts';
import { ToolHostError } from './errors.ts';
import type { HostLimits, HostOptions } from './host-types.ts';
import { PERMISSION_LEVELS } from './permission.ts';
import { quotasSchema, type QuotaHostOptions } from './quotas/config.ts';
import { toolPolicySchema } from './policy.ts';
import { LOCKFILE_NAME } from './distribution/lockfile.ts';
import { resolveTrustPaths, trustConfigSchema, type TrustConfig } from './distribution/trust/trust-policy.ts';
import { adminTokenProblem, defaultAdminTokenDirectory } from './server/admin-token.ts';
import { normalizeOrigin } from './server/origins.ts';
import { REDIS_URL_ENV, stateConfigSchema, type StateConfig } from './state/config.ts';
import { schedulesSchema, type ScheduleConfig } from './schedules/config.ts';
import { auditConfigSchema, resolveAuditConfig, type ResolvedAuditConfig } from './audit/config.ts';
import { authConfigSchema, principalRulesSchema, type AuthConfig, type PrincipalRule } from './identity/config.ts';
import { OTLP_ENDPOINT_ENV, resolveTelemetryConfig, SERVICE_NAME_ENV, telemetryConfigSchema, telemetryFromEnv, type TelemetryConfig } from './telemetry/config.ts';

export const DEFAULT_CONFIG_HOST = '127.0.0.1';
export const DEFAULT_CONFIG_PORT = 7411;
export const DEFAULT_CONFIG_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_CONFIG_MCP_SESSION_IDLE_MS = 10 * 60 * 1000;
export const DEFAULT_CONFIG_MAX_MCP_SESSIONS = 1000;
/** Same value as DEFAULT_MAX_DISPATCH_CALLS (src/server/dispatch/types.ts), kept here so config does not load the server. */
export const DEFAULT_CONFIG_MAX_DISPATCH_CALLS = 64;
/** Same value as DEFAULT_DRAIN_TIMEOUT_MS (src/server/drain.ts): 25 s, inside Kubernetes' default 30 s grace period. */
export const DEFAULT_CONFIG_DRAIN_TIMEOUT_MS = 25_000;

const positiveInteger = z.number().int().positive();

export const limitsConfigSchema = z
  .object({
    timeout_ms: positiveInteger.optional(),
    memory_mb: positiveInteger.optional(),
    output_bytes: positiveInteger.optional(),
    pool_size: positiveInteger.optional(),
    max_queue: z.number().int().nonnegative().optional(),
    per_tool_concurrency: positiveInteger.optional(),
    body_limit_bytes: positiveInteger.optional(),
    mcp_session_idle_ms: positiveInteger.optional(),
    max_mcp_sessions: positiveInteger.optional(),
    /** The most tool calls one dispatch (`POST /v1/dispatch`, `toolhost dispatch`) may carry. */
    max_dispatch_calls: positiveInteger.optional(),
    /** How long a draining daemon (SIGTERM) lets calls in flight finish before it cancels them (src/server/drain.ts). */
    drain_timeout_ms: positiveInteger.optional(),
  })
  .strict();

/** Config key `shell`: how `shell` commands are confined (src/command-sandbox.ts). */
export const shellConfigSchema = z
  .object({
    /** `none` (default): the command's own network namespace, loopback only; `host`: the host's network. */
    network: z.enum(['none', 'host']).optional(),
    /** Most processes and threads one command may have alive (default 256). */
    max_processes: positiveInteger.max(65536).optional(),
    /** Most memory one command may use, MiB (default 4096; needs a writable cgroup). */
    memory_mb: positiveInteger.optional(),
  })
  .strict();

const originSchema = z.string().transform((value, context) => {
  const normalized = normalizeOrigin(value);
  if ('problem' in normalized) {
    context.addIssue({ code: z.ZodIssueCode.custom, message: normalized.problem });
    return z.NEVER;
  }
  return normalized.origin;
});

/** The config file: every field optional, unknown fields rejected. */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    host: z.string().min(1).optional(),
    port: z.number().int().min(0).max(65535).optional(),
    token: z.string().min(1).optional(),
    /** Lists and decides approvals; also a bearer token for every route (src/server/admin-token.ts). */
    admin_token: z
      .string()
      .superRefine((value, context) => {
        const problem = adminTokenProblem(value);
        if (problem !== undefined) context.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      })
      .optional(),
    workspace: z.string().min(1).optional(),
    extensions: z.string().min(1).optional(),
    permission_mode: z.enum(PERMISSION_LEVELS).optional(),
    include: z.array(z.string().min(1)).optional(),
    exclude: z.array(z.string().min(1)).optional(),
    policies: z.record(z.string(), toolPolicySchema).optional(),
    cache_dir: z.string().min(1).optional(),
    secrets_file: z.string().min(1).optional(),
    allowed_origins: z.array(originSchema).optional(),
    limits: limitsConfigSchema.optional(),
    /** Approval rules `{tool, match?, argv_prefix?, action: allow|ask|deny}`, first match wins (src/approvals/rules.ts). */
    approvals: approvalRulesSchema.optional(),
    /** How long an `ask` call waits for a decision before it is refused. */
    approval_timeout_ms: positiveInteger.optional(),
    /** `{"<tool name or glob>": {per_minute, concurrency, queue, queue_timeout_ms}}` (src/quotas/config.ts). */
    quotas: quotasSchema.optional(),
    /** `{network: none|host, max_processes, memory_mb}`: the shell sandbox (src/command-sandbox.ts). */
    shell: shellConfigSchema.optional(),
    /** `{policies: [{match, keys?, identities?}], allow_unsigned?, trusted_root?}`: who may sign which tools (src/distribution/trust/trust-policy.ts). */
    trust: trustConfigSchema.optional(),
    /** The lockfile (`toolhost.lock`) that says where wasm tools came from; default `toolhost.lock` in the working directory. */
    lock: z.string().min(1).optional(),
    /** `{redis: "redis://host:port/db"}`: state shared by a fleet's replicas (src/state/config.ts); absent = in memory. */
    state: stateConfigSchema.optional(),
    /** `[{name, cron, tool, arguments, timezone?, overlap?, jitter_ms?}]`: calls the daemon makes on a cron schedule (src/schedules/config.ts). */
    schedules: schedulesSchema.optional(),
    /** `{path, fsync?: always|batch|never, max_bytes?}`: the daemon's hash-chained audit log (src/audit/config.ts); absent = none. */
    audit: auditConfigSchema.optional(),
    /** `{issuer, audience, jwks_uri?, scopes?}`: identity mode, toolhost as an OAuth resource server (src/identity/config.ts). */
    auth: authConfigSchema.optional(),
    /** Per-principal policy rules, first match wins; identity mode only (src/identity/policy.ts). */
    principals: principalRulesSchema.optional(),
    /** `{otlp_endpoint, service_name?}`: traces and metrics over OTLP/HTTP (src/telemetry/config.ts); absent = off. */
    telemetry: telemetryConfigSchema.optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
export type LimitsConfig = z.infer<typeof limitsConfigSchema>;

/** Command-line flags (commander's camelCase); numbers may arrive as strings. */
export interface ConfigFlags {
  config?: string;
  host?: string;
  port?: string | number;
  token?: string;
  workspace?: string;
  extensions?: string;
  permissionMode?: string;
  include?: readonly string[];
  exclude?: readonly string[];
  cacheDir?: string;
  secretsFile?: string;
  timeoutMs?: string | number;
  memoryMb?: string | number;
  outputBytes?: string | number;
  poolSize?: string | number;
  maxQueue?: string | number;
  perToolConcurrency?: string | number;
  bodyLimitBytes?: string | number;
  mcpSessionIdleMs?: string | number;
  maxMcpSessions?: string | number;
  maxDispatchCalls?: string | number;
  drainTimeoutMs?: string | number;
  /** `--allowed-origin`, repeatable. */
  allowedOrigin?: readonly string[];
  /** `--lock FILE`: the lockfile. */
  lock?: string;
}

export const CONFIG_ENV = {
  host: 'TOOLHOST_HOST',
  port: 'TOOLHOST_PORT',
  token: 'TOOLHOST_TOKEN',
  /** No command-line flag: a token on the command line shows in `ps`. */
  admin_token: 'TOOLHOST_ADMIN_TOKEN',
  workspace: 'TOOLHOST_WORKSPACE',
  extensions: 'TOOLHOST_EXTENSIONS',
  config: 'TOOLHOST_CONFIG',
  permission_mode: 'TOOLHOST_PERMISSION_MODE',
  cache_dir: 'TOOLHOST_CACHE_DIR',
  /** Comma-separated. */
  allowed_origins: 'TOOLHOST_ALLOWED_ORIGINS',
  /** `state.redis`. */
  state: REDIS_URL_ENV,
  /** `telemetry.otlp_endpoint` (the standard OpenTelemetry variable; `OTEL_SERVICE_NAME` gives `service_name`). */
  telemetry: OTLP_ENDPOINT_ENV,
} as const;

export interface ResolveConfigInput {
  flags?: ConfigFlags;
  /** Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Config file path; else `flags.config`, else TOOLHOST_CONFIG; none = no file. */
  configFile?: string;
  /** Base of relative flag and env paths. Default process.cwd(). */
  cwd?: string;
  /** Lowest-precedence values the CLI supplies (e.g. extensions = <project>/extensions/tools). */
  defaults?: { workspace?: string; extensions?: string };
}

export interface ServerConfig {
  host: string;
  port: number;
  token: string | undefined;
  /** TOOLHOST_ADMIN_TOKEN or config `admin_token`; undefined = generated per start. */
  adminToken: string | undefined;
  /** Where a generated admin token is written (`$XDG_RUNTIME_DIR/toolhost`, else the user cache dir). */
  adminTokenDirectory: string;
  bodyLimitBytes: number;
  /** Browser origins allowed besides the daemon's own (normalized `scheme://host[:port]`). */
  allowedOrigins: string[];
  mcpSessionIdleMs: number;
  maxMcpSessions: number;
  /** The most tool calls one dispatch may carry (`limits.max_dispatch_calls`); the CLI's `toolhost dispatch` reads it too. */
  maxDispatchCalls: number;
  /** How long SIGTERM's drain lets calls in flight finish (`limits.drain_timeout_ms`, `--drain-timeout-ms`). */
  drainTimeoutMs: number;
  /**
   * The lockfile whose entries say where each wasm tool came from (`--lock`, config `lock`; default
   * `toolhost.lock` in the working directory). A missing file means no lock: every tool is `unlocked`.
   */
  lockFile: string;
}

export interface ResolvedConfig {
  host: HostOptions & QuotaHostOptions;
  server: ServerConfig;
  /** Absolute path of the config file read, if any. */
  configFile: string | undefined;
  /** The config's `trust` section (key and root paths absolute), for `toolhost add|sync|update`. */
  trust: TrustConfig | undefined;
  /** The config's `state` (or TOOLHOST_REDIS_URL): shared state in Redis; undefined = in this process's memory. */
  state: StateConfig | undefined;
  /** The config's `schedules` (the daemon runs them; empty when none). */
  schedules: ScheduleConfig[];
  /** The config's `audit` (path absolute, defaults applied): the daemon's audit log; undefined = none. */
  audit: ResolvedAuditConfig | undefined;
  /** Identity mode (config `auth`, with the `principals` rules); undefined = the static bearer token mode. */
  identity: IdentityConfig | undefined;
  /** The config's `telemetry` (or OTEL_EXPORTER_OTLP_ENDPOINT): OTLP export of traces and metrics; undefined = off. */
  telemetry: TelemetryConfig | undefined;
}

export interface IdentityConfig {
  auth: AuthConfig;
  principals: PrincipalRule[] | undefined;
}

const FLAG_NAMES: Readonly<Record<string, string>> = {
  host: '--host',
  port: '--port',
  token: '--token',
  workspace: '--workspace',
  extensions: '--extensions',
  permission_mode: '--permission-mode',
  include: '--include',
  exclude: '--exclude',
  cache_dir: '--cache-dir',
  secrets_file: '--secrets-file',
  'limits.timeout_ms': '--timeout-ms',
  'limits.memory_mb': '--memory-mb',
  'limits.output_bytes': '--output-bytes',
  'limits.pool_size': '--pool-size',
  'limits.max_queue': '--max-queue',
  'limits.per_tool_concurrency': '--per-tool-concurrency',
  'limits.body_limit_bytes': '--body-limit-bytes',
  'limits.mcp_session_idle_ms': '--mcp-session-idle-ms',
  'limits.max_mcp_sessions': '--max-mcp-sessions',
  'limits.max_dispatch_calls': '--max-dispatch-calls',
  'limits.drain_timeout_ms': '--drain-timeout-ms',
  allowed_origins: '--allowed-origin',
  lock: '--lock',
};

const PATH_FIELDS = ['workspace', 'extensions', 'cache_dir', 'secrets_file', 'lock'] as const;

/** Reads and validates a config file; paths inside it become absolute (relative to its folder). */
export function loadConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ToolHostError('CONFIG_INVALID', `Cannot read config file ${file}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolHostError('CONFIG_INVALID', `Config file ${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseConfig(value, { source: `config file ${file}`, baseDir: dirname(resolve(file)) });
}

/**
 * Validates a config value. Errors name the field path, e.g.
 * `Invalid config file x.json: policies.fetcher.timeout_ms: expected integer, received string`.
 */
export function parseConfig(value: unknown, options: { source?: string; baseDir?: string; describePath?: (path: string) => string } = {}): ConfigFile {
  const parsed = configFileSchema.safeParse(value);
  if (!parsed.success) {
    const describe = options.describePath ?? ((path: string) => path);
    const problems = parsed.error.issues.flatMap((issue) => describeIssue(issue, describe));
    throw new ToolHostError('CONFIG_INVALID', `Invalid ${options.source ?? 'configuration'}: ${problems.join('; ')}`);
  }
  const config = parsed.data;
  if (options.baseDir !== undefined) {
    for (const field of PATH_FIELDS) {
      const path = config[field];
      if (path !== undefined) config[field] = resolve(options.baseDir, path);
    }
    if (config.trust !== undefined) config.trust = resolveTrustPaths(config.trust, options.baseDir);
    if (config.audit !== undefined) config.audit = { ...config.audit, path: resolve(options.baseDir, config.audit.path) };
  }
  return config;
}

function describeIssue(issue: z.ZodIssue, describe: (path: string) => string): string[] {
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${describe(path === '' ? key : `${path}.${key}`)}: unknown field`);
  }
  // an integer field says so (zod's own message says "number")
  const text = issue.code === 'invalid_type' && issue.received !== 'undefined' ? `expected ${expectedType(issue, configFileSchema)}, received ${issue.received}` : issue.message;
  const message = text.charAt(0).toLowerCase() + text.slice(1);
  return [`${describe(path === '' ? '(root)' : path)}: ${message}`];
}

/** Whole-number strings become numbers so flags and env vars validate like the file. */
function numeric(value: string | number | undefined): number | string | undefined {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

function flagLayer(flags: ConfigFlags, cwd: string): ConfigFile {
  const pathOf = (value: string | undefined): string | undefined => (value === undefined ? undefined : resolve(cwd, value));
  const limits = withoutUndefined({
    timeout_ms: numeric(flags.timeoutMs),
    memory_mb: numeric(flags.memoryMb),
    output_bytes: numeric(flags.outputBytes),
    pool_size: numeric(flags.poolSize),
    max_queue: numeric(flags.maxQueue),
    per_tool_concurrency: numeric(flags.perToolConcurrency),
    body_limit_bytes: numeric(flags.bodyLimitBytes),
    mcp_session_idle_ms: numeric(flags.mcpSessionIdleMs),
    max_mcp_sessions: numeric(flags.maxMcpSessions),
    max_dispatch_calls: numeric(flags.maxDispatchCalls),
    drain_timeout_ms: numeric(flags.drainTimeoutMs),
  });
  const layer = withoutUndefined({
    host: flags.host,
    port: numeric(flags.port),
    token: flags.token,
    workspace: pathOf(flags.workspace),
    extensions: pathOf(flags.extensions),
    permission_mode: flags.permissionMode,
    include: flags.include && flags.include.length > 0 ? [...flags.include] : undefined,
    exclude: flags.exclude && flags.exclude.length > 0 ? [...flags.exclude] : undefined,
    cache_dir: pathOf(flags.cacheDir),
    secrets_file: pathOf(flags.secretsFile),
    allowed_origins: flags.allowedOrigin && flags.allowedOrigin.length > 0 ? [...flags.allowedOrigin] : undefined,
    lock: pathOf(flags.lock),
    limits: Object.keys(limits).length > 0 ? limits : undefined,
  });
  return parseConfig(layer, { source: 'command-line flag', describePath: (path) => FLAG_NAMES[path] ?? FLAG_NAMES[path.split('.')[0] ?? ''] ?? `--${path}` });
}

function commaList(value: string | undefined): string[] | undefined {
  const items = value?.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return items !== undefined && items.length > 0 ? items : undefined;
}

function envLayer(env: Readonly<Record<string, string | undefined>>, cwd: string): ConfigFile {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const pathOf = (name: string): string | undefined => {
    const value = read(name);
    return value === undefined ? undefined : resolve(cwd, value);
  };
  const layer = withoutUndefined({
    host: read(CONFIG_ENV.host),
    port: numeric(read(CONFIG_ENV.port)),
    token: read(CONFIG_ENV.token),
    admin_token: read(CONFIG_ENV.admin_token),
    workspace: pathOf(CONFIG_ENV.workspace),
    extensions: pathOf(CONFIG_ENV.extensions),
    permission_mode: read(CONFIG_ENV.permission_mode),
    cache_dir: pathOf(CONFIG_ENV.cache_dir),
    allowed_origins: commaList(read(CONFIG_ENV.allowed_origins)),
    state: read(CONFIG_ENV.state) === undefined ? undefined : { redis: read(CONFIG_ENV.state) },
    telemetry: telemetryFromEnv(read),
  });
  return parseConfig(layer, {
    source: 'environment variable',
    describePath: (path) => {
      const field = path.split('.')[0] ?? path;
      return field in CONFIG_ENV ? CONFIG_ENV[field as keyof typeof CONFIG_ENV] : path;
    },
  });
}

/** Later layers win, field by field (limits too). */
function mergeLayers(layers: readonly ConfigFile[]): ConfigFile {
  const merged: ConfigFile = {};
  let limits: LimitsConfig = {};
  for (const layer of layers) {
    const { limits: layerLimits, ...rest } = layer;
    Object.assign(merged, withoutUndefined(rest));
    if (layerLimits) limits = { ...limits, ...withoutUndefined(layerLimits) };
  }
  if (Object.keys(limits).length > 0) merged.limits = limits;
  return merged;
}

function hostLimitsOf(limits: LimitsConfig | undefined): HostLimits | undefined {
  if (!limits) return undefined;
  const hostLimits: HostLimits = withoutUndefined({
    timeoutMs: limits.timeout_ms,
    memoryMb: limits.memory_mb,
    outputBytes: limits.output_bytes,
    poolSize: limits.pool_size,
    maxQueue: limits.max_queue,
    perToolConcurrency: limits.per_tool_concurrency,
  });
  return Object.keys(hostLimits).length > 0 ? hostLimits : undefined;
}

/**
 * The admin token must stay a person's: different from the regular token, and not read from a
 * config file inside the workspace, where the file tools read.
 * @throws ToolHostError('CONFIG_INVALID')
 */
function assertAdminTokenKept(merged: ConfigFile, source: { fromFile: boolean; configFile: string | undefined }): void {
  if (merged.admin_token === undefined) return;
  if (merged.admin_token === merged.token) {
    throw new ToolHostError('CONFIG_INVALID', 'admin_token (TOOLHOST_ADMIN_TOKEN) must differ from token (--token, TOOLHOST_TOKEN): whoever holds the regular token must not be able to decide approvals.');
  }
  if (source.fromFile && source.configFile !== undefined && merged.workspace !== undefined && isWithin(realPathOf(source.configFile), realPathOf(merged.workspace))) {
    throw new ToolHostError(
      'CONFIG_INVALID',
      `Config file ${source.configFile} holds admin_token but lies inside the workspace ${merged.workspace}, where tools can read it. Move the file out of the workspace, or set TOOLHOST_ADMIN_TOKEN instead.`,
    );
  }
}

function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isWithin(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/** The audit log's files the shell sandbox hides (rotated files are covered by the chain: removing one is detected). */
function auditFilesOf(audit: ResolvedAuditConfig | undefined): string[] {
  return audit === undefined ? [] : [audit.path, `${audit.path}.head`, `${audit.path}.lock`];
}

/**
 * The file tools write anywhere in the workspace: an audit log there could be rewritten by the calls it records.
 * @throws ToolHostError('CONFIG_INVALID')
 */
function assertAuditOutsideWorkspace(audit: ResolvedAuditConfig | undefined, workspace: string | undefined): void {
  if (audit === undefined || workspace === undefined) return;
  if (isWithin(realPathOf(dirname(audit.path)), realPathOf(workspace))) {
    throw new ToolHostError('CONFIG_INVALID', `audit.path ${audit.path} lies inside the workspace ${workspace}, where tools can write: put the audit log outside it.`);
  }
}

/**
 * Merges flags > env > config file > defaults.
 * @throws ToolHostError('CONFIG_INVALID') naming the file/flag/variable and the bad field.
 */
export function resolveConfig(input: ResolveConfigInput = {}): ResolvedConfig {
  const flags = input.flags ?? {};
  const env = input.env ?? process.env;
  const cwd = resolve(input.cwd ?? process.cwd());
  const envConfig = env[CONFIG_ENV.config];
  const configPath = input.configFile ?? flags.config ?? (envConfig !== undefined && envConfig.trim() !== '' ? envConfig : undefined);
  const configFile = configPath === undefined ? undefined : resolve(cwd, configPath);

  const defaults: ConfigFile = withoutUndefined({
    workspace: input.defaults?.workspace !== undefined ? resolve(cwd, input.defaults.workspace) : cwd,
    extensions: input.defaults?.extensions !== undefined ? resolve(cwd, input.defaults.extensions) : undefined,
  });
  const fileLayer = configFile === undefined ? undefined : loadConfigFile(configFile);
  const environmentLayer = envLayer(env, cwd);
  const layers = [defaults];
  if (fileLayer !== undefined) layers.push(fileLayer);
  layers.push(environmentLayer, flagLayer(flags, cwd));
  const merged = mergeLayers(layers);
  assertAdminTokenKept(merged, { fromFile: fileLayer?.admin_token !== undefined && environmentLayer.admin_token === undefined, configFile });
  assertIdentityKeys(merged);

  const limits = hostLimitsOf(merged.limits);
  const audit = merged.audit === undefined ? undefined : resolveAuditConfig({ ...merged.audit, path: resolve(cwd, merged.audit.path) });
  assertAuditOutsideWorkspace(audit, merged.workspace);
  const lockFile = merged.lock ?? resolve(cwd, LOCKFILE_NAME);
  const host: HostOptions & QuotaHostOptions = withoutUndefined({
    workspaceRoot: merged.workspace,
    extensionsDir: merged.extensions,
    permissionMode: merged.permission_mode,
    include: merged.include,
    exclude: merged.exclude,
    policies: merged.policies,
    cacheDir: merged.cache_dir,
    secretsFile: merged.secrets_file,
    limits,
    approvals: merged.approvals,
    approvalTimeoutMs: merged.approval_timeout_ms,
    quotas: merged.quotas,
    shell: merged.shell
      ? withoutUndefined({ network: merged.shell.network, maxProcesses: merged.shell.max_processes, memoryMb: merged.shell.memory_mb })
      : undefined,
    // The config file may hold tokens and rules, the admin token's folder the token itself: commands never see them.
    // The lockfile says where tools came from: a tool that could rewrite it could vouch for itself.
    // The audit log's files too: a command must not rewrite or cut the record of what it did.
    protectedPaths: { ...(configFile !== undefined ? { configFile } : {}), hidden: [defaultAdminTokenDirectory(env), ...auditFilesOf(audit)], readOnly: [lockFile] },
  });
  return {
    host,
    server: {
      host: merged.host ?? DEFAULT_CONFIG_HOST,
      port: merged.port ?? DEFAULT_CONFIG_PORT,
      token: merged.token,
      adminToken: merged.admin_token,
      adminTokenDirectory: defaultAdminTokenDirectory(env),
      bodyLimitBytes: merged.limits?.body_limit_bytes ?? DEFAULT_CONFIG_BODY_LIMIT_BYTES,
      allowedOrigins: merged.allowed_origins ?? [],
      mcpSessionIdleMs: merged.limits?.mcp_session_idle_ms ?? DEFAULT_CONFIG_MCP_SESSION_IDLE_MS,
      maxMcpSessions: merged.limits?.max_mcp_sessions ?? DEFAULT_CONFIG_MAX_MCP_SESSIONS,
      maxDispatchCalls: merged.limits?.max_dispatch_calls ?? DEFAULT_CONFIG_MAX_DISPATCH_CALLS,
      drainTimeoutMs: merged.limits?.drain_timeout_ms ?? DEFAULT_CONFIG_DRAIN_TIMEOUT_MS,
      lockFile,
    },
    configFile,
    trust: merged.trust,
    state: merged.state,
    schedules: merged.schedules ?? [],
    audit,
    identity: merged.auth === undefined ? undefined : { auth: merged.auth, principals: merged.principals },
    telemetry: resolveTelemetryConfig(merged.telemetry, env[SERVICE_NAME_ENV]),
  };
}

/**
 * `principals` rules need identity mode (`auth`), and identity mode replaces the shared bearer token:
 * a `token` beside `auth` would let anyone holding it past every per-principal rule.
 * @throws ToolHostError('CONFIG_INVALID')
 */
function assertIdentityKeys(merged: ConfigFile): void {
  if (merged.principals !== undefined && merged.auth === undefined) {
    throw new ToolHostError('CONFIG_INVALID', '"principals" rules need identity mode: add "auth": {"issuer": ..., "audience": ...}.');
  }
  if (merged.auth !== undefined && merged.token !== undefined) {
    throw new ToolHostError('CONFIG_INVALID', '"auth" (identity mode) and "token" (--token, TOOLHOST_TOKEN) exclude each other: in identity mode every client presents its own access token. Remove the token.');
  }
}
