/** `toolhost list`: the tools a host exposes, as a table, raw JSON, or a provider's wire format. */
import { Command, Option } from 'commander';
import { formatToolList, formatToolSet, isToolListFormat, isToolSetFormat, TOOL_LIST_FORMATS, TOOL_SET_FORMATS, toRawTool } from '../../schema/providers/format.ts';
import type { AnyTool } from '../../tool.ts';
import { toolReach } from '../../tool-reach.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { addHostOptions, commandLogger, type HostFlags, openHost, reportExtensionsFolder, resolveHostConfig } from '../host-setup.ts';
import { EXIT_OK, firstLine, outputWidth, painterFor, renderTable, usageError, writeJson } from '../output.ts';

interface ListFlags extends HostFlags {
  format?: string;
  json?: boolean;
}

export function defineListCommand(command: Command, context: CommandContext): Command {
  command
    .addOption(new Option('--format <format>', 'print the tool list as JSON in a provider format').choices([...TOOL_LIST_FORMATS, ...TOOL_SET_FORMATS]))
    .option('--json', 'print the raw tool list as JSON: [{name, description, source, permission, network, inputSchema}]');
  addHostOptions(command);
  command.addHelpText(
    'after',
    ['', 'Examples:', '  toolhost list', '  toolhost list --json', '  toolhost list --format anthropic --permission-mode read_only'].join('\n'),
  );
  command.action(
    context.action(async (flags: ListFlags, self: Command) => {
      const format = flags.format ?? (flags.json ? 'raw' : undefined);
      if (format !== undefined && !isToolListFormat(format) && !isToolSetFormat(format)) {
        throw usageError(`--format ${format}: unknown format`, `use one of ${[...TOOL_LIST_FORMATS, ...TOOL_SET_FORMATS].join(', ')}`);
      }
      const config = resolveHostConfig(flags, context.io);
      reportExtensionsFolder(config, flags, context.io);
      // Listing needs each tool's spec (from the help cache), never its compiled code.
      const host = await openHost(config, context.io, { logger: commandLogger(isDebug(self)), extensions: { runtime: 'in-process', compileOnLoad: false } });
      try {
        const tools = host.listTools();
        // Files served under a suffixed name say why (src/extensions/tool-names.ts), on stderr so JSON stays clean.
        for (const reason of nameClashReasons(tools)) context.io.stderr.write(`note: ${reason}\n`);
        if (format === undefined) {
          context.io.stdout.write(renderToolTable(tools, context));
        } else {
          writeJson(context.io, isToolSetFormat(format) ? formatToolSet(tools, format) : format === 'raw' ? tools.map(toRawTool) : formatToolList(tools, format));
        }
      } finally {
        await host.close({ graceMs: 0 });
      }
      return EXIT_OK;
    }),
  );
  return command;
}

/** The reasons of tools served under another name than their file wanted, in list order. */
export function nameClashReasons(tools: readonly AnyTool[]): string[] {
  return tools.flatMap((tool) => {
    const clash = tool.details?.['name_clash'] as { reason?: unknown } | undefined;
    return typeof clash?.reason === 'string' ? [clash.reason] : [];
  });
}

/** `write`, `read_only+network`, or for a tool that calls tools, what it needs → what it reaches (`read_only→execute`). */
export function permissionText(tool: AnyTool, tools: readonly AnyTool[]): string {
  const own = tool.network ? `${tool.permission}+network` : tool.permission;
  const reach = toolReach(tool, tools);
  const reached = reach.network ? `${reach.permission}+network` : reach.permission;
  return reached === own ? own : `${tool.permission}→${reached}`;
}

function renderToolTable(tools: readonly AnyTool[], context: CommandContext): string {
  const { stdout, env } = context.io;
  if (tools.length === 0) return '(no tools)\n';
  const paint = painterFor(stdout, env);
  const width = outputWidth(stdout, env);
  return renderTable(
    tools,
    [
      { header: 'NAME', value: (tool) => tool.name, colour: () => 'cyan', truncatable: true },
      { header: 'SOURCE', value: (tool) => tool.source },
      {
        header: 'PERMISSION',
        // a tool that calls tools (run_code) shows what it reaches: `read_only→execute`
        value: (tool) => permissionText(tool, tools),
        colour: (tool) => {
          const reach = toolReach(tool, tools);
          return reach.permission === 'execute' || reach.network ? 'yellow' : undefined;
        },
      },
      { header: 'DESCRIPTION', value: (tool) => firstLine(tool.description) },
    ],
    { paint, ...(width === undefined ? {} : { width }) },
  );
}
