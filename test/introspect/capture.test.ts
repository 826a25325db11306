import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureHelp, createHelpCache, looksLikeError, type HelpRunOutput } from '../../src/introspect/capture.ts';
import { ToolHostError } from '../../src/errors.ts';

type Answers = Record<string, HelpRunOutput | Error>;

function runner(answers: Answers): { run: (args: string[]) => Promise<HelpRunOutput>; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    run: async (args) => {
      calls.push(args);
      const answer = answers[args.join(' ')];
      if (answer instanceof Error) throw answer;
      return answer ?? { stdout: '', stderr: `error: unrecognized argument '${args.join(' ')}'`, exitCode: 2 };
    },
  };
}

const HELP = 'Usage: tool [OPTIONS] FILE\n\nOptions:\n  -n, --lines <N>  lines to print\n  -h, --help       Print help\n';
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('captureHelp', () => {
  it('uses --help when it answers, after trying --help-json', async () => {
    const { run, calls } = runner({ '--help': { stdout: HELP, stderr: '', exitCode: 0 } });
    const captured = await captureHelp(run);
    expect(captured).toEqual({ text: HELP, flag: '--help' });
    expect(calls).toEqual([['--help-json'], ['--help']]);
  });

  it('falls back to -h then help when output is empty or an error, and reads stderr when stdout is empty', async () => {
    const { run, calls } = runner({
      '--help': { stdout: '', stderr: "error: unexpected argument '--help' found", exitCode: 2 },
      '-h': { stdout: '', stderr: '', exitCode: 0 },
      help: { stdout: '', stderr: HELP, exitCode: 1 },
    });
    expect(await captureHelp(run)).toEqual({ text: HELP, flag: 'help' });
    expect(calls.map((call) => call.join(' '))).toEqual(['--help-json', '--help', '-h', 'help']);
  });

  it('survives a runner that throws and keeps Go flag help printed on stderr with exit 2', async () => {
    const goHelp = 'Usage of tool:\n  -n int\n    \tlines (default 10)\n';
    const { run } = runner({ '--help': new Error('trap'), '-h': { stdout: '', stderr: goHelp, exitCode: 2 } });
    expect(await captureHelp(run)).toEqual({ text: goHelp, flag: '-h' });
  });

  it('throws HELP_CAPTURE_FAILED when nothing usable comes back', async () => {
    const { run } = runner({});
    await expect(captureHelp(run)).rejects.toSatisfy((error: unknown) => ToolHostError.is(error, 'HELP_CAPTURE_FAILED'));
  });

  it('accepts a valid --help-json spec, filling defaults', async () => {
    const spec = { name: 'tool', description: 'd', options: [{ long: 'lines', short: 'n', takes_value: true, type: 'integer' }], positionals: [{ name: 'file' }] };
    const { run, calls } = runner({ '--help-json': { stdout: JSON.stringify(spec), stderr: '', exitCode: 0 } });
    const captured = await captureHelp(run);
    expect(captured.flag).toBe('--help-json');
    expect(captured.spec?.options[0]).toMatchObject({ long: 'lines', short: 'n', takes_value: true, type: 'integer', aliases: [], default: null, required: false });
    expect(captured.spec?.positionals[0]).toEqual({ name: 'file', required: true, variadic: false });
    expect(calls).toEqual([['--help-json']]);
  });

  it('ignores an invalid --help-json answer and uses the text help', async () => {
    const { run } = runner({
      '--help-json': { stdout: JSON.stringify({ name: 'bad name!', options: [] }), stderr: '', exitCode: 0 },
      '--help': { stdout: HELP, stderr: '', exitCode: 0 },
    });
    const captured = await captureHelp(run);
    expect(captured.flag).toBe('--help');
    expect(captured.spec).toBeUndefined();
  });

  it('caches by the given content hash and does not run the component again', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'help-cache-'));
    directories.push(directory);
    const cache = createHelpCache(join(directory, 'help'));
    const key = 'a'.repeat(64);
    const first = runner({ '--help': { stdout: HELP, stderr: '', exitCode: 0 } });
    await captureHelp(first.run, { cache, cacheKey: key });
    expect(readdirSync(join(directory, 'help'))).toEqual([`${key}.json`]);
    expect(JSON.parse(readFileSync(join(directory, 'help', `${key}.json`), 'utf8'))).toEqual({ text: HELP, flag: '--help' });
    const second = runner({});
    expect(await captureHelp(second.run, { cache, cacheKey: key })).toEqual({ text: HELP, flag: '--help' });
    expect(second.calls).toEqual([]);
    const other = runner({ '-h': { stdout: HELP, stderr: '', exitCode: 0 } });
    expect((await captureHelp(other.run, { cache, cacheKey: 'b'.repeat(64) })).flag).toBe('-h');
  });

  it('rejects cache keys that could escape the directory', async () => {
    const cache = createHelpCache(join(tmpdir(), 'unused-help-cache'));
    await expect(cache.set('../x', { text: 't', flag: '--help' })).rejects.toSatisfy((error: unknown) => ToolHostError.is(error, 'HELP_CAPTURE_FAILED'));
  });
});

describe('looksLikeError', () => {
  it('tells error messages from help', () => {
    expect(looksLikeError('')).toBe(true);
    expect(looksLikeError("error: unrecognized arguments: --help")).toBe(true);
    expect(looksLikeError('flag provided but not defined: -help')).toBe(true);
    expect(looksLikeError('Unknown option: -h\nTry --help')).toBe(true);
    expect(looksLikeError(HELP)).toBe(false);
    expect(looksLikeError('mytool 1.0 - does things')).toBe(false);
  });
});

describe('help capture takes only runs that can be help', () => {
  const runner = (answers: Record<string, HelpRunOutput>) => async (args: string[]) => answers[args[0] ?? ''] ?? { stdout: '', stderr: '', exitCode: 1 };

  it('never takes the output of a trap or a timeout (no exit code), even when it reads like help', async () => {
    const trapped = { stdout: '', stderr: 'assertion failed at adapter line 2745\nUsage: x [--a]\n  --a  b\n  --c  d', exitCode: null };
    await expect(captureHelp(runner({ '--help': trapped, '-h': trapped, help: trapped }))).rejects.toThrow(ToolHostError);
  });

  it('refuses a non-zero exit whose output is not help, and takes one whose output is (Go flag exits 2)', async () => {
    const crash = { stdout: '', stderr: 'panic: runtime error: index out of range [3] with length 3', exitCode: 2 };
    await expect(captureHelp(runner({ '--help': crash, '-h': crash, help: crash }))).rejects.toThrow(/No usable help output/);
    const goUsage = { stdout: '', stderr: 'Usage of fileserve:\n  -port int\n    \tport to listen on (default 8080)\n', exitCode: 2 };
    const captured = await captureHelp(runner({ '--help': crash, '-h': goUsage }));
    expect(captured).toMatchObject({ flag: '-h' });
    expect(captured.text).toContain('Usage of fileserve');
  });
});
