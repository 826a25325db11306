/**
 * One wasm tool's inspection: the `toolhost inspect --json` report keys (never renamed) plus the facts
 * of its load. The CLI (`inspect --json`, run by the operator) shows the policy as it is; the HTTP
 * route shows it with secret-bearing values replaced by their names. Both build it here.
 */
import { buildInspectReport, type InspectReport } from '../introspect/inspect-report.ts';
import type { ToolInputExample } from '../introspect/examples/index.ts';
import type { ProbeResult } from '../introspect/probe/index.ts';
import type { ResolvedToolPolicy } from '../policy.ts';
import type { AnyTool } from '../tool.ts';
import type { LoadWarning } from './extension-set.ts';
import { DEFAULT_SUCCESS_EXIT_CODES, type WasmToolDetails } from './wasm-tool.ts';

export interface WasmToolInspection<Policy> extends InspectReport {
  /** The program the help's Usage line names; the tool is named after its file (or its .tool.json). */
  program: string;
  file: string;
  sha256: string;
  help_flag: string;
  /** Why no help was taken (a trap, a timeout, or a failing exit whose output did not look like help). */
  help_problem?: string;
  /** Exit codes that end a call with a result rather than an error (`success_exit_codes`, default [0]). */
  success_exit_codes: number[];
  permission: string;
  network: boolean;
  imports: string[];
  policy: Policy;
  /** Why the tool serves under another name than its file's, when it does. */
  name_clash?: string;
  /** What is wrong with the tool though it loaded (`grant-folder-missing`); empty when nothing is. */
  warnings: LoadWarning[];
  /**
   * What asking the program found (src/introspect/probe/): the fingerprinted framework, runs sent on
   * the load that probed (a cached result keeps them), and the claims; the fields they set carry
   * `sources` `probe:…` in `spec`. Absent when no probe was made.
   */
  probe?: ProbeResult;
  /**
   * The example calls offered with the tool (the schema's `examples`, Anthropic `input_examples`): each
   * argument object, what it does, and the argv it was read as. Absent when there are none.
   */
  examples?: ToolInputExample[];
}

/** Builds the inspection of a wasm tool, presenting its policy with `presentPolicy`. */
export function inspectWasmTool<Policy>(tool: AnyTool, presentPolicy: (policy: ResolvedToolPolicy) => Policy): WasmToolInspection<Policy> {
  const details = tool.details as WasmToolDetails;
  const clash = (details['name_clash'] as { reason?: unknown } | undefined)?.reason;
  return {
    ...buildInspectReport(details.spec, tool.inputSchema as Record<string, unknown>, details.unparsed),
    name: tool.name,
    program: details.program,
    file: details.file,
    sha256: details.sha256,
    help_flag: details.helpFlag,
    ...(details.helpProblem === undefined ? {} : { help_problem: details.helpProblem }),
    success_exit_codes: [...(details.spec.success_exit_codes ?? DEFAULT_SUCCESS_EXIT_CODES)],
    permission: tool.permission,
    network: tool.network,
    imports: [...details.imports],
    policy: presentPolicy(details.policy),
    ...(typeof clash === 'string' ? { name_clash: clash } : {}),
    warnings: (details.warnings ?? []).map((warning) => ({ ...warning })),
    ...(details.probe !== undefined ? { probe: structuredClone(details.probe) } : {}),
    ...(details.examples !== undefined && details.examples.length > 0 ? { examples: structuredClone(details.examples) } : {}),
  };
}
