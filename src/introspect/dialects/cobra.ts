/**
 * The cobra / pflag dialect (fingerprint `cobra`: `Use "x [command] --help" for more information`,
 * `Global Flags:`, `-h, --help  help for x`). Its rows in the dialect table (dialects/index.ts):
 * root (persistent) flags parse after the subcommand (`options_after_command`,
 * `help:cobra.persistent-flags`); option lines quoted in the long description above `Usage:` are
 * prose; the command the help flag names ends the usage form's command path (`stern pod-query
 * [flags]`: `pod-query` is an argument).
 */

/** cobra's own lines: `Use "x [command] --help" for more information`, or `Global Flags:`. */
export function isCobraHelp(lines: readonly string[]): boolean {
  return lines.some((line) => /^Use "[^"]{1,80} \[command\] --help" for more information/.test(line.trim()) || /^Global Flags:$/.test(line.trim()));
}

/** cobra's help flag names its command: `-h, --help   help for stern`. */
export function cobraHelpCommandName(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const match = /^\s+-h, --help\s+help for ([a-z][\w.-]{0,40})\s*$/.exec(line);
    if (match !== null) return match[1];
  }
  return undefined;
}
