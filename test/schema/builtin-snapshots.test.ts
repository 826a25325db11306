/** Snapshot of every built-in tool in every wire format: a schema change shows up in review. */
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { TOOL_LIST_FORMATS, formatTool } from '../../src/schema/providers/format.ts';

describe('built-in tool schemas', () => {
  it('there are built-in tools to snapshot', () => {
    expect(builtinTools.length).toBeGreaterThan(0);
  });

  for (const tool of builtinTools) {
    for (const format of TOOL_LIST_FORMATS) {
      it(`${tool.name} as ${format}`, () => {
        expect(formatTool(tool, format)).toMatchSnapshot();
      });
    }
  }
});
