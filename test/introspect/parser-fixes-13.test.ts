/**
 * Notations met in parser fixes round 11 (issue 12, batch 6 as tuning material), each pinned on a
 * minimal help: positionals, value-taking, choices and defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

describe('positionals and names', () => {
  it('cobra `help for run` ends the command path at `run`: `hook-name` and `[git args...]` are arguments', () => {
    const help =
      'Execute group of hooks\n\nUsage:\n  lefthook run hook-name [git args...] [flags]\n\nFlags:\n      --all-files   run hooks on all files\n  -h, --help        help for run\n';
    const spec = parseHelp(help);
    expect(spec.name).toBe('lefthook_run');
    expect(spec.positionals).toEqual([
      { name: 'hook-name', required: true, variadic: false },
      { name: 'git args', required: false, variadic: true },
    ]);
  });
});
