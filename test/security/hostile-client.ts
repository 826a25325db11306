/**
 * The hostile side of test/security/hostile-load.ts, in a process of its own:
 *   node --import tsx test/security/hostile-client.ts <daemon url> <until, epoch ms>
 * Prints `HOSTILE {"run_code": n, "shell": n, "dispatch": n}` when done.
 */
import { sendHostileCalls } from './hostile-load.ts';

const [url, until] = process.argv.slice(2);
const sent = await sendHostileCalls(url as string, Number(until));
process.stdout.write(`HOSTILE ${JSON.stringify(sent)}\n`);
