/**
 * A stand-in daemon for shell isolation tests: a separate process (so the environment it was started
 * with is what /proc/<pid>/environ shows) that runs one `shell` call and prints the result as JSON.
 *   node --import tsx test/builtins/shell-daemon.ts <workspace> <default|process-group> <timeout_ms> <command>
 */
import { createShellTool, shellTool } from '../../builtins/shell.ts';
import { PROCESS_GROUP_PLAN } from '../../builtins/internal/process-sandbox.ts';
import { callTool, createToolContext } from './helpers.ts';

const [workspace, isolation, timeoutMs, command] = process.argv.slice(2);
if (workspace === undefined || isolation === undefined || timeoutMs === undefined || command === undefined) {
  process.stderr.write('usage: shell-daemon.ts <workspace> <default|process-group> <timeout_ms> <command>\n');
  process.exit(2);
}
const tool = isolation === 'process-group' ? createShellTool({ sandbox: async () => PROCESS_GROUP_PLAN }) : shellTool;
const result = await callTool(tool, { command, timeout_ms: Number(timeoutMs) }, createToolContext(workspace));
process.stdout.write(`${JSON.stringify(result)}\n`);
