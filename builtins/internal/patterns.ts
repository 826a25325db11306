/** Checks shared by the tools that take glob patterns (glob, grep include). */

/** Refuses patterns that would reach outside the base directory; returns a message, or undefined when fine. */
export function checkRelativePattern(pattern: string, parameter: string): string | undefined {
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) {
    return `${parameter} "${pattern}" is absolute; give a pattern relative to the search directory (e.g. "**/*.ts") and set path to choose the directory.`;
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    return `${parameter} "${pattern}" contains a ".." segment; patterns cannot climb out of the search directory. Set path to the directory to search instead.`;
  }
  return undefined;
}
