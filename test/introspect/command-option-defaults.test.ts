/**
 * Subcommand options keep their stated default in the tool's JSON Schema (`default`), as an
 * annotation the zod schema does not fill in, and their descriptions read as separate sentences
 * (`… (default: words). Only with command count.`).
 */
import { describe, expect, it } from 'vitest';
import type { CliOption, CliSpec } from '../../src/introspect/spec.ts';
import { cliSpecToZod, commandOptionDefaults, withPropertyDefaults } from '../../src/introspect/to-zod.ts';
import { jsonSchemaOf } from '../../src/tool.ts';

function option(long: string, fields: Partial<CliOption> = {}): CliOption {
  return { long, short: null, aliases: [], takes_value: true, value_name: 'X', type: 'string', default: null, choices: null, repeatable: false, required: false, negation: null, description: null, ...fields };
}

const spec: CliSpec = {
  name: 'wc',
  description: 'count things',
  options: [],
  positionals: [],
  subcommands: [
    {
      name: 'count',
      description: 'count words or lines',
      options: [
        option('unit', { choices: ['words', 'lines'], default: 'words', description: 'What to count' }),
        option('limit', { type: 'integer', default: 10, description: 'Stop after this many.' }),
        option('sep', { default: ',', description: 'Separator' }),
      ],
      positionals: [],
    },
    { name: 'sum', description: null, options: [option('sep', { default: ';', description: 'Separator' }), option('limit', { type: 'integer', default: 10 })], positionals: [] },
  ],
};

describe('subcommand option defaults and descriptions', () => {
  it('annotates a default every command taking the property agrees on, and no other', () => {
    expect(commandOptionDefaults(spec)).toEqual({ unit: 'words', limit: 10 });
  });

  it('writes them into the JSON Schema, and the parsed input leaves them out (the program applies them)', () => {
    const input = cliSpecToZod(spec);
    const schema = withPropertyDefaults(jsonSchemaOf(input), commandOptionDefaults(spec)) as { properties: Record<string, { default?: unknown; description?: string }> };
    expect(schema.properties['unit']?.default).toBe('words');
    expect(schema.properties['limit']?.default).toBe(10);
    expect(schema.properties['sep']?.default).toBeUndefined();
    expect(input.parse({ command: 'sum' })).toEqual({ command: 'sum' });
  });

  it('ends the description as a sentence before the command scope, its notes inside the sentence', () => {
    const properties = jsonSchemaOf(cliSpecToZod(spec)).properties as Record<string, { description?: string }>;
    expect(properties['unit']?.description).toBe('What to count (default: words). Only with command count.');
    expect(properties['limit']?.description).toBe('Stop after this many (default: 10). Only with command count, sum.');
  });

  it('keeps an existing default and leaves a schema without properties alone', () => {
    expect(withPropertyDefaults({ properties: { a: { default: 1 } } }, { a: 2 })).toEqual({ properties: { a: { default: 1 } } });
    expect(withPropertyDefaults({ type: 'object' } as { type: string; properties?: unknown }, { a: 2 })).toEqual({ type: 'object' });
  });
});
