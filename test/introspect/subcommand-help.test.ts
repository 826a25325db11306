/**
 * The bounds of subcommand help capture (`withSubcommandOptions`): at most `maxCommands` subcommands,
 * nothing asked once the time budget is spent, a subcommand answering with the root help keeps no
 * options, and cached answers are not asked again. The runner is an in-memory program; the real
 * component path is covered by test/extensions/subcommand-options.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CapturedHelp, HelpCache, HelpRunOutput } from '../../src/introspect/capture.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { withSubcommandOptions } from '../../src/introspect/subcommand-help.ts';

const COMMANDS = ['alpha', 'beta', 'gamma', 'delta'];
const ROOT = `Usage: multi [OPTIONS] <COMMAND>\n\nCommands:\n${COMMANDS.map((name) => `  ${name}  Run ${name}`).join('\n')}\n\nOptions:\n  -q, --quiet  Less output\n`;

function program(calls: string[][]): (args: string[]) => Promise<HelpRunOutput> {
  return async (args) => {
    calls.push(args);
    const [command, flag] = args;
    if (flag !== '--help') return { stdout: '', stderr: 'error: unknown flag', exitCode: 2 };
    // gamma ignores its subcommand and prints the root help
    if (command === 'gamma') return { stdout: ROOT, stderr: '', exitCode: 0 };
    return { stdout: `Usage: multi ${command ?? ''} [OPTIONS]\n\nOptions:\n  -q, --quiet      Less output\n      --${command ?? ''}-level <N>  Level [default: 1]\n`, stderr: '', exitCode: 0 };
  };
}

function memoryCache(): HelpCache & { entries: Map<string, CapturedHelp> } {
  const entries = new Map<string, CapturedHelp>();
  return { entries, get: async (key) => entries.get(key), set: async (key, value) => void entries.set(key, value) };
}

describe('withSubcommandOptions', () => {
  it('models each subcommand’s own options, without the root’s, and skips one that prints the root help', async () => {
    const calls: string[][] = [];
    const { spec, modeled, skipped } = await withSubcommandOptions(parseHelp(ROOT), program(calls), { rootHelp: ROOT });
    expect(modeled).toEqual(['alpha', 'beta', 'delta']);
    expect(skipped).toEqual([]);
    expect(spec.subcommands.map((command) => (command.options ?? []).map((option) => `${option.long}:${option.type}:${String(option.default)}`))).toEqual([
      ['alpha-level:integer:1'],
      ['beta-level:integer:1'],
      [],
      ['delta-level:integer:1'],
    ]);
  });

  it('asks at most maxCommands subcommands', async () => {
    const calls: string[][] = [];
    const { skipped } = await withSubcommandOptions(parseHelp(ROOT), program(calls), { maxCommands: 2 });
    expect(new Set(calls.map((args) => args[0]))).toEqual(new Set(['alpha', 'beta']));
    expect(skipped).toEqual(['gamma', 'delta']);
  });

  it('asks nothing once the time budget is spent', async () => {
    const calls: string[][] = [];
    const { skipped, modeled } = await withSubcommandOptions(parseHelp(ROOT), program(calls), { budgetMs: 0 });
    expect(calls).toEqual([]);
    expect(modeled).toEqual([]);
    expect(skipped).toEqual(COMMANDS);
  });

  it('caches each answer, unusable ones too, under the root key', async () => {
    const cache = memoryCache();
    const first: string[][] = [];
    await withSubcommandOptions(parseHelp(ROOT), program(first), { cache, cacheKey: 'root-key', rootHelp: ROOT });
    expect(cache.entries.size).toBe(4);
    const second: string[][] = [];
    const { modeled } = await withSubcommandOptions(parseHelp(ROOT), program(second), { cache, cacheKey: 'root-key', rootHelp: ROOT });
    expect(second).toEqual([]);
    expect(modeled).toEqual(['alpha', 'beta', 'delta']);
  });
});
