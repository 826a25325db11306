/**
 * The bounds of subcommand help capture (`withSubcommandOptions`): at most `maxCommands` subcommands,
 * nothing asked once the time budget is spent, a subcommand answering with the root help keeps no
 * options, and cached answers are not asked again; which positionals of a subcommand's usage are its
 * own, and how schema, argv and the pre-run check treat them. The runner is an in-memory program; the real
 * component path is covered by test/extensions/subcommand-options.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CapturedHelp, HelpCache, HelpRunOutput } from '../../src/introspect/capture.ts';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import { argvExample } from '../../src/introspect/argv-example.ts';
import { commandOptionProblem } from '../../src/introspect/command-options.ts';
import { parseCliSpec } from '../../src/introspect/spec-schema.ts';
import { withSubcommandOptions } from '../../src/introspect/subcommand-help.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';

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

describe('withSubcommandOptions: positionals', () => {
  const root = 'Usage: tool [OPTIONS] <COMMAND> [TEXT]\n\nCommands:\n  clone   Clone\n  remote  Remotes\n  show    Show\n\nOptions:\n  -q, --quiet  Less output\n';
  const helps: Record<string, string> = {
    clone: 'Usage: tool clone [OPTIONS] [--] <REPO> [DIR]\n\nArguments:\n  <REPO>  Where from\n  [DIR]   Where to\n',
    // lists subcommands of its own: `<COMMAND>` is no value
    remote: 'Usage: tool remote <COMMAND>\n\nCommands:\n  add     Add one\n  remove  Remove one\n',
    // names the subcommand as a bare word, and a root positional again
    show: 'usage: tool show OBJECT [TEXT]\n',
  };
  const runner = async (args: string[]): Promise<HelpRunOutput> => ({ stdout: helps[args[0] ?? ''] ?? '', stderr: '', exitCode: 0 });

  it('keeps a command’s own positionals with their descriptions; drops nested commands’, its own name and the root’s', async () => {
    const { spec, modeled } = await withSubcommandOptions(parseHelp(root), runner, { rootHelp: root });
    expect(modeled).toEqual(['clone', 'show']);
    expect(Object.fromEntries(spec.subcommands.map((command) => [command.name, command.positionals?.map(({ name, required, description }) => ({ name, required, description: description ?? null })) ?? null]))).toEqual({
      clone: [
        { name: 'REPO', required: true, description: 'Where from' },
        { name: 'DIR', required: false, description: 'Where to' },
      ],
      remote: null,
      show: [{ name: 'OBJECT', required: true, description: null }],
    });
  });

  it('schema, argv and the pre-run check agree on a command’s positionals', async () => {
    const { spec } = await withSubcommandOptions(parseHelp(root), runner, { rootHelp: root });
    const schema = cliSpecToZod(spec);
    const input = schema.parse({ command: 'clone', repo: 'r', dir: 'd', text: 't' });
    expect(cliSpecToArgv(spec, input)).toEqual(['clone', 'r', 'd', 't']);
    expect(commandOptionProblem(spec, input)).toBeUndefined();
    expect(commandOptionProblem(spec, { command: 'show', repo: 'r', object: 'o' })).toMatch(/"repo" \(<REPO>\) is only valid with command clone/);
    expect(commandOptionProblem(spec, { command: 'show' })).toMatch(/Command "show" requires parameter "object"/);
    expect(argvExample(spec)).toEqual(['--quiet', 'clone', 'repo']);
  });

  it('a `--help-json` spec may state them (subcommands[].positionals)', () => {
    const parsed = parseCliSpec({ name: 'tool', subcommands: [{ name: 'clone', positionals: [{ name: 'repo' }] }] });
    expect(parsed.ok && parsed.spec.subcommands[0]?.positionals).toEqual([{ name: 'repo', required: true, variadic: false }]);
  });
});
