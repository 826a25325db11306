/**
 * wasi:cli/environment (0.2.0–0.2.3), per call: arguments exactly `options.args` (argv[0] is the
 * tool name), environment exactly `options.env` (never the host's), no initial cwd.
 */
export interface CliEnvironment {
  getEnvironment(): Array<[string, string]>;
  getArguments(): string[];
  initialCwd(): string | undefined;
}

export function createEnvironment(args: readonly string[], env: Readonly<Record<string, string>>): CliEnvironment {
  let entries: Array<[string, string]> | undefined;
  return {
    getEnvironment: () => (entries ??= Object.entries(env)),
    getArguments: () => args as string[],
    initialCwd: () => undefined,
  };
}
