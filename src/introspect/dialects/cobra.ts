/**
 * The cobra / pflag dialect (fingerprint `cobra`: `Use "x [command] --help" for more information`,
 * `Global Flags:`, `-h, --help  help for x`). What the core reads the cobra way, keyed on the
 * fingerprint's `cobra` trait: root (persistent) flags parse after the subcommand
 * (`options_after_command`, `help:cobra.persistent-flags`), and option lines quoted in the long
 * description above `Usage:` are prose. Here: the command the help flag names, which ends the
 * usage form's command path (`stern pod-query [flags]`: `pod-query` is an argument).
 */

/** cobra's help flag names its command: `-h, --help   help for stern`. */
export function cobraHelpCommandName(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const match = /^\s+-h, --help\s+help for ([a-z][\w.-]{0,40})\s*$/.exec(line);
    if (match !== null) return match[1];
  }
  return undefined;
}
