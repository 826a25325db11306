/**
 * Child process for the kill -9 durability test: runs write_file (or edit_file) on one file in an
 * endless loop, alternating two complete contents, until it is killed. Prints "ready" once the first
 * call has completed, so the parent kills it while calls are in full swing.
 *
 * Usage: node --import tsx write-loop-child.ts <workspace root> <relative path> <bytes> <write|edit>
 */
import { editFileTool } from '../../builtins/edit-file.ts';
import { writeFileTool } from '../../builtins/write-file.ts';
import { durabilityContents } from './durability-contents.ts';
import { callTool, createToolContext } from './helpers.ts';

const [root, relative, bytesText, mode] = process.argv.slice(2);
if (root === undefined || relative === undefined || bytesText === undefined) {
  process.stderr.write('usage: write-loop-child.ts <root> <relative> <bytes> <write|edit>\n');
  process.exit(2);
}
const { first, second } = durabilityContents(Number(bytesText));
const context = createToolContext(root);
let announced = false;
for (let round = 0; ; round += 1) {
  const result =
    mode === 'edit'
      ? await callTool(
          editFileTool,
          round % 2 === 0 ? { path: relative, old_string: first, new_string: second } : { path: relative, old_string: second, new_string: first },
          context,
        )
      : await callTool(writeFileTool, { path: relative, content: round % 2 === 0 ? second : first }, context);
  if (result.is_error) {
    process.stderr.write(`call ${round} failed: ${result.content}\n`);
    process.exit(1);
  }
  if (!announced) {
    announced = true;
    process.stdout.write('ready\n');
  }
}
