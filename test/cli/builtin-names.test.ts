import { expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { BUILTIN_TOOL_NAMES } from '../../src/cli/builtin-names.ts';

it('the one-shot path knows every built-in name, and no other', () => {
  expect([...BUILTIN_TOOL_NAMES].sort()).toEqual(builtinTools.map((tool) => tool.name).sort());
});
