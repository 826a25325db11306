/**
 * Subcommands' own options and positionals, property-tested: for random root specs with one to three
 * random subcommands, a valid input for one command passes the schema and the pre-run check, and its
 * argv — `[...root options, command, ...command options, (--), ...command positionals]` — parses
 * back (root part and command part each with node's util.parseArgs) into the same input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandOptionProblem } from '../../src/introspect/command-options.ts';
import { COMMAND_PROPERTY, propertyNamesOf } from '../../src/introspect/property-name.ts';
import type { CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import { cliSpecToZod } from '../../src/introspect/to-zod.ts';
import { inputArbitrary, specArbitrary } from './arbitraries.ts';
import { expressible, parseGnuArgv } from './reference-parsers.ts';

/** A root spec (no root positionals: the command's come last) with subcommands built from random specs. */
const specWithCommands = fc.tuple(specArbitrary('gnu'), fc.array(specArbitrary('gnu'), { minLength: 1, maxLength: 3 })).map(
  ([root, commands]): CliSpec => ({
    ...root,
    positionals: [],
    subcommands: commands.map((command, index) => ({ name: `cmd${index}`, description: null, options: command.options, positionals: command.positionals })),
  }),
);

/** The subcommand as a spec of its own, for the input generator and the reference parser. */
function commandView(spec: CliSpec, index: number): CliSpec {
  const command = spec.subcommands[index];
  return { name: 'command', description: '', options: command?.options ?? [], positionals: command?.positionals ?? [], subcommands: [] };
}

/** Renames a command view's properties to the full spec's (`names.subcommandOptions` / `subcommandPositionals`). */
function renamed(spec: CliSpec, index: number, viewInput: Record<string, unknown>): Record<string, unknown> {
  const view = propertyNamesOf(commandView(spec, index));
  const full = propertyNamesOf(spec);
  const result: Record<string, unknown> = {};
  view.options.forEach((name, position) => {
    if (name in viewInput) result[full.subcommandOptions[index]?.[position] ?? ''] = viewInput[name];
  });
  view.positionals.forEach((name, position) => {
    if (name in viewInput) result[full.subcommandPositionals[index]?.[position] ?? ''] = viewInput[name];
  });
  return result;
}

const rootView = (spec: CliSpec): CliSpec => ({ ...spec, subcommands: [] });

const caseArbitrary = specWithCommands.chain((spec) =>
  fc.tuple(fc.constant(spec), inputArbitrary(rootView(spec)), fc.nat(spec.subcommands.length - 1)).chain(([, rootInput, index]) =>
    inputArbitrary(commandView(spec, index)).map((commandInput) => ({ spec, rootInput, index, commandInput })),
  ),
);

/** Where the command word is: the first argument that is neither a root option nor a root option's value. */
function commandPosition(spec: CliSpec, argv: readonly string[]): number {
  for (let position = 0; position < argv.length; position += 1) {
    const argument = argv[position] ?? '';
    if (argument.startsWith('--') && argument.length > 2) {
      const name = argument.slice(2).split('=')[0];
      const option = spec.options.find((candidate) => candidate.long === name);
      if (option?.takes_value === true && !argument.includes('=')) position += 1;
    } else if (argument.startsWith('-') && argument.length > 1) {
      const option = spec.options.find((candidate) => candidate.short === argument[1]);
      if (option?.takes_value === true && argument.length === 2) position += 1;
    } else {
      return position;
    }
  }
  return -1;
}

function normalizeNumbers(value: unknown): unknown {
  if (typeof value === 'number' && Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(normalizeNumbers);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalizeNumbers(inner)]));
  return value;
}

describe('subcommand options and positionals: schema, pre-run check and argv agree', () => {
  it('a valid input for one command is accepted and its argv parses back into it', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ spec, rootInput, index, commandInput }) => {
        const command = spec.subcommands[index]?.name ?? '';
        const input = { ...rootInput, [COMMAND_PROPERTY]: command, ...renamed(spec, index, commandInput) };
        expect(cliSpecToZod(spec).safeParse(input).success).toBe(true);
        expect(commandOptionProblem(spec, input)).toBeUndefined();

        const argv = cliSpecToArgv(spec, input);
        const at = commandPosition(spec, argv);
        expect(argv[at]).toBe(command);
        const root = parseGnuArgv(rootView(spec), argv.slice(0, at));
        const own = renamed(spec, index, parseGnuArgv(commandView(spec, index), argv.slice(at + 1)));
        const expected = { ...expressible(rootView(spec), rootInput), ...renamed(spec, index, expressible(commandView(spec, index), commandInput)) };
        expect(normalizeNumbers({ ...root, ...own })).toEqual(normalizeNumbers(expected));
      }),
      { numRuns: 300, seed: 12 },
    );
  });

  it('a command parameter given with another command is refused', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ spec, rootInput, index, commandInput }) => {
        const own = renamed(spec, index, commandInput);
        const others = spec.subcommands.filter((_command, position) => position !== index);
        const names = propertyNamesOf(spec);
        // a property of this command that no other command shares
        const shared = new Set(others.flatMap((_command, position) => [...(names.subcommandOptions[position >= index ? position + 1 : position] ?? []), ...(names.subcommandPositionals[position >= index ? position + 1 : position] ?? [])]));
        const onlyHere = Object.keys(own).filter((name) => !shared.has(name) && own[name] !== undefined && !(Array.isArray(own[name]) && (own[name] as unknown[]).length === 0));
        // another command that requires nothing, so the foreign property is the only problem
        const other = others.find((candidate) => !(candidate.options ?? []).some((option) => option.required) && !(candidate.positionals ?? []).some((positional) => positional.required));
        fc.pre(other !== undefined && onlyHere.length > 0);
        const property = onlyHere[0] ?? '';
        expect(commandOptionProblem(spec, { ...rootInput, [COMMAND_PROPERTY]: other?.name, [property]: own[property] })).toMatch(/is only valid with command/);
      }),
      { numRuns: 200, seed: 13 },
    );
  });
});
