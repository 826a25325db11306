import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApprovalGate, REDACTED, type ApprovalEvent, type ApprovalRequest, type ApprovalRule } from '../../src/approvals/index.ts';
import { textResult } from '../../src/result.ts';
import { defineTool } from '../../src/tool.ts';

const shell = defineTool({
  name: 'shell',
  description: 'Runs a command.',
  permission: 'execute',
  input: z.object({ command: z.string(), timeout_ms: z.number().int().optional() }),
  secretParams: [],
  async execute(input) {
    return textResult(input.command);
  },
});

const fetcher = defineTool({
  name: 'fetcher',
  description: 'Fetches with a key.',
  permission: 'read_only',
  input: z.object({ url: z.string(), api_key: z.string(), extra: z.string().optional() }),
  secretParams: ['api_key', 'extra'],
  async execute() {
    return textResult('ok');
  },
});

function gate(rules: ApprovalRule[], timeoutMs = 60_000): { gate: ApprovalGate; events: ApprovalEvent[] } {
  const events: ApprovalEvent[] = [];
  return { gate: new ApprovalGate({ rules, timeoutMs, emit: (event) => events.push(event) }), events };
}

/** Resolves with the first approval_requested event. */
function requested(events: ApprovalEvent[]): Promise<ApprovalRequest> {
  return new Promise((resolve) => {
    const poll = (): void => {
      const found = events.find((event) => event.type === 'approval_requested');
      if (found && found.type === 'approval_requested') resolve(found);
      else setImmediate(poll);
    };
    poll();
  });
}

const ASK_GIT: ApprovalRule[] = [{ tool: 'shell', match: { command: 'git *' }, action: 'ask' }];

/** The `process` tool's write_stdin shape (the gate reads the arguments; nothing runs here). */
const processTool = defineTool({
  name: 'process',
  description: 'Background processes.',
  permission: 'execute',
  input: z.object({ action: z.string(), process_id: z.string().optional(), input: z.string().optional(), close_stdin: z.boolean().default(false) }),
  secretParams: [],
  async execute() {
    return textResult('ok');
  },
});

describe('ApprovalGate', () => {
  it('without rules, or with no matching rule, every call passes', async () => {
    expect(await gate([]).gate.check(shell, { command: 'rm -rf x' }, { callId: '1' })).toBeUndefined();
    expect(await gate(ASK_GIT).gate.check(shell, { command: 'ls' }, { callId: '1' })).toBeUndefined();
  });

  it('allow passes; deny is an is_error result naming the rule and the arguments', async () => {
    const { gate: g } = gate([
      { tool: 'shell', match: { command: 'git status' }, action: 'allow' },
      { tool: 'shell', match: { command: 'rm *' }, action: 'deny' },
    ]);
    expect(await g.check(shell, { command: 'git status' }, { callId: '1' })).toBeUndefined();
    const denied = await g.check(shell, { command: 'rm -rf /' }, { callId: '2' });
    expect(denied?.is_error).toBe(true);
    expect(denied?.content).toContain('denied by the host\'s approval rule 2 (tool "shell", command ~ "rm *")');
    expect(denied?.content).toContain('"command":"rm -rf /"');
    expect(denied?.metadata).toEqual({ reason: 'approval_denied', rule: 2 });
  });

  it('matches parsed arguments: a string sent for a number matches the number', async () => {
    const { gate: g } = gate([{ tool: 'shell', match: { timeout_ms: '5' }, action: 'deny' }]);
    expect((await g.check(shell, { command: 'x', timeout_ms: '5' }, { callId: '1' }))?.is_error).toBe(true);
    expect((await g.check(shell, JSON.stringify({ command: 'x', timeout_ms: 5 }), { callId: '1' }))?.is_error).toBe(true);
  });

  it('leaves invalid arguments to the bridge', async () => {
    const { gate: g, events } = gate([{ tool: 'shell', action: 'deny' }]);
    expect(await g.check(shell, { nope: 1 }, { callId: '1' })).toBeUndefined();
    expect(events).toEqual([]);
  });

  it('ask with no approver and nobody attending the queue is refused at once, saying why', async () => {
    const { gate: g, events } = gate(ASK_GIT);
    const refused = await g.check(shell, { command: 'git push' }, { callId: '1' });
    expect(refused?.is_error).toBe(true);
    expect(refused?.metadata).toEqual({ reason: 'approval_unavailable' });
    expect(refused?.content).toContain('cannot be asked interactively');
    expect(refused?.content).toContain('/v1/approvals');
    expect(events.map((event) => event.type)).toEqual(['approval_requested', 'approval_decided']);
  });

  it("ask uses the caller's approver: allow, deny, always", async () => {
    const { gate: g } = gate(ASK_GIT);
    const seen: ApprovalRequest[] = [];
    const answer = (decision: 'allow' | 'deny' | 'always') => async (request: ApprovalRequest) => {
      seen.push(request);
      return decision;
    };
    expect(await g.check(shell, { command: 'git push' }, { callId: 'a', approve: answer('allow') })).toBeUndefined();
    expect(seen[0]).toMatchObject({ tool: 'shell', call_id: 'a', arguments: { command: 'git push' } });
    const denied = await g.check(shell, { command: 'git push' }, { callId: 'b', approve: answer('deny') });
    expect(denied?.content).toMatch(/^The user denied this call to shell: \{"command":"git push"\}/);
    expect(denied?.metadata).toEqual({ reason: 'approval_denied' });
    expect(await g.check(shell, { command: 'git push' }, { callId: 'c', approve: answer('always') })).toBeUndefined();
    // Always: the identical call runs without asking; a different one still asks.
    const never = async (): Promise<'deny'> => {
      throw new Error('should not be asked');
    };
    expect(await g.check(shell, { command: 'git push' }, { callId: 'd', approve: never })).toBeUndefined();
    const other = await g.check(shell, { command: 'git push --force' }, { callId: 'e', approve: answer('deny') });
    expect(other?.is_error).toBe(true);
    expect(seen).toHaveLength(4);
  });

  it('an unavailable approver waits for the queue when it is attended (decided there)', async () => {
    const { gate: g, events } = gate(ASK_GIT);
    g.queue.attend();
    const check = g.check(shell, { command: 'git push' }, { callId: '1', approve: async () => ({ unavailable: 'no tty' }) });
    const request = await requested(events);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(g.queue.list().map((entry) => entry.id)).toEqual([request.id]);
    expect(g.queue.decide(request.id, 'allow', 'http')).toBe(true);
    expect(await check).toBeUndefined();
  });

  it('an unavailable approver without an attended queue is refused with its reason', async () => {
    const { gate: g } = gate(ASK_GIT);
    const refused = await g.check(shell, { command: 'git push' }, { callId: '1', approve: async () => ({ unavailable: 'stdin is not a terminal' }) });
    expect(refused?.content).toContain('nobody could be asked: stdin is not a terminal, and no approvals endpoint is being served');
  });

  it('a decision over the queue stops the approver still asking', async () => {
    const { gate: g, events } = gate(ASK_GIT);
    let stopped = false;
    const check = g.check(shell, { command: 'git push' }, {
      callId: '1',
      approve: (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            stopped = true;
            resolve('allow');
          });
        }),
    });
    const request = await requested(events);
    g.queue.decide(request.id, 'deny', 'http');
    expect((await check)?.content).toContain('The user denied this call to shell');
    expect(stopped).toBe(true);
  });

  it('times out as a refusal a model can act on', async () => {
    const { gate: g } = gate(ASK_GIT, 30);
    g.queue.attend();
    const refused = await g.check(shell, { command: 'git push' }, { callId: '1' });
    expect(refused?.metadata).toEqual({ reason: 'approval_timeout' });
    expect(refused?.content).toContain('nobody answered within 30 ms');
  });

  it('a call cancelled while waiting, and a gate closed while waiting, are refused', async () => {
    const { gate: g } = gate(ASK_GIT);
    g.queue.attend();
    const controller = new AbortController();
    const cancelled = g.check(shell, { command: 'git push' }, { callId: '1', signal: controller.signal });
    controller.abort();
    expect((await cancelled)?.metadata).toEqual({ reason: 'cancelled' });
    const closing = g.check(shell, { command: 'git push' }, { callId: '2' });
    g.close();
    expect((await closing)?.metadata).toEqual({ reason: 'shutting_down' });
  });

  it('shows secret parameters as placeholders and redacts anything else there', async () => {
    const { gate: g, events } = gate([{ tool: 'fetcher', action: 'ask' }]);
    let shown: ApprovalRequest | undefined;
    await g.check(fetcher, { url: 'https://x', api_key: '<secret_ref:API_KEY>', extra: 'sk-literal-123' }, {
      callId: '1',
      approve: async (request) => {
        shown = request;
        return 'allow';
      },
    });
    expect(shown?.arguments).toEqual({ url: 'https://x', api_key: '<secret_ref:API_KEY>', extra: REDACTED });
    expect(JSON.stringify(events)).not.toContain('sk-literal-123');
  });

  describe('process write_stdin input is checked as a shell command', () => {
    const write = (g: ApprovalGate, input: string, extra: Record<string, unknown> = {}) =>
      g.check(processTool, { action: 'write_stdin', process_id: 'p1', input, ...extra }, { callId: 'w' });

    it('a shell deny rule refuses the write, saying the input was read as a shell command', async () => {
      const { gate: g } = gate([{ tool: 'shell', argv_prefix: ['rm'], action: 'deny' }]);
      expect(await write(g, 'ls\n')).toBeUndefined();
      const denied = await write(g, 'echo; rm -rf ~\n');
      expect(denied).toMatchObject({ is_error: true, metadata: { reason: 'approval_denied', rule: 1 } });
      expect(denied?.content).toContain('rule 1 (tool "shell", argv_prefix ["rm"]; the stdin input was checked as a shell command)');
      expect(await g.check(processTool, { action: 'list' }, { callId: 'l' })).toBeUndefined();
    });

    it("the stricter of the call's own rule and its input's wins", async () => {
      const { gate: g } = gate([
        { tool: 'process', action: 'allow' },
        { tool: 'shell', match: { command: 'rm *' }, action: 'deny' },
      ]);
      expect(await write(g, 'rm x\n')).toMatchObject({ metadata: { reason: 'approval_denied', rule: 2 } });
      expect(await write(g, 'ls\n')).toBeUndefined();
      const { gate: strict } = gate([{ tool: 'process', action: 'deny' }, { tool: 'shell', action: 'allow' }]);
      expect(await write(strict, 'ls\n')).toMatchObject({ metadata: { reason: 'approval_denied', rule: 1 } });
    });

    it('input a shell joins to the next write is checked with it; closing stdin forgets it', async () => {
      const { gate: g } = gate([{ tool: 'shell', argv_prefix: ['rm'], action: 'deny' }]);
      expect(await write(g, 'r')).toBeUndefined();
      expect(await write(g, 'm -rf ~\n')).toMatchObject({ metadata: { reason: 'approval_denied' } });
      // Denied writes are not remembered; the pending `r` still is.
      expect(await write(g, 'm -rf ~\n')).toMatchObject({ metadata: { reason: 'approval_denied' } });
      expect(await write(g, 'eal\n')).toBeUndefined();
      expect(await write(g, 'm x\n')).toBeUndefined();
      // An open quote is unreadable, so argv rules refuse it at once; a glob rule sees it joined to the next write.
      expect(await write(g, 'echo "')).toMatchObject({ metadata: { reason: 'approval_denied' } });
      const { gate: globs } = gate([{ tool: 'shell', match: { command: 'rm *' }, action: 'deny' }]);
      expect(await write(globs, 'echo "')).toBeUndefined();
      expect(await write(globs, '"; rm x\n')).toMatchObject({ metadata: { reason: 'approval_denied' } });
      // A second process has its own stdin.
      expect(await g.check(processTool, { action: 'write_stdin', process_id: 'p2', input: 'm x\n' }, { callId: 'p2' })).toBeUndefined();
      // Closing stdin ends the line: what was pending is checked, then forgotten.
      expect(await write(g, 'r')).toBeUndefined();
      expect(await write(g, '', { close_stdin: true })).toBeUndefined();
      expect(await write(g, 'm x\n')).toBeUndefined();
    });

    it('past 64 KiB of unfinished input, later writes to that process count as unreadable', async () => {
      const { gate: g } = gate([{ tool: 'shell', argv_prefix: ['rm'], action: 'deny' }]);
      // An open here-document: its body is data, not commands, and it never ends.
      expect(await write(g, 'cat <<EOF\n')).toBeUndefined();
      expect(await write(g, 'x\n'.repeat(20_000))).toBeUndefined();
      expect(await write(g, 'x\n'.repeat(20_000))).toBeUndefined();
      // 80 000 characters still open: no longer followed, so argv rules now fail closed for this process.
      expect(await write(g, 'ls\n')).toMatchObject({ metadata: { reason: 'approval_denied' } });
      expect(await g.check(processTool, { action: 'write_stdin', process_id: 'p2', input: 'ls\n' }, { callId: 'p2' })).toBeUndefined();
    });
  });
});
