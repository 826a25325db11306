/**
 * Notations met in parser fixes round 7 (issue 12), each pinned on a minimal help. First the
 * defaults that are no value (an invented default is worse than a missing one), then choices,
 * positionals and the defaults that are values.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';

function option(help: string, key: string) {
  return parseHelp(help).options.find((candidate) => candidate.long === key || candidate.short === key);
}

describe('defaults that are no value', () => {
  it('argparse `default: .?*, _svn, __pycache__` is a list; `default: 4.` and `default: fast, which is safe` are values', () => {
    const help =
      'usage: count [-h] [--skip PATTERNS] [--jobs N] [--mode MODE]\n\noptions:\n  --skip PATTERNS  comma separated list of glob patterns; default:\n                   .?*, _svn, __pycache__\n  --jobs N         jobs to run; default: 4.\n  --mode MODE      mode to use; default: fast, which is safe\n';
    expect(option(help, 'skip')?.default).toBeNull();
    expect(option(help, 'jobs')?.default).toBe(4);
    expect(option(help, 'mode')?.default).toBe('fast');
  });
});
