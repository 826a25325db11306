import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseTerminalAnswer, terminalApprover } from '../../src/approvals/terminal.ts';
import type { ApprovalRequest } from '../../src/approvals/types.ts';

const request: ApprovalRequest = {
  id: 'r1',
  tool: 'shell',
  call_id: 'c1',
  arguments: { command: 'git push' },
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 60_000).toISOString(),
};

function terminal(isTTY: boolean): { stdin: PassThrough & { isTTY?: boolean }; stderr: { write(text: string): boolean; text: string } } {
  const stdin = Object.assign(new PassThrough(), { isTTY });
  const stderr = {
    text: '',
    write(text: string): boolean {
      this.text += text;
      return true;
    },
  };
  return { stdin, stderr };
}

describe('terminal approver (toolhost call)', () => {
  it('parses y / n / a answers; an empty line is no', () => {
    expect(parseTerminalAnswer('y')).toBe('allow');
    expect(parseTerminalAnswer(' YES ')).toBe('allow');
    expect(parseTerminalAnswer('a')).toBe('always');
    expect(parseTerminalAnswer('always')).toBe('always');
    expect(parseTerminalAnswer('')).toBe('deny');
    expect(parseTerminalAnswer('n')).toBe('deny');
    expect(parseTerminalAnswer('maybe')).toBeUndefined();
  });

  it('is unavailable when stdin is not a terminal, saying so', async () => {
    const io = terminal(false);
    await expect(terminalApprover(io)(request, new AbortController().signal)).resolves.toEqual({ unavailable: expect.stringContaining('stdin is not a terminal') });
    expect(io.stderr.text).toBe('');
  });

  it('prompts on stderr and reads the answer from stdin, asking again after a bad answer', async () => {
    const io = terminal(true);
    const answer = terminalApprover(io)(request, new AbortController().signal);
    io.stdin.write('perhaps\n');
    io.stdin.write('a\n');
    await expect(answer).resolves.toBe('always');
    expect(io.stderr.text).toContain('the call to "shell" needs your approval');
    expect(io.stderr.text).toContain('{"command":"git push"}');
    expect(io.stderr.text).toContain('Please answer y, n or a.');
  });

  it('stops asking when the approval ends elsewhere; stdin closing is unavailable', async () => {
    const io = terminal(true);
    const controller = new AbortController();
    const answer = terminalApprover(io)(request, controller.signal);
    controller.abort();
    await expect(answer).resolves.toBe('deny');
    const closing = terminal(true);
    const closed = terminalApprover(closing)(request, new AbortController().signal);
    closing.stdin.end();
    await expect(closed).resolves.toEqual({ unavailable: 'stdin closed before an answer was typed' });
  });
});
