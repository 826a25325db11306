import { describe, expect, it } from 'vitest';
import { AlwaysAllowed, ApprovalRules, argumentText, canonicalJson } from '../../src/approvals/rules.ts';
import { parseConfig, resolveConfig } from '../../src/config.ts';
import { ToolHostError } from '../../src/errors.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function rules(value: unknown): ApprovalRules {
  const config = parseConfig({ approvals: value });
  return new ApprovalRules(config.approvals ?? []);
}

describe('approval rules', () => {
  it('the first matching rule wins', () => {
    const set = rules([
      { tool: 'shell', match: { command: 'git push*' }, action: 'ask' },
      { tool: 'shell', match: { command: 'git *' }, action: 'allow' },
      { tool: 'shell', action: 'deny' },
    ]);
    expect(set.decide('shell', { command: 'git push origin' })).toMatchObject({ action: 'ask', position: 1 });
    expect(set.decide('shell', { command: 'git status' })).toMatchObject({ action: 'allow', position: 2 });
    expect(set.decide('shell', { command: 'ls' })).toMatchObject({ action: 'deny', position: 3 });
  });

  it('no matching rule is no opinion', () => {
    const set = rules([{ tool: 'shell', match: { command: 'git *' }, action: 'deny' }]);
    expect(set.decide('shell', { command: 'ls' })).toBeUndefined();
    expect(set.decide('read_file', { path: 'x' })).toBeUndefined();
  });

  it('the tool field is a glob too', () => {
    const set = rules([{ tool: '*_file', action: 'ask' }]);
    expect(set.decide('write_file', {})).toMatchObject({ action: 'ask' });
    expect(set.decide('shell', {})).toBeUndefined();
  });

  it('every match entry must match; an absent parameter never matches, not even *', () => {
    const set = rules([{ tool: 'edit_file', match: { path: 'src/*', replace_all: true }, action: 'deny' }]);
    expect(set.decide('edit_file', { path: 'src/a.ts', replace_all: true })).toMatchObject({ action: 'deny' });
    expect(set.decide('edit_file', { path: 'src/a.ts', replace_all: false })).toBeUndefined();
    expect(set.decide('edit_file', { path: 'src/a.ts' })).toBeUndefined();
    const star = rules([{ tool: 'x', match: { p: '*' }, action: 'deny' }]);
    expect(star.decide('x', {})).toBeUndefined();
    expect(star.decide('x', { p: '' })).toMatchObject({ action: 'deny' });
  });

  it('non-string values are matched as their JSON text', () => {
    expect(argumentText('a b')).toBe('a b');
    expect(argumentText(5)).toBe('5');
    expect(argumentText(null)).toBe('null');
    expect(argumentText(['a', 'b'])).toBe('["a","b"]');
    const set = rules([
      { tool: 'read_file', match: { limit: '1??' }, action: 'ask' },
      { tool: 'grep', match: { paths: '*"secrets/*' }, action: 'deny' },
    ]);
    expect(set.decide('read_file', { limit: 150 })).toMatchObject({ action: 'ask' });
    expect(set.decide('read_file', { limit: 15 })).toBeUndefined();
    expect(set.decide('grep', { paths: ['src', 'secrets/key'] })).toMatchObject({ action: 'deny' });
  });

  it('canonical JSON sorts keys at every level; AlwaysAllowed compares tool and exact arguments', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [{ z: 1, y: 2 }] } })).toBe('{"a":{"c":[{"y":2,"z":1}],"d":2},"b":1}');
    const always = new AlwaysAllowed();
    always.add('shell', { command: 'git push', timeout_ms: 5 });
    expect(always.has('shell', { timeout_ms: 5, command: 'git push' })).toBe(true);
    expect(always.has('shell', { command: 'git push' })).toBe(false);
    expect(always.has('other', { command: 'git push', timeout_ms: 5 })).toBe(false);
  });
});

describe('shell command rules read the command as a script', () => {
  const README = rules([
    { tool: 'shell', match: { command: 'git push*' }, action: 'ask' },
    { tool: 'shell', match: { command: 'git *' }, action: 'allow' },
  ]);
  const decide = (command: string) => README.decide('shell', { command })?.action;

  it("the README's ask rule holds against whitespace, separators, quotes, assignments and nesting", () => {
    for (const command of [
      'git push',
      '  git push origin',
      'git push  ',
      '\tgit\tpush',
      'git  push',
      '\ngit push',
      'echo hi; git push',
      'true && git push origin',
      'echo hi | git push',
      'git status & git push',
      '(git push)',
      'if true; then git push; fi',
      'git log $(git push)',
      'git "push" origin',
      "'git' push",
      'FOO=1 git push',
      'git \\\npush',
    ]) {
      expect(decide(command), JSON.stringify(command)).toBe('ask');
    }
  });

  it('an allow glob needs every simple command to match it', () => {
    expect(decide('git status')).toBe('allow');
    expect(decide('git log && git status')).toBe('allow');
    expect(decide('git log; rm -rf ~')).toBeUndefined();
    expect(decide('git log $(rm -rf ~)')).toBeUndefined();
    expect(decide('git log\nrm -rf ~')).toBeUndefined();
    expect(decide('git log "unclosed')).toBeUndefined();
  });

  it('other tools and other parameters keep plain text matching', () => {
    const set = rules([{ tool: '*', match: { command: 'git push*' }, action: 'deny' }]);
    expect(set.decide('other', { command: 'echo; git push' })).toBeUndefined();
    expect(set.decide('other', { command: 'git push' })).toMatchObject({ action: 'deny' });
    expect(set.decide('shell', { command: 'echo; git push' })).toMatchObject({ action: 'deny' });
  });

  it('argv_prefix rules: ask/deny when any simple command may run it, allow when every one surely does', () => {
    const set = rules([
      { tool: 'shell', argv_prefix: ['git', 'push'], action: 'deny' },
      { tool: 'shell', argv_prefix: ['git'], action: 'allow' },
      { tool: 'shell', match: { cwd: 'sub' }, argv_prefix: ['make'], action: 'ask' },
    ]);
    expect(set.decide('shell', { command: '$(echo git) push' })).toMatchObject({ action: 'deny', position: 1 });
    expect(set.decide('shell', { command: 'env git push' })).toMatchObject({ action: 'deny' });
    expect(set.decide('shell', { command: 'git status; git log' })).toMatchObject({ action: 'allow', position: 2 });
    expect(set.decide('shell', { command: 'git status; ls' })).toBeUndefined();
    expect(set.decide('shell', { command: 'make', cwd: 'sub' })).toMatchObject({ action: 'ask', position: 3 });
    expect(set.decide('shell', { command: 'make', cwd: '.' })).toBeUndefined();
    expect(set.decide('other', { command: 'git push' })).toBeUndefined();
  });
});

describe('approvals config', () => {
  function configError(value: unknown): string {
    try {
      parseConfig(value, { source: 'config file t.json' });
    } catch (error) {
      expect(error).toBeInstanceOf(ToolHostError);
      return (error as Error).message;
    }
    throw new Error('expected a config error');
  }

  it('names the bad field', () => {
    expect(configError({ approvals: [{ tool: 'shell', action: 'maybe' }] })).toMatch(/approvals\.0\.action: invalid enum value/i);
    expect(configError({ approvals: [{ tool: 'shell', action: 'ask', when: {} }] })).toContain('approvals.0.when: unknown field');
    expect(configError({ approvals: [{ action: 'ask' }] })).toContain('approvals.0.tool: required');
    expect(configError({ approvals: [{ tool: 'shell', match: { command: '[z-a]' }, action: 'ask' }] })).toContain('approvals.0.match.command: invalid glob "[z-a]"');
    expect(configError({ approvals: [{ tool: 'shell', match: { command: ['a'] }, action: 'ask' }] })).toContain('approvals.0.match.command');
    expect(configError({ approval_timeout_ms: 0 })).toContain('approval_timeout_ms');
  });

  it('checks argv_prefix: non-empty words, a tool glob that matches shell, not with match.command', () => {
    expect(parseConfig({ approvals: [{ tool: 'sh*', argv_prefix: ['git', 'push'], action: 'ask' }] }).approvals).toEqual([{ tool: 'sh*', argv_prefix: ['git', 'push'], action: 'ask' }]);
    expect(configError({ approvals: [{ tool: 'shell', argv_prefix: [], action: 'ask' }] })).toContain('approvals.0.argv_prefix');
    expect(configError({ approvals: [{ tool: 'shell', argv_prefix: ['git', ''], action: 'ask' }] })).toContain('approvals.0.argv_prefix.1');
    expect(configError({ approvals: [{ tool: 'shell', argv_prefix: 'git', action: 'ask' }] })).toContain('approvals.0.argv_prefix');
    expect(configError({ approvals: [{ tool: 'process', argv_prefix: ['git'], action: 'ask' }] })).toContain(
      'approvals.0.argv_prefix: argv_prefix applies to the shell tool\'s command, and tool "process" does not match "shell"',
    );
    expect(configError({ approvals: [{ tool: 'shell', match: { command: 'git *' }, argv_prefix: ['git'], action: 'ask' }] })).toContain(
      'approvals.0.match.command: a rule takes either argv_prefix or match.command, not both',
    );
  });

  it('match values may be numbers and booleans, kept as their text', () => {
    expect(parseConfig({ approvals: [{ tool: 'x', match: { n: 5, b: true }, action: 'deny' }] }).approvals).toEqual([{ tool: 'x', match: { n: '5', b: 'true' }, action: 'deny' }]);
  });

  it('reaches the host options from a config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-approvals-config-'));
    const file = join(dir, 'toolhost.json');
    writeFileSync(file, JSON.stringify({ approvals: [{ tool: 'shell', match: { command: 'git *' }, action: 'allow' }], approval_timeout_ms: 3000 }));
    const resolved = resolveConfig({ configFile: file, env: {}, cwd: dir });
    expect(resolved.host.approvals).toEqual([{ tool: 'shell', match: { command: 'git *' }, action: 'allow' }]);
    expect(resolved.host.approvalTimeoutMs).toBe(3000);
  });
});
