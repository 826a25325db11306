/**
 * Host errors: thrown, typed, with a stable code. Tool failures are never thrown
 * across the tool boundary; they are returned as `ToolResult { is_error: true }`.
 */
export type ToolHostErrorCode =
  | 'INVALID_TOOL_NAME'
  | 'TOOL_NAME_COLLISION'
  | 'SCHEMA_INVALID'
  | 'SCHEMA_REF_CYCLE'
  | 'SCHEMA_UNRESOLVED_REF'
  | 'SECRET_SOURCE_INVALID'
  | 'WORKSPACE_ESCAPE'
  | 'WASM_LOAD_FAILED'
  | 'WASM_UNSUPPORTED_IMPORT'
  | 'POLICY_INVALID'
  | 'TOOL_SPEC_INVALID'
  | 'HELP_CAPTURE_FAILED'
  | 'TOOL_OVERRIDES_INVALID'
  | 'CONFIG_INVALID'
  | 'QUEUE_FULL'
  | 'SERVER_START_REFUSED'
  | 'SERVER_LISTEN_FAILED'
  | 'WASI_PREOPEN_INVALID'
  /** The audit log is being written by another live process (src/audit/). */
  | 'AUDIT_LOG_IN_USE'
  /** The audit log's last record, or its head file, says the log was changed or cut: the writer will not chain onto it. */
  | 'AUDIT_LOG_DAMAGED'
  /** The audit log's files cannot be opened or written. */
  | 'AUDIT_LOG_FAILED';

export class ToolHostError extends Error {
  readonly code: ToolHostErrorCode;

  constructor(code: ToolHostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolHostError';
    this.code = code;
  }

  static is(value: unknown, code?: ToolHostErrorCode): value is ToolHostError {
    return value instanceof ToolHostError && (code === undefined || value.code === code);
  }
}
