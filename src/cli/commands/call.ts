/** `toolhost call <tool>`: one call through the host's bridge, printed for a human or as JSON. */
import { Command } from 'commander';
import { terminalApprover } from '../../approvals/terminal.ts';
import { resultText } from '../../results/result-parts.ts';
import type { ToolResult } from '../../result.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import type { ResolvedConfig } from '../../config.ts';
import { composeTelemetry } from '../../compose.ts';
import type { CallToolOptions } from '../../host-types.ts';
import { GEN_AI_TOOL_NAME, SPAN_CLI_CALL, TOOLHOST_TRANSPORT } from '../../telemetry/attributes.ts';
import type { TraceSpan } from '../../telemetry/span.ts';
import type { WasmExtensionsOptions } from '../../extensions/wasm-extensions.ts';
import { BUILTIN_TOOL_NAMES } from '../builtin-names.ts';
import { addHostOptions, commandLogger, type HostFlags, openHost, type OpenHostOptions, resolveHostConfig } from '../host-setup.ts';
import { type CliIo, EXIT_FAILURE, EXIT_OK, usageError, withTrailingNewline, writeJson } from '../output.ts';

interface CallFlags extends HostFlags {
  arg?: string[];
  json?: boolean;
  stdin?: boolean;
  timeout?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function defineCallCommand(command: Command, context: CommandContext): Command {
  command
    .argument('<tool>', 'name of the tool (see `toolhost list`)')
    .argument('[json]', 'the arguments as one JSON object, e.g. \'{"path": "README.md"}\'')
    .option('--arg <key=value>', 'one argument; the value is parsed as JSON when it can be (numbers, booleans, arrays), else taken as a string; repeat a key to build an array', collect)
    .option('--stdin', 'read the JSON arguments object from stdin')
    .option('--json', 'print the whole result as JSON: {content, is_error, metadata}')
    .option('--timeout <ms>', 'give up on the call after this many milliseconds');
  addHostOptions(command);
  command.addHelpText(
    'after',
    [
      '',
      'The content goes to stdout, or to stderr when the tool reports an error (is_error); --json prints the whole result on stdout.',
      'Exit status: 0 on success, 1 when the tool returns is_error, 2 on a usage error (bad flags, malformed JSON, unknown tool).',
      '',
      'Examples:',
      '  toolhost call read_file \'{"path": "README.md"}\'',
      '  toolhost call read_file --arg path=README.md --arg limit=20',
      '  echo \'{"path": "notes.txt", "content": "hi"}\' | toolhost call write_file --stdin --json',
    ].join('\n'),
  );
  command.action(
    context.action(async (toolName: string, json: string | undefined, flags: CallFlags, self: Command) => {
      const timeoutMs = parseTimeout(flags.timeout);
      const stdinText = flags.stdin ? await readAll(context.io.stdin) : undefined;
      if (json !== undefined && stdinText !== undefined) {
        throw usageError('give the JSON arguments either on the command line or with --stdin, not both');
      }
      const args = buildArguments(json ?? stdinText, flags.arg ?? [], json !== undefined ? 'the JSON argument' : 'stdin');
      const config = resolveHostConfig(flags, context.io);
      const host = await openHost(config, context.io, { logger: commandLogger(isDebug(self)), ...(await oneShotHostOptions(config, toolName)) });
      // Tracing (config `telemetry`): the command's root span, the call's spans under it, flushed before exit.
      const trace = await startCliTrace(config, toolName, context.io.env);
      try {
        const lookup = host.lookupTool(toolName);
        if (!lookup.found) {
          throw usageError(lookup.message, lookup.reason === 'unknown' ? 'run `toolhost list` to see the available tools' : undefined);
        }
        // A call an approval rule marks `ask` is put to the user on this terminal (refused when not a TTY).
        const approve = terminalApprover(context.io);
        const callOptions: CallToolOptions = timeoutMs === undefined ? { approve } : { timeoutMs, approve };
        if (trace !== undefined) callOptions.trace = trace.span;
        const result = await host.callTool(toolName, args, callOptions);
        if (trace !== undefined && result.is_error) trace.span.fail('tool_error');
        printResult(context.io, result, flags.json === true);
        return result.is_error ? EXIT_FAILURE : EXIT_OK;
      } finally {
        await host.close({ graceMs: 0 });
        await trace?.end();
      }
    }),
  );
  return command;
}

/**
 * The root span of `toolhost call` when telemetry is configured: `toolhost call` with
 * `gen_ai.tool.name` and `toolhost.transport` = `cli`, its parent the W3C context in the environment's
 * `TRACEPARENT`/`TRACESTATE` (how a calling process hands its trace on) when valid. `end` ends it and
 * flushes the exporter.
 */
async function startCliTrace(config: ResolvedConfig, toolName: string, env: Readonly<Record<string, string | undefined>>): Promise<{ span: TraceSpan; end(): Promise<void> } | undefined> {
  const telemetry = await composeTelemetry(config);
  if (telemetry === undefined) return undefined;
  const span = telemetry.startSpan(SPAN_CLI_CALL, { traceparent: env['TRACEPARENT'], tracestate: env['TRACESTATE'] }, { attributes: { [GEN_AI_TOOL_NAME]: toolName, [TOOLHOST_TRANSPORT]: 'cli' } });
  return {
    span,
    async end() {
      span.end();
      await telemetry.shutdown();
    },
  };
}

/**
 * How a one-shot call opens its host: wasm tools run on this thread (no worker pool to boot) and
 * compile only when called. When the folder's file names tell which file serves `toolName`
 * (findToolFile), only that file loads and the built-ins are left out; otherwise (a built-in, an
 * unknown name, a name clash) every tool loads, as `list` would show them.
 */
async function oneShotHostOptions(config: ResolvedConfig, toolName: string): Promise<Pick<OpenHostOptions, 'extensions' | 'builtins'>> {
  const extensions: WasmExtensionsOptions = { runtime: 'in-process', compileOnLoad: false };
  const directory = config.host.extensionsDir;
  if (directory === undefined) return { extensions };
  const { findToolFile } = await import('../../extensions/tool-file.ts');
  const file = await findToolFile(directory, toolName, BUILTIN_TOOL_NAMES);
  return file === undefined ? { extensions } : { extensions: { ...extensions, files: [file] }, builtins: false };
}

function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw usageError(`--timeout ${text}: expected a positive whole number of milliseconds`);
  return value;
}

function printResult(io: CliIo, result: ToolResult, json: boolean): void {
  if (json) {
    writeJson(io, result);
    return;
  }
  const stream = result.is_error ? io.stderr : io.stdout;
  // Rich parts (images, audio, resources) are named in a line each; --json prints them whole.
  const text = resultText(result);
  if (text !== '') stream.write(withTrailingNewline(text));
}

/**
 * Merges the JSON object (command line or stdin) with `--arg key=value` pairs. `--arg` values
 * are parsed as JSON when they can be, else kept as strings; a repeated key builds an array;
 * an `--arg` key replaces the same key of the JSON object.
 */
export function buildArguments(jsonText: string | undefined, pairs: readonly string[], origin = 'the JSON argument'): Record<string, unknown> {
  const args: Record<string, unknown> = jsonText === undefined ? {} : parseJsonObject(jsonText, origin);
  const repeats = new Map<string, number>();
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      throw usageError(`--arg ${pair}: expected key=value`, 'e.g. --arg path=README.md or --arg limit=20');
    }
    const key = pair.slice(0, equals);
    const value = parseArgValue(pair.slice(equals + 1));
    const seen = repeats.get(key) ?? 0;
    repeats.set(key, seen + 1);
    if (seen === 0) {
      args[key] = value;
    } else if (seen === 1) {
      args[key] = [args[key], value];
    } else {
      (args[key] as unknown[]).push(value);
    }
  }
  return args;
}

function parseArgValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function parseJsonObject(text: string, origin: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`${origin} is not valid JSON: ${(error as Error).message}`, 'quote the object in single quotes, e.g. \'{"path": "README.md"}\', or use --arg key=value');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(`${origin} must be a JSON object of named arguments, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}`, 'e.g. \'{"path": "README.md"}\'');
  }
  return value as Record<string, unknown>;
}

/** Reads a whole stream (stdin) as UTF-8 text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
