/**
 * `toolhost check <file.wasm>`: a lint for tool authors. Is the file a component (or a wasip1
 * module toolhost can wrap)? Does it load? Does `--help` come back and parse into options and
 * positionals (or does a spec the author ships describe them: a bad one is a `spec-sidecar-invalid` warning)? Are the options unambiguous and described? How big is it, how fast does it start?
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { ToolHostError } from '../../errors.ts';
import { type CapturedHelp, captureHelp } from '../../introspect/capture.ts';
import { fileStem, planFolderToolNames, sidecarPaths } from '../../extensions/tool-names.ts';
import { createHelpRunner, deriveWasmToolSpec, HELP_TIMEOUT_MS, missingGrantWarning, resolveWasmToolPolicy, type WasmToolSpec } from '../../extensions/wasm-tool.ts';
import { readToolOverrides, type ToolOverrides } from '../../introspect/overrides.ts';
import { findSpecSidecar } from '../../introspect/sidecars/index.ts';
import { describeUnparsed } from '../../introspect/inspect-report.ts';
import { propertyNameOf } from '../../introspect/property-name.ts';
import type { CliOption, CliSpec } from '../../introspect/spec.ts';
import { cliSpecToZod } from '../../introspect/to-zod.ts';
import { inputExamplesOf, MAX_INPUT_EXAMPLES } from '../../introspect/examples/index.ts';
import { readPolicyFile, resolvePolicy, withPresentGrants, type ResolvedToolPolicy } from '../../policy.ts';
import { jsonSchemaOf } from '../../tool.ts';
import { classifyBinary } from '../../wasm/component-kind.ts';
import type { LoadedComponent } from '../../wasm/load.ts';
import { createWasmRuntime, type WasmRuntime } from '../../wasm/runtime.ts';
import type { CommandContext } from '../command-context.ts';
import { EXIT_FAILURE, EXIT_OK, type Paint, painterFor, usageError, writeJson } from '../output.ts';
import { DEFAULT_CACHE_DIRECTORY_TEXT } from '../host-setup.ts';
import { formatBytes, resolveCacheDirectory } from './cache.ts';

/** Budget of one `--help` run during a check (the host's: createHelpRunner, with its one retry). */
export const CHECK_HELP_TIMEOUT_MS = HELP_TIMEOUT_MS;
/** Components above this size get a warning: every cold start transpiles and compiles them. */
export const LARGE_COMPONENT_BYTES = 50 * 1024 * 1024;
/** A `--help` run slower than this (warm) gets a warning: every call pays the start-up. */
export const SLOW_STARTUP_MS = 500;

export type FindingLevel = 'ok' | 'warning' | 'error';

export interface Finding {
  level: FindingLevel;
  /** Stable identifier, e.g. `option-without-description`. */
  code: string;
  message: string;
}

export interface CheckReport {
  file: string;
  ok: boolean;
  errors: number;
  warnings: number;
  findings: Finding[];
  facts: {
    size_bytes: number;
    kind: 'component' | 'wasip1-core-module' | 'refused';
    imports?: readonly string[];
    transpile_ms?: number;
    cold_start_ms?: number;
    startup_ms?: number;
    help_flag?: string;
    options?: number;
    positionals?: number;
    subcommands?: number;
    /** Subcommands whose own `<sub> --help` added options or positionals. */
    subcommands_with_own_parameters?: number;
  };
}

interface CheckFlags {
  json?: boolean;
  strict?: boolean;
  cacheDir?: string;
  config?: string;
}

function describeOption(option: CliOption): string {
  if (option.long !== null) return `${option.prefix ?? '--'}${option.long}`;
  if (option.short !== null) return `-${option.short}`;
  return '(unnamed option)';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Lints of a parsed spec: what makes the derived schema vague or ambiguous for a model. */
export function lintSpec(spec: CliSpec): Finding[] {
  const findings: Finding[] = [];
  if (spec.description.trim() === '') {
    findings.push({ level: 'warning', code: 'no-description', message: 'no description found: the first line of --help becomes the description a model reads' });
  }
  if (spec.options.length === 0 && spec.positionals.length === 0 && spec.subcommands.length === 0) {
    findings.push({
      level: 'warning',
      code: 'no-arguments-found',
      message: 'no options, positionals or subcommands found in the help: the tool will be offered without parameters (is the help in a layout like `  -s, --long <VALUE>  description`?)',
    });
  }
  const byProperty = new Map<string, CliOption[]>();
  for (const option of spec.options) {
    const property = propertyNameOf(option);
    byProperty.set(property, [...(byProperty.get(property) ?? []), option]);
    if (option.description === null || option.description.trim() === '') {
      findings.push({ level: 'warning', code: 'option-without-description', message: `option ${describeOption(option)} has no description: a model has to guess what it does` });
    }
    if (option.takes_value && option.value_name === null && option.choices === null && option.default === null) {
      findings.push({
        level: 'warning',
        code: 'value-without-type-hint',
        message: `option ${describeOption(option)} takes a value but shows no <VALUE> name, default or choices: its type falls back to ${option.type}`,
      });
    }
  }
  for (const [property, options] of byProperty) {
    if (options.length > 1) {
      findings.push({
        level: 'warning',
        code: 'duplicate-property',
        message: `options ${options.map(describeOption).join(' and ')} all map to the property "${property}": later ones are renamed ${property}_2, ... which a model cannot relate to the help`,
      });
    }
  }
  for (const positional of spec.positionals) {
    if (!positional.description) {
      findings.push({ level: 'warning', code: 'positional-without-description', message: `positional <${positional.name}> has no description (add an "Arguments:" section)` });
    }
  }
  return findings;
}

/**
 * The tool name the file gets in its folder (its stem, or its .tool.json name) and, when that name is
 * taken by a built-in or a sibling file, the suffixed name a host serves it under (src/extensions/tool-names.ts).
 */
async function nameFindings(file: string, overrides: ToolOverrides | undefined): Promise<Finding[]> {
  const { builtinTools } = await import('../../../builtins/index.ts');
  const planned = (await planFolderToolNames(dirname(file), builtinTools.map((tool) => tool.name))).find((entry) => entry.file === file);
  if (planned === undefined) return [];
  const origin = overrides?.name !== undefined ? basename(sidecarPaths(file).overrides) : 'the file name';
  if (planned.clash === undefined) return [{ level: 'ok', code: 'name', message: `tool name "${planned.name}" (from ${origin})` }];
  return [
    {
      level: 'warning',
      code: 'name-clash',
      message: `${planned.clash.reason}: rename the file or set "name" in ${basename(sidecarPaths(file).overrides)}`,
    },
  ];
}

/** Records one finding; each pass of `checkComponent` reports through it. */
type AddFinding = (level: FindingLevel, code: string, message: string) => void;

/**
 * Runs every check on one file; never throws for a problem with the file (that is a finding).
 * The passes run in order and a pass that finds the file unusable ends the check (later passes need
 * what it produced): kind → sidecars → load → start-up and help → the spec the help yields.
 */
export async function checkComponent(file: string, runtime: WasmRuntime, workspaceRoot: string): Promise<CheckReport> {
  const findings: Finding[] = [];
  const add: AddFinding = (level, code, message) => {
    findings.push({ level, code, message });
  };
  const bytes = readFileSync(file);
  const facts: CheckReport['facts'] = { size_bytes: bytes.length, kind: 'refused' };
  const finish = (): CheckReport => {
    const errors = findings.filter((finding) => finding.level === 'error').length;
    const warnings = findings.filter((finding) => finding.level === 'warning').length;
    return { file, ok: errors === 0, errors, warnings, findings, facts };
  };

  if (!checkKind(bytes, facts, add)) return finish();
  const overrides = await checkSidecars(file, workspaceRoot, add);
  // The tool's own policy (its grants too): help runs with it in a host. An invalid policy file was
  // reported by the sidecar pass; the rest of the check then runs on the defaults.
  const policy = await resolveWasmToolPolicy(file, overrides, { workspaceRoot }).catch(() => resolvePolicy({}, workspaceRoot));
  // A granted folder that is missing: a host loads the tool with a warning and runs it without the grant.
  for (const missing of withPresentGrants(policy).missing) {
    const warning = missingGrantWarning(missing);
    add('warning', warning.code, warning.message);
  }
  const component = await checkLoad(file, runtime, facts, add);
  if (component === undefined) return finish();
  // A spec the author ships makes the help optional: a tool without a usable --help still serves.
  const shipsSpec = (await findSpecSidecar(file, { sha256: component.sha256 })).found !== undefined;
  const help = await checkHelpRuns(file, component, runtime, policy, facts, add, shipsSpec ? 'warning' : 'error');
  if (help === undefined && !shipsSpec) return finish();
  // The spec as the host derives it (the same pipeline: help, parse, subcommand helps, overrides).
  const derived = await deriveWasmToolSpec(component, file, overrides, policy, { runtime });
  await checkHelpSpec(file, derived, overrides, facts, add, findings);
  return finish();
}

/** Kind pass: a component or a wasip1 command module (and how large), or refused; false when refused. */
function checkKind(bytes: Uint8Array, facts: CheckReport['facts'], add: AddFinding): boolean {
  const classified = classifyBinary(bytes);
  facts.kind = classified.kind;
  if (classified.kind === 'refused') {
    add('error', 'not-a-command', `not a runnable tool: ${classified.reason}`);
    return false;
  }
  add(
    'ok',
    'kind',
    classified.kind === 'component'
      ? `a component, ${formatBytes(bytes.length)}`
      : `a wasip1 command module, ${formatBytes(bytes.length)}: toolhost wraps it with the preview1 command adapter`,
  );
  if (bytes.length > LARGE_COMPONENT_BYTES) {
    add('warning', 'large', `${formatBytes(bytes.length)} is large: the first load transpiles and compiles all of it (strip debug info, build with -O2/-Os)`);
  }
  return true;
}

/** Sidecar pass: the `.policy.json` and `.tool.json` next to the file, when present, must be valid; returns the overrides. */
async function checkSidecars(file: string, workspaceRoot: string, add: AddFinding): Promise<ToolOverrides | undefined> {
  const sidecars = sidecarPaths(file);
  if (existsSync(sidecars.policy)) {
    try {
      const declared = await readPolicyFile(sidecars.policy);
      resolvePolicy(declared, workspaceRoot);
      add('ok', 'policy', `policy ${basename(sidecars.policy)} is valid`);
    } catch (error) {
      add('error', 'policy-invalid', messageOf(error));
    }
  }
  let overrides: ToolOverrides | undefined;
  if (existsSync(sidecars.overrides)) {
    try {
      overrides = await readToolOverrides(sidecars.overrides);
      add('ok', 'overrides', `overrides ${basename(sidecars.overrides)} are valid`);
    } catch (error) {
      add('error', 'overrides-invalid', messageOf(error));
    }
  }
  return overrides;
}

/** Load pass: transpiles (or reads from the cache) and records how long that took; undefined when it fails. */
async function checkLoad(file: string, runtime: WasmRuntime, facts: CheckReport['facts'], add: AddFinding): Promise<LoadedComponent | undefined> {
  let component: LoadedComponent;
  const loadStarted = performance.now();
  try {
    component = await runtime.load(file);
  } catch (error) {
    add('error', ToolHostError.is(error, 'WASM_UNSUPPORTED_IMPORT') ? 'unsupported-import' : 'load-failed', messageOf(error));
    return undefined;
  }
  facts.transpile_ms = Math.round(performance.now() - loadStarted);
  facts.imports = component.imports;
  add('ok', 'load', `loads${component.transpiled ? `: transpiled in ${facts.transpile_ms} ms (cached for later loads)` : ' from the transpile cache'}`);
  return component;
}

/**
 * Start-up and help pass: times a cold and a warm `--help` run, then captures the help the way the
 * host does; undefined when the component cannot run or prints no help.
 */
async function checkHelpRuns(
  file: string,
  component: LoadedComponent,
  runtime: WasmRuntime,
  toolPolicy: ResolvedToolPolicy,
  facts: CheckReport['facts'],
  add: AddFinding,
  missingHelpLevel: FindingLevel = 'error',
): Promise<CapturedHelp | undefined> {
  // The host's help-run policy (createHelpRunner): the same budget, and the same one retry of a run
  // that timed out, so check never reports "timed out" for a help a host takes.
  const helpRun = createHelpRunner(runtime, component, withPresentGrants(toolPolicy).policy, fileStem(file));
  const decoder = new TextDecoder();
  const runHelp = async (args: string[]) => {
    const outcome = await helpRun(args);
    if (outcome.timedOut) throw new Error(`timed out after ${outcome.timeoutMs ?? CHECK_HELP_TIMEOUT_MS} ms`);
    if (outcome.trap !== undefined) throw new Error(`trapped: ${outcome.trap}`);
    return { outcome, output: { stdout: decoder.decode(outcome.stdout), stderr: decoder.decode(outcome.stderr), exitCode: outcome.exitCode } };
  };

  // Start-up: the first run compiles the core modules; the second is what every call pays.
  try {
    const cold = await runHelp(['--help']);
    facts.cold_start_ms = Math.round(cold.outcome.durationMs);
    const warm = await runHelp(['--help']);
    facts.startup_ms = Math.round(warm.outcome.durationMs);
    const level = facts.startup_ms > SLOW_STARTUP_MS ? 'warning' : 'ok';
    add(level, 'startup', `start-up: ${facts.startup_ms} ms per --help run (first run ${facts.cold_start_ms} ms, compiling included)`);
    if (cold.output.exitCode !== 0 && cold.output.exitCode !== null) {
      add('warning', 'help-exit-code', `--help exits with ${cold.output.exitCode}: exit 0 so help is not mistaken for an error`);
    }
  } catch (error) {
    add(missingHelpLevel, 'help-run-failed', `running --help failed: ${messageOf(error)}`);
    return undefined;
  }

  let help: CapturedHelp;
  try {
    help = await captureHelp(async (args) => (await runHelp(args)).output);
  } catch (error) {
    add(missingHelpLevel, 'no-help', `${messageOf(error)}: print a help text for --help (see \`toolhost new\` for the layout that parses best)`);
    return undefined;
  }
  facts.help_flag = help.flag;
  if (help.flag !== '--help' && help.flag !== '--help-json') {
    add('warning', 'help-flag', `help came from \`${help.flag}\`, not --help: support --help, which is what people and toolhost try first`);
  }
  return help;
}

/** How the help became the spec, in words for the `help` finding. */
function specOrigin(helpFlag: string): string {
  if (helpFlag === 'tool.json') return 'the spec in .tool.json';
  if (helpFlag === '--help-json') return '--help-json returned a spec';
  if (helpFlag.startsWith('sidecar:')) return `the ${helpFlag.slice('sidecar:'.length)} spec the author ships`;
  return `${helpFlag} parsed`;
}

/**
 * Spec pass: the spec the host derives (help, parse, each subcommand's own help, overrides), its tool
 * name, lint, and whether a JSON Schema derives from it.
 */
async function checkHelpSpec(
  file: string,
  derived: WasmToolSpec,
  overrides: ToolOverrides | undefined,
  facts: CheckReport['facts'],
  add: AddFinding,
  findings: Finding[],
): Promise<void> {
  const { spec } = derived;
  facts.help_flag = derived.helpFlag;
  facts.options = spec.options.length;
  facts.positionals = spec.positionals.length;
  facts.subcommands = spec.subcommands.length;
  for (const warning of derived.warnings) add('warning', warning.code, warning.message);
  add(
    'ok',
    'help',
    `${specOrigin(derived.helpFlag)}${derived.sidecar !== undefined ? ` (${derived.sidecar.origin})` : ''}: ${spec.options.length} option(s), ${spec.positionals.length} positional(s), ${spec.subcommands.length} subcommand(s); program "${derived.program}"`,
  );
  if (spec.subcommands.length > 0) {
    const withOwn = spec.subcommands.filter((subcommand) => (subcommand.options?.length ?? 0) + (subcommand.positionals?.length ?? 0) > 0);
    facts.subcommands_with_own_parameters = withOwn.length;
    add(
      'ok',
      'subcommand-help',
      `${withOwn.length} of ${spec.subcommands.length} subcommand(s) have their own options or positionals (from \`<subcommand> --help\`)${
        withOwn.length > 0 ? `: ${withOwn.map((subcommand) => `${subcommand.name} (${subcommand.options?.length ?? 0} option(s), ${subcommand.positionals?.length ?? 0} positional(s))`).join(', ')}` : ''
      }`,
    );
  }
  if (spec.success_exit_codes !== undefined) {
    add('ok', 'success-exit-codes', `exit codes ${spec.success_exit_codes.join(', ')} end a call with a result (success_exit_codes); any other is an error`);
  }
  if (derived.helpProblem !== undefined) {
    add('warning', 'help-not-taken', `a host takes no help from this tool and serves it without parameters: ${derived.helpProblem}`);
  }
  const unparsedNote = derived.unparsed ? describeUnparsed(derived.unparsed) : null;
  if (unparsedNote !== null) add('warning', 'help-unparsed', `${unparsedNote}: write them as option lines, or correct the spec in .tool.json`);
  findings.push(...(await nameFindings(file, overrides)));
  findings.push(...lintSpec(spec));
  try {
    const input = cliSpecToZod(spec);
    jsonSchemaOf(input);
    exampleFindings(spec, input, add);
  } catch (error) {
    add('error', 'schema-failed', `no JSON Schema can be derived from the help: ${messageOf(error)}`);
  }
}

/**
 * How many of the spec's example calls are offered (src/introspect/examples/). Examples the author
 * wrote (`--help-json`, `.tool.json`) that do not map onto the schema are a warning
 * (`examples-dropped`); lines of a help's EXAMPLES section that do not are expected (pipes, other
 * programs) and only counted.
 */
function exampleFindings(spec: CliSpec, input: ReturnType<typeof cliSpecToZod>, add: (level: FindingLevel, code: string, message: string) => void): void {
  const given = spec.examples ?? [];
  if (given.length === 0) return;
  const kept = inputExamplesOf(spec, input);
  const fromHelp = spec.sources?.['examples'] === 'help:examples';
  add('ok', 'examples', `${kept.length} of ${given.length} example(s) ${fromHelp ? "from the help's EXAMPLES section " : ''}map exactly onto the schema (offered as the schema's examples and Anthropic's input_examples)`);
  if (fromHelp || kept.length === given.length) return;
  const keptArgv = new Set(kept.map((example) => JSON.stringify(example.argv ?? example.input)));
  const dropped = given.flatMap((example, index) => (keptArgv.has(JSON.stringify(example.argv ?? example.input)) ? [] : [index]));
  add('warning', 'examples-dropped', `example(s) ${dropped.join(', ')} (counting from 0) do not map exactly onto the schema and are not offered: an unknown option, a wrong type, a value outside the choices, or more than ${MAX_INPUT_EXAMPLES} examples`);
}

const LEVEL_LABEL: Record<FindingLevel, [string, Parameters<Paint>[0]]> = {
  ok: ['ok', 'green'],
  warning: ['warn', 'yellow'],
  error: ['error', 'red'],
};

function renderReport(report: CheckReport, paint: Paint): string {
  const lines = [`${paint('bold', report.file)}`];
  for (const finding of report.findings) {
    const [label, colour] = LEVEL_LABEL[finding.level];
    lines.push(`  ${paint(colour, label.padEnd(5))}  ${finding.message}`);
  }
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  lines.push(`${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`);
  return `${lines.join('\n')}\n`;
}

export function defineCheckCommand(command: Command, context: CommandContext): Command {
  command
    .argument('<file>', 'the .wasm file to check')
    .option('--json', 'print the report as JSON')
    .option('--strict', 'exit non-zero on warnings too')
    .option('--cache-dir <dir>', `transpile cache to use (env TOOLHOST_CACHE_DIR; default: ${DEFAULT_CACHE_DIRECTORY_TEXT})`)
    .option('--config <file>', 'JSON config file whose cache_dir to use');
  command.addHelpText('after', '\nExit status: 0 when the tool passes (warnings allowed unless --strict), 1 on errors, 2 on a usage error.');
  command.action(
    context.action(async (fileArgument: string, flags: CheckFlags) => {
      const { io } = context;
      const file = resolve(io.cwd, fileArgument);
      if (!existsSync(file)) throw usageError(`${fileArgument}: no such file`);
      if (!statSync(file).isFile()) throw usageError(`${fileArgument}: not a file`);
      const runtime = createWasmRuntime({ cacheDirectory: resolveCacheDirectory(flags, io), threads: 1 });
      let report: CheckReport;
      try {
        report = await checkComponent(file, runtime, io.cwd);
      } finally {
        await runtime.close();
      }
      if (flags.json) writeJson(io, report);
      else io.stdout.write(renderReport(report, painterFor(io.stdout, io.env)));
      const failed = report.errors > 0 || (flags.strict === true && report.warnings > 0);
      return failed ? EXIT_FAILURE : EXIT_OK;
    }),
  );
  return command;
}
