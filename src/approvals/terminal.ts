/**
 * The CLI's approver: `toolhost call` on a terminal asks on stderr and reads one line from stdin
 * (y = allow, a = always, n or an empty line = deny). When stdin is not a terminal (a pipe, a script,
 * CI) nobody is there to answer, so it reports "unavailable" and the call is refused with that reason.
 * node:readline is imported when a prompt is shown, not with the module (most calls never ask).
 */
import { canonicalJson } from './rules.ts';
import type { ApprovalDecision, Approver } from './types.ts';

export interface TerminalIo {
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  stderr: { write(text: string): unknown };
}

/** Longest argument text shown in the prompt. */
const MAX_SHOWN_ARGUMENTS = 2_000;

/** An answer typed at the prompt, or undefined when it is not one (asked again). */
export function parseTerminalAnswer(line: string): ApprovalDecision | undefined {
  const answer = line.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'allow';
  if (answer === 'a' || answer === 'always') return 'always';
  if (answer === '' || answer === 'n' || answer === 'no') return 'deny';
  return undefined;
}

export function terminalApprover(io: TerminalIo): Approver {
  return async (request, signal) => {
    if (io.stdin.isTTY !== true) {
      return Promise.resolve({ unavailable: 'stdin is not a terminal, so `toolhost call` cannot prompt for it (run it in a terminal, or answer it over HTTP with `toolhost serve`)' });
    }
    const args = canonicalJson(request.arguments);
    const shown = args.length > MAX_SHOWN_ARGUMENTS ? `${args.slice(0, MAX_SHOWN_ARGUMENTS)}…` : args;
    const question = 'Allow it? [y]es / [N]o / [a]lways (identical calls, until this command ends): ';
    const { createInterface } = await import('node:readline');
    io.stderr.write(`toolhost: the call to "${request.tool}" needs your approval.\n  arguments: ${shown}\n${question}`);
    const lines = createInterface({ input: io.stdin, terminal: false });
    return new Promise((resolve) => {
      const finish = (answer: ApprovalDecision | { unavailable: string }): void => {
        signal.removeEventListener('abort', onAbort);
        lines.off('line', onLine);
        lines.off('close', onClose);
        lines.close();
        resolve(answer);
      };
      const onLine = (line: string): void => {
        const decision = parseTerminalAnswer(line);
        if (decision !== undefined) finish(decision);
        else io.stderr.write(`Please answer y, n or a. ${question}`);
      };
      const onClose = (): void => finish({ unavailable: 'stdin closed before an answer was typed' });
      // Decided elsewhere or timed out: end the prompt line so the next output starts clean.
      const onAbort = (): void => {
        io.stderr.write('\n');
        finish('deny');
      };
      lines.on('line', onLine);
      lines.on('close', onClose);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  };
}
