/**
 * `toolhost dispatch`: the CLI edge of `POST /v1/dispatch` — run the tool calls of an assistant turn
 * (Anthropic, OpenAI, Gemini, a guided-decoding `union` turn, or text with `<tool_call>` blocks) and
 * print the same JSON answer the HTTP route gives.
 */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { DEFAULT_CONFIG_MAX_DISPATCH_CALLS } from '../../config.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { addHostOptions, commandLogger, type HostFlags, openHost, resolveHostConfig } from '../host-setup.ts';
import { EXIT_OK, usageError, writeJson } from '../output.ts';
import { readAll } from './call.ts';

interface DispatchFlags extends HostFlags {
  provider?: string;
  maxDispatchCalls?: string;
}

export function defineDispatchCommand(command: Command, context: CommandContext): Command {
  command
    .argument('[file]', 'the assistant message as JSON (default: stdin); for --provider text, plain text is taken as the text')
    .option('--provider <name>', 'anthropic | openai | openai-responses | gemini | union | text (default: detected from the message)')
    .option('--max-dispatch-calls <n>', `the most tool calls the message may carry; more are refused whole, before any runs (config limits.max_dispatch_calls; default: ${DEFAULT_CONFIG_MAX_DISPATCH_CALLS})`);
  addHostOptions(command);
  command.addHelpText(
    'after',
    [
      '',
      'Prints {provider, results, messages[, text]} as JSON, like POST /v1/dispatch. Exit status: 0 when the calls ran',
      '(each result says whether it is an error), 2 on a usage error or a message that cannot be read.',
      '',
      'Examples:',
      "  echo 'Let me look. <tool_call>{\"name\": \"list_dir\", \"arguments\": {}}</tool_call>' | toolhost dispatch --provider text",
      '  toolhost dispatch turn.json --provider union',
    ].join('\n'),
  );
  command.action(
    context.action(async (file: string | undefined, flags: DispatchFlags, self: Command) => {
      const { DISPATCH_PROVIDERS, DispatchShapeError, dispatchToolCalls, isDispatchProvider, TooManyCallsError } = await import('../../server/dispatch/index.ts');
      const provider = flags.provider;
      if (provider !== undefined && !isDispatchProvider(provider)) {
        throw usageError(`--provider ${provider}: expected one of ${DISPATCH_PROVIDERS.join(', ')}`);
      }
      const input = file === undefined || file === '-' ? await readAll(context.io.stdin) : await readFile(file, 'utf8');
      const body = messageBody(input, provider);
      const config = resolveHostConfig(flags, context.io);
      const host = await openHost(config, context.io, { logger: commandLogger(isDebug(self)) });
      try {
        const response = await dispatchToolCalls(host, body, { ...(provider === undefined ? {} : { provider }), maxCalls: config.server.maxDispatchCalls });
        writeJson(context.io, response);
        return EXIT_OK;
      } catch (error) {
        if (error instanceof TooManyCallsError) throw usageError(`too_many_calls: ${error.message}`);
        if (error instanceof DispatchShapeError) throw usageError(error.message);
        throw error;
      } finally {
        await host.close({ graceMs: 0 });
      }
    }),
  );
  return command;
}

/** The message as JSON; for the text provider, input that is not a JSON object is the assistant's text itself. */
function messageBody(input: string, provider: string | undefined): unknown {
  try {
    const parsed: unknown = JSON.parse(input);
    if (provider === 'text' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) return { text: input };
    return parsed;
  } catch {
    if (provider === 'text') return { text: input };
    throw usageError('the message is not valid JSON', 'give a provider message as JSON, or use --provider text for plain text');
  }
}
