/**
 * Shell approval rules against a model trying to evade them: a real daemon on loopback, the real
 * `shell` and `process` built-ins, real /bin/sh. A stand-in `git` first on PATH logs every run to
 * $HOME/git.log (HOME is the workspace), so a test sees whether `git push` really ran.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import type { ApprovalRule } from '../../src/approvals/index.ts';
import { createHost } from '../../src/host.ts';
import { startServer } from '../../src/server/serve.ts';
import { ADMIN_HEADERS, postJson, readJson, TEST_ADMIN_TOKEN, TEST_TOOLS, temporaryDirectory } from './helpers.ts';

interface Daemon {
  url: string;
  root: string;
  close(): Promise<void>;
}

const open: Daemon[] = [];
afterEach(async () => {
  for (const daemon of open.splice(0)) await daemon.close();
});

// The stand-in git, found through PATH by every command the host's shell runs. Outside /tmp: every
// command's /tmp is private (the shell sandbox), so a folder there would not be on its PATH.
const fakeBin = join(homedir(), `.toolhost-fake-git-${process.pid}`);
const originalPath = process.env['PATH'];
beforeAll(() => {
  mkdirSync(fakeBin, { recursive: true });
  writeFileSync(join(fakeBin, 'git'), '#!/bin/sh\nprintf \'%s\\n\' "$*" >> "$HOME/git.log"\n');
  chmodSync(join(fakeBin, 'git'), 0o755);
  process.env['PATH'] = `${fakeBin}:${originalPath ?? '/usr/bin:/bin'}`;
});
afterAll(() => {
  process.env['PATH'] = originalPath;
  rmSync(fakeBin, { recursive: true, force: true });
});

async function daemon(rules: ApprovalRule[]): Promise<Daemon> {
  const root = temporaryDirectory('toolhost-approvals-shell-');
  const host = await createHost({ workspaceRoot: root, approvals: rules, approvalTimeoutMs: 120_000 }, { builtinTools: [...builtinTools, ...TEST_TOOLS] });
  const server = await startServer(host, { port: 0, keepAliveMs: 0, adminToken: TEST_ADMIN_TOKEN });
  const running = { url: server.url, root, close: () => server.close(2_000) };
  open.push(running);
  return running;
}

const gitLog = (d: Daemon): string => (existsSync(join(d.root, 'git.log')) ? readFileSync(join(d.root, 'git.log'), 'utf8') : '');
const call = (d: Daemon, tool: string, args: unknown): Promise<any> => postJson(`${d.url}/v1/tools/${tool}/call`, { arguments: args }).then(readJson);
const decide = async (d: Daemon, id: string, decision: 'allow' | 'deny'): Promise<void> => {
  expect((await postJson(`${d.url}/v1/approvals/${id}`, { decision }, ADMIN_HEADERS)).status).toBe(200);
};

/**
 * Sends the call and waits until it is held for approval; fails with the call's result if it ran
 * (or was refused) instead. Returns the pending approval and the call's eventual result.
 */
async function held(d: Daemon, tool: string, args: Record<string, unknown>): Promise<{ approval: any; result: Promise<any> }> {
  const result = call(d, tool, args);
  let finished: any;
  void result.then((value) => (finished = value));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { approvals } = await readJson(await fetch(`${d.url}/v1/approvals`, { headers: ADMIN_HEADERS }));
    if (approvals.length > 0) {
      expect(approvals).toHaveLength(1);
      expect(approvals[0]).toMatchObject({ tool, arguments: args });
      return { approval: approvals[0], result };
    }
    if (finished !== undefined) throw new Error(`${tool} ${JSON.stringify(args)} was not held for approval; it returned: ${JSON.stringify(finished)}`);
    if (Date.now() > deadline) throw new Error(`no approval appeared for ${JSON.stringify(args)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Held, then denied by the user: the call is refused and git did not run. */
async function heldAndDenied(d: Daemon, tool: string, args: Record<string, unknown>): Promise<void> {
  const before = gitLog(d);
  const { approval, result } = await held(d, tool, args);
  expect(gitLog(d), `git ran while ${JSON.stringify(args)} waited`).toBe(before);
  await decide(d, approval.id, 'deny');
  expect(await result).toMatchObject({ is_error: true, metadata: { reason: 'approval_denied' } });
  expect(gitLog(d)).toBe(before);
}

/** Held, then allowed: the command runs, and `git push` really did (the evasion was real). */
async function heldThenAllowedRunsPush(d: Daemon, args: Record<string, unknown>): Promise<void> {
  const { approval, result } = await held(d, 'shell', args);
  await decide(d, approval.id, 'allow');
  const done = await result;
  expect(done.is_error, done.content).toBe(false);
  expect(gitLog(d)).toMatch(/^push/m);
}

/** The README's example rules. */
const README_RULES: ApprovalRule[] = [
  { tool: 'shell', match: { command: 'git push*' }, action: 'ask' },
  { tool: 'shell', match: { command: 'git *' }, action: 'allow' },
];

describe('the README example rules hold against evasions', { timeout: 120_000 }, () => {
  it('whitespace, separators, quoting, assignments and nesting around git push are all held and do not run', async () => {
    const d = await daemon(README_RULES);
    for (const command of [
      ' git push',
      'git push  ',
      '\tgit\tpush',
      'git  push',
      '\ngit push',
      'echo hi; git push',
      'true && git push origin',
      'git status || git push',
      '(git push)',
      'if true; then git push; fi',
      'git "push"',
      'FOO=1 git push',
      'echo $(git push)',
    ]) {
      await heldAndDenied(d, 'shell', { command });
    }
    // The evasions are real: allowed, sh runs git push.
    await heldThenAllowedRunsPush(d, { command: 'echo hi; git push' });
  });

  it('allow `git *` no longer covers a second command', async () => {
    const d = await daemon([{ tool: 'shell', match: { command: 'git *' }, action: 'allow' }, { tool: 'shell', action: 'ask' }]);
    const allowed = await call(d, 'shell', { command: 'git status && git log' });
    expect(allowed.is_error, allowed.content).toBe(false);
    expect(gitLog(d)).toBe('status\nlog\n');
    const { approval, result } = await held(d, 'shell', { command: 'git log; touch pwned' });
    await decide(d, approval.id, 'deny');
    expect((await result).is_error).toBe(true);
    expect(existsSync(join(d.root, 'pwned'))).toBe(false);
  });

  it('sh in the background fed through process write_stdin: the input is held like a shell command', async () => {
    const d = await daemon(README_RULES);
    const backgroundSh = async (): Promise<string> => {
      const started = await call(d, 'shell', { command: 'sh', run_in_background: true });
      expect(started.is_error, started.content).toBe(false);
      return started.metadata.process_id as string;
    };
    const write = (id: string, input: string): Promise<any> => call(d, 'process', { action: 'write_stdin', process_id: id, input });
    const whole = await backgroundSh();
    await heldAndDenied(d, 'process', { action: 'write_stdin', process_id: whole, input: 'git push\n' });
    await heldAndDenied(d, 'process', { action: 'write_stdin', process_id: whole, input: 'echo x; git push origin\n' });
    // Split across writes: the first half is allowed (a shell runs nothing before the newline), the rest is held with it.
    const split = await backgroundSh();
    expect((await write(split, 'git pu')).is_error).toBe(false);
    await heldAndDenied(d, 'process', { action: 'write_stdin', process_id: split, input: 'sh origin\n' });
    // A line continuation carried over: `git \` and a newline, then `push`.
    const continued = await backgroundSh();
    expect((await write(continued, 'git \\\n')).is_error).toBe(false);
    await heldAndDenied(d, 'process', { action: 'write_stdin', process_id: continued, input: 'push\n' });
    // The shell does run what it reads: an allowed git command arrives in the log.
    expect((await write(whole, 'git status\n')).is_error).toBe(false);
    const deadline = Date.now() + 20_000;
    while (!gitLog(d).includes('status') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gitLog(d)).toBe('status\n');
  });
});

describe('argv_prefix rules see through what globs cannot', { timeout: 120_000 }, () => {
  it('substitutions, wrappers, variables, eval and nested shells running git push are held and do not run', async () => {
    const d = await daemon([{ tool: 'shell', argv_prefix: ['git', 'push'], action: 'ask' }]);
    for (const command of [
      '$(echo git) push',
      'env git push',
      'env -u HOME nice -n 5 git push',
      'timeout 5 git push',
      'command git push',
      '\\git push',
      "'git' push",
      'g=git; $g push',
      'eval "git push"',
      "sh -c 'git push'",
      'echo git push | sh',
      'xargs git push </dev/null',
    ]) {
      await heldAndDenied(d, 'shell', { command });
    }
    const fine = await call(d, 'shell', { command: 'git status; echo git push' });
    expect(fine.is_error, fine.content).toBe(false);
    expect(gitLog(d)).toBe('status\n');
  });

  it('the evasions are real: allowed, each one runs git push', async () => {
    const d = await daemon([{ tool: 'shell', argv_prefix: ['git', 'push'], action: 'ask' }]);
    for (const command of ['$(echo git) push', 'env git push', "sh -c 'git push'"]) {
      await heldThenAllowedRunsPush(d, { command });
    }
    expect(gitLog(d)).toBe('push\npush\npush\n');
  });
});

describe('matching cost', { timeout: 120_000 }, () => {
  it('100 KB+ worst cases answer, and /healthz stays responsive meanwhile', async () => {
    const d = await daemon([
      { tool: 'echo', match: { text: '*git*push*' }, action: 'deny' },
      { tool: 'echo', match: { text: '*a*a*a*a*a*b' }, action: 'deny' },
      { tool: 'echo', match: { text: '*[a-z]?x*[a-z]?z*' }, action: 'deny' },
      { tool: 'shell', match: { command: '*git*push*' }, action: 'ask' },
      { tool: 'shell', argv_prefix: ['rm'], action: 'deny' },
    ]);
    const echoes = ['git'.repeat(40_000), 'a'.repeat(120_000), 'abq'.repeat(40_000)];
    // 64 KiB scripts (the cap) that end in a denied `rm`, so nothing runs: many commands, deep nesting, quotes.
    const scripts = ['git;'.repeat(16_000) + 'rm x', '$(git '.repeat(10_000) + 'rm x', '"a" '.repeat(16_000) + ';rm x', 'git\n'.repeat(16_000) + 'rm x'];
    const calls = [...echoes.map((text) => call(d, 'echo', { text })), ...scripts.map((command) => call(d, 'shell', { command }))];
    const startedAt = Date.now();
    const health = await fetch(`${d.url}/healthz`);
    const healthMs = Date.now() - startedAt;
    expect(health.status).toBe(200);
    // The regex matcher froze the daemon 8-9 s on the first value alone; 2 s is generous on a loaded machine.
    expect(healthMs).toBeLessThan(2_000);
    const results = await Promise.all(calls);
    for (const [index, text] of echoes.entries()) expect(results[index]).toMatchObject({ is_error: false, content: text });
    for (const result of results.slice(echoes.length)) expect(result).toMatchObject({ is_error: true, metadata: { reason: 'approval_denied', rule: 5 } });
  });

  it('a shell command or stdin input over 64 KiB is refused before any rule reads it', async () => {
    const d = await daemon([{ tool: 'shell', action: 'deny' }]);
    const long = await call(d, 'shell', { command: `echo ${'x'.repeat(64 * 1024)}` });
    expect(long.is_error).toBe(true);
    expect(long.content).toMatch(/command/);
    expect(long.content).toMatch(/65536/);
  });
});
