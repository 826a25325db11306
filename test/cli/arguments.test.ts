import { describe, expect, it } from 'vitest';
import { buildArguments } from '../../src/cli/commands/call.ts';
import { CliError } from '../../src/cli/output.ts';

describe('buildArguments (call --arg)', () => {
  it('parses values as JSON when they can be, else keeps the string', () => {
    expect(buildArguments(undefined, ['n=5', 'flag=true', 'list=[1,2]', 'name=hello world', 'empty=', 'quoted="5"'])).toEqual({
      n: 5,
      flag: true,
      list: [1, 2],
      name: 'hello world',
      empty: '',
      quoted: '5',
    });
  });

  it('builds arrays from repeated keys', () => {
    expect(buildArguments(undefined, ['tag=a', 'tag=b', 'tag=3'])).toEqual({ tag: ['a', 'b', 3] });
  });

  it('keeps "=" inside values', () => {
    expect(buildArguments(undefined, ['query=a=b'])).toEqual({ query: 'a=b' });
  });

  it('merges with a JSON object; --arg wins on the same key', () => {
    expect(buildArguments('{"path": "a", "limit": 1}', ['limit=2'])).toEqual({ path: 'a', limit: 2 });
  });

  it('throws usage errors (exit 2) for malformed input', () => {
    for (const [json, pairs] of [['{', []], ['3', []], [undefined, ['novalue']], [undefined, ['=x']]] as const) {
      let caught: unknown;
      try {
        buildArguments(json, pairs);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CliError);
      expect((caught as CliError).exitCode).toBe(2);
    }
  });
});
