/**
 * The help → parse → subcommand helps → probes → overrides pipeline of a wasm tool (wasm-tool.ts
 * `deriveWasmToolSpec` imports this module on first use): the module that brings in the help parser
 * (src/introspect), the spec sidecar readers and the probes. Kept apart from wasm-tool.ts so that a load
 * whose finished spec comes from the wasm spec cache (wasm-spec-cache.ts) does not import any of them.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { captureHelp } from '../introspect/capture.ts';
import { withHelpExamples } from '../introspect/examples/help-examples.ts';
import type { UnparsedLine } from '../introspect/help-scan.ts';
import { parseHelp, parseHelpReport } from '../introspect/parse-help.ts';
import { withSubcommandOptions } from '../introspect/subcommand-help.ts';
import { applyToolOverrides, type ToolOverrides } from '../introspect/overrides.ts';
import { setSources } from '../introspect/reader/claims.ts';
import { findSpecSidecar, type FoundSidecarSpec } from '../introspect/sidecars/index.ts';
import type { CliSpec } from '../introspect/spec.ts';
import { mergeProbeClaims, probeProgram, type ProbeResult } from '../introspect/probe/index.ts';
import { createProbeRunner } from '../introspect/probe/wasm-runner.ts';
import { withPresentGrants, type ResolvedToolPolicy } from '../policy.ts';
import { ToolHostError } from '../errors.ts';
import type { LoadedComponent } from '../wasm/load.ts';
import type { LoadWarning } from './extension-set.ts';
import { fileStem } from './tool-names.ts';
import { createHelpRunner, helpCacheKeyOf, type WasmToolLoaderOptions, type WasmToolSpec } from './wasm-tool.ts';

/** The pipeline itself (deriveWasmToolSpec in wasm-tool.ts is its lazy entry): every step runs. */
export async function deriveFreshWasmToolSpec(
  component: LoadedComponent,
  file: string,
  overrides: ToolOverrides | undefined,
  policy: ResolvedToolPolicy,
  options: Pick<WasmToolLoaderOptions, 'runtime' | 'helpCache' | 'probeCache' | 'probeBudgetMs'> & { workspaceRoot?: string },
): Promise<WasmToolSpec> {
  const programName = fileStem(file);
  // Help runs with the tool's own grants (a tool that reads its data files at start-up still prints
  // help), on the one help-run policy check shares (createHelpRunner). A granted folder that is missing
  // is left out: the help run goes ahead with the grants that exist.
  const runHelp = createHelpRunner(options.runtime, component, withPresentGrants(policy).policy, programName);
  const run = async (args: string[]) => {
    const outcome = await runHelp(args);
    const decoder = new TextDecoder();
    return { stdout: decoder.decode(outcome.stdout), stderr: decoder.decode(outcome.stderr), exitCode: outcome.exitCode };
  };
  let spec: CliSpec;
  let helpFlag = 'tool.json';
  let helpProblem: string | undefined;
  let unparsed: UnparsedLine[] | undefined;
  let sidecar: FoundSidecarSpec | undefined;
  const warnings: LoadWarning[] = [];
  let probe: ProbeResult | undefined;
  let incomplete = false;
  if (overrides?.spec) {
    spec = overrides.spec;
  } else {
    // A spec the author ships (src/introspect/sidecars): ranked below `--help-json`, above the help parse.
    const lookup = await findSpecSidecar(file, { sha256: component.sha256 });
    warnings.push(...lookup.warnings);
    sidecar = lookup.found;
    // The help is captured with argv[0] = the file's base name, and programs commonly print argv[0] in
    // their Usage line (which names the tool), so the cache key covers the name as well as the bytes.
    // The toolhost version and the argv tried are the help cache's namespace (helpCacheNamespace).
    // The grants too: help runs with them, and a tool may print other help with other files or env.
    // Host paths inside the workspace count relative to it, so a workspace moved or copied to another
    // path (a new checkout, a CI runner) reuses the help captured under the old one.
    // Only the grants that exist: those are the ones the help ran with.
    const cacheKey = helpCacheKeyOf(component.sha256, programName, policy, options.workspaceRoot);
    const help = await captureHelp(run, { ...(options.helpCache ? { cache: options.helpCache } : {}), cacheKey }).catch((error: unknown) => {
      // A tool without help still loads (no parameters); `toolhost check` tells its author why.
      if (error instanceof ToolHostError && error.code === 'HELP_CAPTURE_FAILED') {
        helpProblem = error.message;
        return undefined;
      }
      throw error;
    });
    if (help?.spec !== undefined) {
      spec = help.spec;
      helpFlag = help.flag;
      if (sidecar !== undefined) {
        warnings.push({ code: 'spec-sidecar-shadowed', message: `${sidecar.origin} is not used: the program's own --help-json ranks above it` });
        sidecar = undefined;
      }
    } else if (sidecar !== undefined) {
      spec = withHelpDescription(sidecar.spec, help?.text, basename(file));
      helpFlag = sidecar.source;
      // The help was not needed: its absence is no problem of this tool.
      helpProblem = undefined;
    } else if (help === undefined || isToolResultJson(help.text)) {
      // A `--help-json` answer is JSON by design; only a text answer that is a JSON object is a result.
      spec = parseHelp('', { fileName: basename(file) });
      helpFlag = 'none';
    } else {
      const report = parseHelpReport(help.text, { fileName: basename(file) });
      spec = report.spec;
      unparsed = report.unparsed;
      helpFlag = help.flag;
      if (spec.subcommands.length > 0) {
        // Each subcommand's own options, from `<sub> --help` (bounded in count and time, cached).
        const cache = options.helpCache ? { cache: options.helpCache, cacheKey } : {};
        const withCommands = await withSubcommandOptions(spec, run, { ...cache, rootHelp: help.text });
        spec = withCommands.spec;
        if (withCommands.outOfTime.length > 0) incomplete = true;
      }
      // Ask the program (no grants, budgeted, cached like the help): `.tool.json` `"probes": false` opts out.
      if (overrides?.probes !== false) {
        probe = await probeProgram(spec, {
          runner: createProbeRunner(options.runtime, component, policy, programName),
          moduleBytes: async () => new Uint8Array(await readFile(component.file)),
          ...(options.probeCache ? { cache: options.probeCache, cacheKey } : {}),
          ...(options.probeBudgetMs !== undefined ? { budget: { budgetMs: options.probeBudgetMs } } : {}),
        });
        spec = mergeProbeClaims(spec, probe.claims);
        // nothing fingerprinted, nothing sent: the load reports no probe
        if (probe.framework === null) probe = undefined;
      }
      // The example calls of its EXAMPLES section (src/introspect/examples/).
      spec = withHelpExamples(spec, help.text, [programName]);
    }
  }
  return {
    spec: overrides ? applyToolOverrides(spec, overrides) : spec,
    helpFlag,
    program: spec.name,
    ...(helpProblem !== undefined ? { helpProblem } : {}),
    ...(unparsed !== undefined ? { unparsed } : {}),
    ...(sidecar !== undefined ? { sidecar: { format: sidecar.format, origin: sidecar.origin } } : {}),
    warnings,
    ...(probe !== undefined ? { probe } : {}),
    ...(incomplete ? { incomplete } : {}),
  };
}

/**
 * A sidecar spec that states no description (oclif manifests and many carapace specs have none) takes
 * the one its help gives, marked as from the help; the spec is otherwise the sidecar's.
 */
function withHelpDescription(spec: CliSpec, helpText: string | undefined, fileName: string): CliSpec {
  if (spec.description.trim() !== '' || helpText === undefined || isToolResultJson(helpText)) return spec;
  const description = parseHelp(helpText, { fileName }).description;
  if (description.trim() === '') return spec;
  const described: CliSpec = { ...spec, description };
  setSources(described, { ...spec.sources, description: 'help:description' });
  return described;
}

/** True when a `--help` answer is really the tool's JSON result (a tool that ignores `--help`). */
function isToolResultJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
