/**
 * cac prints `$ prog <command> [options]` as the usage of a program that never set one of its own
 * (its global command's default usage text), whether or not it has commands. With no command
 * listed, `<command>` is that boilerplate: no argument the program takes.
 */

/** `$ vite-bundle-visualizer <command> [options]`: cac's default usage line, the prompt included. */
const CAC_DEFAULT_USAGE = /^\$ [\w.@/-]{1,80} <command> \[options\]$/;

/** True when the only usage form is cac's default one (callers check that no command is listed). */
export function isCacDefaultUsage(forms: readonly string[]): boolean {
  return forms.length === 1 && CAC_DEFAULT_USAGE.test((forms[0] ?? '').trim());
}
