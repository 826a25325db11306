/**
 * `toolhost inspect <file.wasm|tool>`: how toolhost understood a wasm tool's help — the spec, the
 * JSON Schema derived from it, an example argv — plus the imports the component needs and the
 * policy in force. The file path loads the tool exactly as the extensions folder would (sidecars
 * and config policies included); a tool name looks it up in the host's extensions folder.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { Command } from 'commander';
import type { ResolvedConfig } from '../../config.ts';
import type { WasmToolDetails } from '../../extensions/index.ts';
import { inspectWasmTool, type WasmToolInspection } from '../../extensions/tool-inspection.ts';
import type { ToolInputExample } from '../../introspect/examples/index.ts';
import type { CliOption, CliSpec, CliSubcommand } from '../../introspect/spec.ts';
import type { ResolvedToolPolicy } from '../../policy.ts';
import type { AnyTool } from '../../tool.ts';
import { createWasmRuntime } from '../../wasm/runtime.ts';
import { defaultCacheDirectory } from '../../wasm/transpile-cache.ts';
import { type CommandContext, isDebug } from '../command-context.ts';
import { addHostOptions, commandLogger, type HostFlags, openHost, resolveHostConfig } from '../host-setup.ts';
import { EXIT_OK, type Paint, painterFor, usageError, writeJson } from '../output.ts';
import { formatBytes } from './cache.ts';
import { describeProvenance, provenanceOf, type Provenance } from '../../distribution/provenance.ts';
import { LOCKFILE_NAME } from '../../distribution/lockfile.ts';

interface InspectFlags extends HostFlags {
  json?: boolean;
  lock?: string;
}

/** `inspect --json`: the introspection report's keys exactly, extended (never renamed) with load facts; the policy as it is (the operator's own view). */
export type InspectJson = WasmToolInspection<ResolvedToolPolicy> & { provenance?: Provenance };

/**
 * True when the argument names a file rather than a tool: a `.wasm` name, a path, or an existing file
 * (not a folder: `toolhost new wordcount` makes a `wordcount/` folder beside the tool of that name).
 */
export function looksLikeFile(argument: string, cwd: string): boolean {
  if (argument.endsWith('.wasm') || argument.includes('/') || argument.includes(sep)) return true;
  const candidate = resolve(cwd, argument);
  return existsSync(candidate) && statSync(candidate).isFile();
}

function detailsOf(tool: AnyTool): WasmToolDetails {
  return tool.details as WasmToolDetails;
}

export function inspectJson(tool: AnyTool): InspectJson {
  return inspectWasmTool(tool, (policy) => policy);
}

/** Loads one .wasm file as a tool the way the extensions folder does, without starting a host. */
async function loadFile(file: string, config: ResolvedConfig): Promise<AnyTool> {
  const { loadWasmTool } = await import('../../extensions/index.ts');
  const { createHelpCache } = await import('../../introspect/capture.ts');
  const cacheDirectory = config.host.cacheDir ?? defaultCacheDirectory();
  const runtime = createWasmRuntime({ cacheDirectory, threads: 1 });
  try {
    const loaded = await loadWasmTool(file, {
      runtime,
      workspaceRoot: config.host.workspaceRoot ?? process.cwd(),
      helpCache: createHelpCache(join(cacheDirectory, 'help')),
      probeCache: createHelpCache(join(cacheDirectory, 'probe')),
      ...(config.host.policies ? { policies: config.host.policies } : {}),
    });
    return loaded.tool;
  } finally {
    await runtime.close();
  }
}

function optionHead(option: CliOption): string {
  const prefix = option.prefix ?? '--';
  const names = [option.short !== null ? `-${option.short}` : null, option.long !== null ? `${prefix}${option.long}` : null, ...option.aliases].filter((name) => name !== null);
  const value = option.takes_value ? ` <${option.value_name ?? 'VALUE'}>` : '';
  return `${names.join(', ')}${value}`;
}

function optionFacts(option: CliOption): string {
  const facts: string[] = [option.takes_value ? option.type : 'flag'];
  if (option.required) facts.push('required');
  if (option.repeatable) facts.push('repeatable');
  if (option.default !== null) facts.push(`default ${JSON.stringify(option.default)}`);
  if (option.choices !== null) facts.push(`one of ${option.choices.join('|')}`);
  if (option.negation !== null) facts.push(`negated by ${option.negation}`);
  return facts.join(', ');
}

function columns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) => `  ${row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  ')}`.trimEnd());
}

function describePolicy(policy: ResolvedToolPolicy): string[] {
  const lines: string[] = [];
  lines.push(
    `  filesystem  ${policy.fs.length === 0 ? 'none' : policy.fs.map((grant) => `${grant.guest} → ${grant.host} (${grant.mode})`).join(', ')}`,
    `  env         ${Object.keys(policy.env).length === 0 ? 'none' : Object.keys(policy.env).sort().join(', ')}`,
    `  network     ${policy.network.allow.length === 0 ? 'none' : policy.network.allow.join(', ')}`,
    `  limits      ${policy.timeout_ms} ms, ${policy.memory_mb} MiB memory, ${formatBytes(policy.output_bytes)} output per stream`,
  );
  return lines;
}

/** The line saying why a tool serves under a suffixed name (see src/extensions/tool-names.ts). */
function nameClashLines(tool: AnyTool, paint: Paint): string[] {
  const clash = tool.details?.['name_clash'] as { reason?: unknown } | undefined;
  return typeof clash?.reason === 'string' ? [`${paint('bold', 'name')}  ${paint('yellow', clash.reason)}`] : [];
}

/** A subcommand's own parameters, from its `<name> --help`: `--force --depth <repo> [dir]`. */
function subcommandParameters(command: CliSubcommand): string {
  const options = (command.options ?? []).map((option) => (option.long !== null ? `--${option.long}` : `-${option.short ?? ''}`));
  const positionals = (command.positionals ?? []).map((positional) => {
    const name = `${positional.name}${positional.variadic ? '...' : ''}`;
    return positional.required ? `<${name}>` : `[${name}]`;
  });
  return [...options, ...positionals].join(' ');
}

/** The example calls offered (argument objects with what they do), and how many of those read or given were kept. */
function exampleLines(examples: readonly ToolInputExample[], given: number, heading: (text: string) => string, paint: Paint): string[] {
  if (given === 0) return [];
  const rows = examples.map((example) => `  ${JSON.stringify(example.input)}${example.description === undefined ? '' : `  ${paint('dim', example.description)}`}`);
  return [`${heading('examples')}  ${paint('dim', `${examples.length} of ${given} map exactly onto the schema`)}`, ...rows, ''];
}

export function renderInspect(tool: AnyTool, paint: Paint, provenance?: Provenance): string {
  const json = inspectJson(tool);
  const spec: CliSpec = detailsOf(tool).spec;
  const heading = (text: string): string => paint('bold', text);
  const lines: string[] = [
    `${paint('cyan', json.name)}  ${paint('dim', `(wasm, ${json.file})`)}`,
    json.description || paint('dim', '(no description)'),
    '',
    json.help_flag === 'none'
      ? `${heading('help')}  none: the component gave no usable --help, -h or help output, so the tool takes no parameters${json.help_problem === undefined ? '' : ` (${json.help_problem})`}`
      : `${heading('help')}  read from \`${json.help_flag}\`${json.help_flag === '--help-json' ? ' (a JSON spec)' : ', parsed'}`,
    `${heading('program')}  ${json.program}${json.program === json.name ? '' : paint('dim', ' (named in the help; the tool is named after its file)')}`,
    ...nameClashLines(tool, paint),
    ...(provenance === undefined ? [] : [`${heading('provenance')}  ${provenance.status === 'locked' ? describeProvenance(provenance) : paint('yellow', describeProvenance(provenance))}`]),
    ...json.warnings.map((warning) => `${paint('bold', 'warning')}  ${paint('yellow', `${warning.message} (${warning.code})`)}`),
    `${heading('exit codes')}  ${json.success_exit_codes.join(', ')} ${json.success_exit_codes.length === 1 ? 'is a result' : 'are results'}; any other is an error`,
    '',
    heading('options'),
    ...(spec.options.length === 0 ? ['  (none)'] : columns(spec.options.map((option) => [optionHead(option), optionFacts(option), option.description ?? '']))),
    '',
    heading('positionals'),
    ...(spec.positionals.length === 0
      ? ['  (none)']
      : columns(spec.positionals.map((positional) => [`<${positional.name}>${positional.variadic ? '...' : ''}`, positional.required ? 'required' : 'optional', positional.description ?? '']))),
    '',
    heading('subcommands'),
    ...(spec.subcommands.length === 0 ? ['  (none)'] : columns(spec.subcommands.map((command) => [command.name, subcommandParameters(command), command.description ?? '']))),
    '',
    heading('schema'),
    ...JSON.stringify(json.schema, null, 2)
      .split('\n')
      .map((line) => `  ${line}`),
    '',
    heading('example argv'),
    `  ${[json.name, ...json.argv_example].map((word) => (/^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ')}`,
    '',
    ...exampleLines(json.examples ?? [], spec.examples?.length ?? 0, heading, paint),
    heading('imports'),
    ...(json.imports.length === 0 ? ['  (none)'] : json.imports.map((name) => `  ${name}`)),
    '',
    `${heading('policy')}  ${paint('dim', `permission ${json.permission}${json.network ? ', network' : ''}`)}`,
    ...describePolicy(json.policy),
  ];
  return `${lines.join('\n')}\n`;
}

export function defineInspectCommand(command: Command, context: CommandContext): Command {
  command
    .argument('<target>', 'a .wasm file, or the name of a wasm tool in the extensions folder')
    .option('--json', 'print {name, description, spec, schema, argv_example} (plus file, sha256, help_flag, permission, network, imports, policy, provenance)')
    .option('--lock <file>', `the lockfile that says where tools came from (config lock; default ./${LOCKFILE_NAME})`);
  addHostOptions(command);
  command.addHelpText('after', ['', 'Examples:', '  toolhost inspect extensions/tools/wordcount.wasm', '  toolhost inspect wordcount --json'].join('\n'));
  command.action(
    context.action(async (target: string, flags: InspectFlags, self: Command) => {
      const { io } = context;
      const config = resolveHostConfig(flags, io);
      let tool: AnyTool;
      if (looksLikeFile(target, io.cwd)) {
        const file = resolve(io.cwd, target);
        if (!existsSync(file) || !statSync(file).isFile()) throw usageError(`${target}: no such file`, 'give a .wasm file or the name of a loaded wasm tool');
        tool = await loadFile(file, config);
      } else {
        const host = await openHost(config, io, { logger: commandLogger(isDebug(self)) });
        try {
          const found = host.registry.get(target);
          if (found === undefined) {
            const wasm = host.registry.all().filter((candidate) => candidate.source === 'wasm').map((candidate) => candidate.name).sort();
            throw usageError(
              `no tool named "${target}"${host.extensionsDir ? ` in ${host.extensionsDir}` : ' (no extensions folder in use)'}`,
              wasm.length > 0 ? `wasm tools here: ${wasm.join(', ')}` : 'pass a .wasm file, or --extensions DIR',
            );
          }
          if (found.source !== 'wasm') {
            throw usageError(`"${target}" is a built-in tool: it has no --help to inspect`, `\`toolhost list --json\` shows its schema`);
          }
          tool = found;
        } finally {
          await host.close({ graceMs: 0 });
        }
      }
      const file = detailsOf(tool).file;
      // --lock, else the config's `lock`, else ./toolhost.lock (resolveConfig settles which).
      const provenance = provenanceOf(file, config.server.lockFile);
      if (flags.json) writeJson(io, { ...inspectJson(tool), provenance });
      else io.stdout.write(renderInspect(tool, painterFor(io.stdout, io.env), provenance));
      return EXIT_OK;
    }),
  );
  return command;
}
