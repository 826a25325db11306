/**
 * Worst-case `provider=text` bodies for the text-protocol scanner (src/server/dispatch/text-protocol.ts),
 * shared by test/server/dispatch-text-attack.test.ts and test/bench/text-protocol-scan.ts. Each maker
 * returns a text of about `size` characters built from one repeated unit; the old scanner walked to
 * the end of the text once per unit for all but the last two.
 */

/** Repeats `unit` to about `size` characters. */
function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

export const adversarialTexts: ReadonlyArray<readonly [title: string, make: (size: number) => string]> = [
  // A closed tag around a JSON value that never closes: each value was walked to the end of the text.
  ['unclosed value in <tool_call>', (size) => repeatTo('<tool_call>{</tool_call>', size)],
  // The same with a string that never closes (the walk runs inside strings, flipping at every quote).
  ['unclosed string in <tool_call>', (size) => repeatTo('<tool_call>{"</tool_call>', size)],
  // A ```json fence whose value never closes, then its closing fence.
  ['unclosed value in ```json', (size) => repeatTo('```json\n{```\n', size)],
  ['unclosed array in ```tool_call', (size) => repeatTo('```tool_call\n[[```\n', size)],
  // Opening tags only: the last block is read to the end of the text.
  ['unclosed <tool_call> tags', (size) => repeatTo('<tool_call>', size)],
  // Fences only (the opening-tag search used to rerun to the end for each) and tags only.
  ['empty fences, no tags', (size) => repeatTo('```\n```\n', size)],
  ['empty tags, no fences', (size) => repeatTo('<tool_call>x</tool_call>', size)],
];
