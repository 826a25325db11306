/**
 * The component schemas of the OpenAPI document (openapi.ts), one named group per kind of body: errors
 * and health, tools, a wasm tool's inspection report, approvals, calls, and dispatch.
 */
import { PERMISSION_LEVELS } from '../permission.ts';
import { DISPATCH_PROVIDERS } from './dispatch/types.ts';

/** OpenAPI schema objects keyed by component name. */
type Schemas = Record<string, object>;

/** A reference to one of the component schemas below. */
export const ref = (name: string): object => ({ $ref: `#/components/schemas/${name}` });

/** Every component schema, in the order the document lists them. */
export function componentSchemas(): Schemas {
  return { ...statusSchemas(), ...toolSchemas(), ...inspectionSchemas(), ...approvalSchemas(), ...callSchemas(), ...dispatchSchemas(), ...scheduleSchemas() };
}

/** GET /v1/schedules: the configured schedules (config `schedules`) with next run, last result and counts. */
function scheduleSchemas(): Schemas {
  const status = ['ok', 'error', 'refused', 'skipped'];
  return {
    ScheduleRun: {
      type: 'object',
      required: ['tick', 'started_at', 'finished_at', 'status', 'is_error', 'duration_ms', 'call_id'],
      properties: {
        tick: { type: 'string', format: 'date-time', description: 'The cron time this run was for (before jitter).' },
        started_at: { type: 'string', format: 'date-time' },
        finished_at: { type: 'string', format: 'date-time' },
        status: { type: 'string', enum: status, description: '`refused`: a gate (lookup, policy, approval, quota) refused the call; `skipped`: it did not run (the previous run was still running).' },
        is_error: { type: 'boolean' },
        duration_ms: { type: 'number' },
        call_id: { type: ['string', 'null'], description: 'As on /v1/events and GET /v1/calls; null when skipped.' },
        reason: { type: 'string', description: "The result's `metadata.reason`, or why a tick was skipped (`overlap`, `queue_full`)." },
        replica: { type: 'string', description: 'The replica that ran it (with shared state in Redis).' },
      },
    },
    Schedule: {
      type: 'object',
      required: ['name', 'cron', 'tool', 'timezone', 'overlap', 'jitter_ms', 'next_run', 'last_run', 'counts', 'recent'],
      properties: {
        name: { type: 'string' },
        cron: { type: 'string' },
        tool: { type: 'string' },
        timezone: { type: 'string', description: "The schedule's time zone, else the daemon's." },
        overlap: { type: 'string', enum: ['skip', 'queue'] },
        jitter_ms: { type: 'integer' },
        next_run: { type: ['string', 'null'], format: 'date-time' },
        last_run: { oneOf: [ref('ScheduleRun'), { type: 'null' }] },
        counts: { type: 'object', required: status, properties: Object.fromEntries(status.map((name) => [name, { type: 'integer' }])) },
        recent: { type: 'array', items: ref('ScheduleRun'), description: 'The most recent runs, newest first (at most 64).' },
      },
    },
  };
}


/** The error body every non-2xx JSON answer has, and /healthz. */
function statusSchemas(): Schemas {
  return {
    Error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', examples: ['invalid_json', 'invalid_body', 'invalid_query', 'unknown_tool', 'unrecognized_message', 'too_many_calls', 'payload_too_large', 'unauthorized', 'admin_token_required', 'forbidden_host', 'forbidden_origin', 'unsupported_media_type'] },
            message: { type: 'string' },
            details: { type: 'object' },
          },
        },
      },
    },
    Health: {
      type: 'object',
      required: ['status', 'tools'],
      properties: {
        status: { const: 'ok' },
        tools: { type: 'integer' },
        load_failures: { type: 'integer' },
        in_flight_calls: { type: 'integer' },
        replica: {
          type: 'object',
          description: 'Which replica answered, and where its shared state lives (`redis`: whether it reaches Redis now).',
          required: ['id', 'state'],
          properties: { id: { type: 'string' }, state: { enum: ['memory', 'redis'] }, redis: { enum: ['up', 'down'] } },
        },
        tools_digest: { type: 'string', description: 'sha256 (hex) over the sorted name + digest of every visible tool: replicas that serve the same tools report the same value.' },
        draining: { type: 'boolean', description: 'True once SIGTERM started the drain (still alive; /readyz answers 503).' },
      },
    },
    Ready: {
      type: 'object',
      required: ['ready', 'loading', 'loaded'],
      properties: {
        ready: { type: 'boolean', description: 'True once the first load of the extensions folder is done.' },
        loading: { type: 'array', items: { type: 'string' }, description: 'Extension files still loading, relative to the extensions folder (empty once ready).' },
        loaded: { type: 'integer', description: 'Extension files loaded so far.' },
        load_failures: { type: 'integer', description: 'Extension files that failed to load so far.' },
        tools: { type: 'integer', description: 'Tools visible now.' },
        draining: { type: 'boolean', description: 'True while the daemon drains (shutting down); `ready` is then false.' },
        reason: { type: 'string', description: 'Why not ready while draining.' },
      },
    },
    LoadFailures: {
      type: 'object',
      required: ['failures'],
      properties: {
        failures: {
          type: 'array',
          items: {
            type: 'object',
            required: ['file', 'error'],
            properties: { file: { type: 'string', description: 'The file that failed to load.' }, error: { type: 'string', description: 'Why, in words.' }, code: { type: 'string', description: 'The ToolHostError code, when there is one.' } },
          },
        },
      },
    },
  };
}

/** A tool as GET /v1/tools lists it (raw) and as GET /v1/tools/{name} details it. */
function toolSchemas(): Schemas {
  return {
    RawTool: {
      type: 'object',
      required: ['name', 'description', 'source', 'permission', 'network', 'inputSchema'],
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        source: { type: 'string', enum: ['builtin', 'wasm'] },
        permission: { type: 'string', enum: [...PERMISSION_LEVELS] },
        network: { type: 'boolean' },
        inputSchema: { type: 'object', description: 'Normalized JSON Schema of the arguments.' },
        outputSchema: { type: 'object', description: "JSON Schema of the tool's output as a JSON object (its output_schema or a built-in's output type); absent when none is declared." },
      },
    },
    ToolDetail: {
      allOf: [
        ref('RawTool'),
        {
          type: 'object',
          required: ['formats'],
          properties: { formats: { type: 'object', required: ['anthropic', 'openai', 'gemini', 'mcp'], properties: { anthropic: { type: 'object' }, openai: { type: 'object' }, gemini: { type: 'object' }, mcp: { type: 'object' } } } },
        },
      ],
    },
  };
}

/** A wasm tool's inspection report (GET /v1/tools/{name}/inspect). */
function inspectionSchemas(): Schemas {
  return {
    ToolInspection: {
      type: 'object',
      required: ['name', 'description', 'spec', 'schema', 'argv_example', 'program', 'file', 'sha256', 'help_flag', 'success_exit_codes', 'permission', 'network', 'imports', 'policy', 'warnings'],
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        spec: { type: 'object', description: 'Options, positionals and subcommands as parsed from the help.' },
        schema: { type: 'object' },
        argv_example: { type: 'array', items: { type: 'string' } },
        not_understood: {
          type: 'object',
          description: 'Lines of the help\'s options sections the parser could not read (present when text help was parsed; at most 10 lines listed).',
          properties: { count: { type: 'integer' }, lines: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, text: { type: 'string' } } } } },
        },
        program: { type: 'string' },
        file: { type: 'string' },
        sha256: { type: 'string' },
        help_flag: { type: 'string' },
        help_problem: { type: 'string' },
        success_exit_codes: { type: 'array', items: { type: 'integer' }, description: 'Exit codes that end a call with a result rather than an error (.tool.json success_exit_codes; default [0]).' },
        permission: { type: 'string', enum: [...PERMISSION_LEVELS] },
        network: { type: 'boolean' },
        imports: { type: 'array', items: { type: 'string' } },
        name_clash: { type: 'string' },
        examples: {
          type: 'array',
          description: "The tool's example calls (from its help's EXAMPLES section, --help-json or .tool.json), each mapped through the spec and valid against the schema; also the schema's top-level examples and Anthropic's input_examples.",
          items: {
            type: 'object',
            required: ['input'],
            properties: { description: { type: 'string' }, input: { type: 'object' }, argv: { type: 'array', items: { type: 'string' } } },
          },
        },
        policy: policySchema(),
        provenance: provenanceSchema(),
        warnings: {
          type: 'array',
          description: 'What is wrong with the tool though it loaded, e.g. grant-folder-missing (a policy fs grant whose host folder does not exist: help and calls run without it).',
          items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  };
}

/** Where the tool came from by the daemon's lockfile (`toolhost inspect --json` has the same object). */
function provenanceSchema(): object {
  return {
    type: 'object',
    description:
      "Where the component came from, by the daemon's lockfile (serve --lock, config lock; default ./toolhost.lock): locked (its bytes are the ones locked), modified (they changed since: expected and found digests), or unlocked (a local file that did not come through the lock, or no lockfile: reason). The lockfile is named by its base name.",
    required: ['status', 'lockfile'],
    properties: {
      status: { type: 'string', enum: ['locked', 'modified', 'unlocked'] },
      lockfile: { type: 'string' },
      reference: { type: 'string', description: 'oci:// or https:// reference it was installed from.' },
      digest: { type: 'string', description: 'The resolved digest (an OCI manifest, or the component of an https install).' },
      signer: { type: ['string', 'null'], description: 'The verified signer identity; null when installed unsigned.' },
      verified_at: { type: 'string', format: 'date-time' },
      expected: { type: 'string', description: 'modified: the digest the lock records for the file.' },
      found: { type: 'string', description: 'modified: the digest of the file as loaded.' },
      reason: { type: 'string', description: 'unlocked: why.' },
    },
  };
}

/** A wasm tool's resolved policy as the inspection report shows it: names of env variables and headers, never values. */
function policySchema(): object {
  return {
    type: 'object',
    required: ['fs', 'env', 'network', 'timeout_ms', 'memory_mb', 'output_bytes'],
    properties: {
      fs: { type: 'array', items: { type: 'object', properties: { host: { type: 'string' }, guest: { type: 'string' }, mode: { type: 'string' } } } },
      env: { type: 'array', items: { type: 'string' }, description: 'Names of the environment variables the tool sees (values are not shown).' },
      network: {
        type: 'object',
        required: ['allow'],
        properties: {
          allow: { type: 'array', items: { type: 'string' } },
          headers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Per host, the names of the headers the host adds (values are not shown).' },
          resolve: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
      },
      timeout_ms: { type: 'integer' },
      memory_mb: { type: 'integer' },
      output_bytes: { type: 'integer' },
    },
  };
}

/** A call waiting for a person (GET /v1/approvals). */
function approvalSchemas(): Schemas {
  return {
    ApprovalRequest: {
      type: 'object',
      required: ['id', 'tool', 'arguments', 'created_at', 'expires_at', 'call_id'],
      properties: {
        id: { type: 'string' },
        tool: { type: 'string' },
        arguments: { type: 'object' },
        created_at: { type: 'string', format: 'date-time' },
        expires_at: { type: 'string', format: 'date-time', description: 'When the call is refused if nobody decides (approval_timeout_ms).' },
        call_id: { type: 'string' },
        requested_by: { type: 'string', description: "Identity mode: the calling principal's subject (the token's sub)." },
      },
    },
    CallSummary: {
      type: 'object',
      required: ['call_id', 'tool', 'transport', 'started_at', 'finished_at', 'duration_ms', 'is_error'],
      properties: {
        call_id: { type: 'string' },
        tool: { type: 'string' },
        transport: { type: 'string', enum: ['http', 'console', 'mcp', 'dispatch', 'schedule', 'unknown'] },
        started_at: { type: 'string', format: 'date-time' },
        finished_at: { type: 'string', format: 'date-time' },
        duration_ms: { type: 'number', description: 'From the request reaching the host to its answer, approval and quota waits included.' },
        is_error: { type: 'boolean' },
        refusal: {
          type: 'object',
          required: ['kind', 'reason'],
          description: 'Why the call did not run.',
          properties: { kind: { type: 'string', enum: ['lookup', 'policy', 'validation', 'approval', 'quota'] }, reason: { type: 'string' } },
        },
      },
    },
    CallRecord: {
      allOf: [
        ref('CallSummary'),
        {
          type: 'object',
          required: ['arguments', 'result'],
          properties: {
            arguments: { type: ['object', 'null'], description: 'As sent, secret parameters redacted; null when not an object or too large (then `arguments_preview`).' },
            arguments_preview: { type: 'string' },
            result: ref('ToolResult'),
            content_truncated: { type: 'boolean' },
            content_chars: { type: 'integer' },
            metadata_preview: { type: 'string' },
            approval: {
              type: 'object',
              required: ['id', 'requested_at'],
              properties: {
                id: { type: 'string' },
                requested_at: { type: 'string', format: 'date-time' },
                decided_at: { type: 'string', format: 'date-time' },
                decision: { type: 'string', enum: ['allow', 'deny', 'always'] },
                reason: { type: 'string', enum: ['user', 'timeout', 'cancelled', 'no_approver', 'shutdown'] },
                via: { type: 'string', enum: ['http', 'prompt'] },
              },
            },
          },
        },
      ],
    },
  };
}

/** The body of POST /v1/tools/{name}/call and the result it answers with. */
function callSchemas(): Schemas {
  return {
    CallRequest: {
      type: 'object',
      additionalProperties: false,
      properties: { arguments: { type: 'object', description: "The tool's parameters. Default {}." } },
    },
    ToolResult: {
      type: 'object',
      required: ['content', 'is_error'],
      properties: {
        content: { type: 'string', description: 'The result as text (empty when an image or audio is the whole result).' },
        is_error: { type: 'boolean' },
        metadata: { type: 'object' },
        structured_content: { type: 'object', description: "The output as a JSON object matching the tool's outputSchema (present only for tools that declare one)." },
        parts: {
          type: 'array',
          description: 'Rich content after the text, in order.',
          items: {
            type: 'object',
            required: ['type'],
            properties: {
              type: { type: 'string', enum: ['image', 'audio', 'resource', 'resource_link'] },
              data: { type: 'string', description: 'image, audio: base64 of the bytes.' },
              mime_type: { type: 'string' },
              uri: { type: 'string', description: 'resource, resource_link: a workspace file is file:///<path in the workspace>.' },
              name: { type: 'string', description: 'resource_link: a display name.' },
              text: { type: 'string', description: 'resource: its text contents.' },
              blob: { type: 'string', description: 'resource: base64 of its binary contents.' },
              description: { type: 'string' },
              size: { type: 'integer', description: 'resource_link: bytes.' },
            },
          },
        },
      },
    },
  };
}

/** The answer of POST /v1/dispatch. */
function dispatchSchemas(): Schemas {
  return {
    DispatchResponse: {
      type: 'object',
      required: ['provider', 'messages', 'results'],
      properties: {
        provider: { type: 'string', enum: [...DISPATCH_PROVIDERS] },
        messages: { type: 'array', items: { type: 'object' }, description: 'Append these to the conversation, in order.' },
        results: {
          type: 'array',
          items: { type: 'object', required: ['id', 'name', 'result'], properties: { id: { type: ['string', 'null'] }, name: { type: 'string' }, result: ref('ToolResult') } },
        },
        text: { type: 'string', description: 'provider=text only: the results as `<tool_response>` blocks.' },
      },
    },
  };
}
