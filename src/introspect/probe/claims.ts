/**
 * What probes found, as claims `{field, command, option, value, source}`: the cached result of
 * probing a tool, merged into its spec by merge.ts. `option` is the spelling the probe sent
 * (`--format`, `-format`, `-f`); `command` the subcommand the probe ran under (null: the root).
 */
import type { CliValueType } from '../spec.ts';
import type { ProbeFramework } from './signatures.ts';

interface ClaimBase {
  command: string | null;
  /** `probe:<dialect>.<rule>`, shown per field by `inspect --json`. */
  source: string;
}

export type ProbeClaim =
  /** A closed list from the parser's own error: the option's enum. */
  | (ClaimBase & { field: 'choices'; option: string; value: string[] })
  /** Values a completion protocol offered: suggestions (JSON Schema `examples`), not an enum. */
  | (ClaimBase & { field: 'suggestions'; option: string; value: string[] })
  | (ClaimBase & { field: 'type'; option: string; value: CliValueType })
  | (ClaimBase & { field: 'takes_value'; option: string; value: boolean })
  | (ClaimBase & { field: 'description'; option: string; value: string })
  | (ClaimBase & { field: 'required'; option: string; value: true })
  | (ClaimBase & { field: 'positional_required'; positional: string; value: true })
  /** A subcommand the program lists (completion) that the help did not. */
  | (ClaimBase & { field: 'subcommand'; name: string; description: string | null })
  /** A flag the program lists (completion) that the help did not: reported, not added (its value-taking is unproven). */
  | (ClaimBase & { field: 'unlisted_flag'; option: string; description: string | null });

/** One tool's probe result, as cached. */
export interface ProbeResult {
  /** The framework the fingerprint chose (null: none; nothing was sent). */
  framework: ProbeFramework | null;
  /** Every fingerprinted framework, best first. */
  matches: ProbeFramework[];
  /** Probe runs sent. */
  runs: number;
  /** Wall time the probes took on the load that ran them (ms, rounded). */
  elapsed_ms: number;
  claims: ProbeClaim[];
}
