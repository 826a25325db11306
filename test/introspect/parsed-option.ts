/** Test helper: the option a help text declares under a long or short name, as `parseHelp` reads it. */
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliOption } from '../../src/introspect/spec.ts';

export function option(help: string, key: string): CliOption | undefined {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}
