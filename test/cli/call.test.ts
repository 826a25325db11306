import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, temporaryDirectory } from './run-cli.ts';

describe('toolhost call', () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());
  const cli = (args: string[], input?: string) => runCli(args, { cwd: workspace.path, ...(input === undefined ? {} : { input }) });

  it('writes a file with JSON arguments, then reads it back with --arg', async () => {
    const write = await cli(['call', 'write_file', '{"path": "notes/hi.txt", "content": "hello\\nworld\\n"}']);
    expect(write.stderr).toBe('');
    expect(write.exitCode).toBe(0);
    expect(write.stdout).toMatch(/^Created "notes\/hi\.txt"/);
    expect(readFileSync(join(workspace.path, 'notes', 'hi.txt'), 'utf8')).toBe('hello\nworld\n');

    const read = await cli(['call', 'read_file', '--arg', 'path=notes/hi.txt']);
    expect(read.exitCode).toBe(0);
    expect(read.stdout).toBe('hello\nworld\n');
  });

  it('--json prints the whole ToolResult', async () => {
    writeFileSync(join(workspace.path, 'data.txt'), 'one\ntwo\nthree\n');
    const run = await cli(['call', 'read_file', '--arg', 'path=data.txt', '--arg', 'limit=1', '--json']);
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout) as { content: string; is_error: boolean; metadata?: Record<string, unknown> };
    expect(result.is_error).toBe(false);
    expect(result.content).toContain('one\n');
    expect(result.content).not.toContain('three');
    expect(result).toHaveProperty('metadata');
  });

  it('parses --arg values as JSON when possible (numbers, booleans), else strings', async () => {
    writeFileSync(join(workspace.path, 'edit.txt'), 'a a a\n');
    const run = await cli(['call', 'edit_file', '--arg', 'path=edit.txt', '--arg', 'old_string=a', '--arg', 'new_string=b', '--arg', 'replace_all=true', '--json']);
    expect(run.exitCode).toBe(0);
    expect((JSON.parse(run.stdout) as { is_error: boolean }).is_error).toBe(false);
    expect(readFileSync(join(workspace.path, 'edit.txt'), 'utf8')).toBe('b b b\n');
  });

  it('reads the arguments object from --stdin', async () => {
    const run = await cli(['call', 'write_file', '--stdin'], JSON.stringify({ path: 'from-stdin.txt', content: 'piped' }));
    expect(run.exitCode).toBe(0);
    expect(readFileSync(join(workspace.path, 'from-stdin.txt'), 'utf8')).toBe('piped');
  });

  it('exits 1 when the tool returns is_error, with the message on stderr', async () => {
    const run = await cli(['call', 'read_file', '{"path": "missing.txt"}']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('missing.txt');
  });

  it('exits 1 with --json too, printing the is_error result on stdout', async () => {
    const run = await cli(['call', 'read_file', '{"path": "missing.txt"}', '--json']);
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ is_error: true });
  });

  it('reports invalid arguments (bridge validation) as is_error, exit 1', async () => {
    const run = await cli(['call', 'read_file', '--arg', 'limit=5']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/Invalid arguments for tool "read_file"/);
  });

  it('exits 2 with one line on malformed JSON', async () => {
    const run = await cli(['call', 'read_file', '{path: nope}']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^toolhost: error: the JSON argument is not valid JSON: .*\(hint: /);
  });

  it('exits 2 when the JSON is not an object', async () => {
    const run = await cli(['call', 'read_file', '["a.txt"]']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('must be a JSON object of named arguments, not an array');
  });

  it('exits 2 on an --arg without "="', async () => {
    const run = await cli(['call', 'read_file', '--arg', 'path']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--arg path: expected key=value');
  });

  it('exits 2 when both a JSON argument and --stdin are given', async () => {
    const run = await cli(['call', 'read_file', '{}', '--stdin'], '{}');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('not both');
  });

  it('exits 2 without a tool name', async () => {
    const run = await cli(['call']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("missing required argument 'tool'");
  });

  it('names the unknown tool, suggests close names and lists the available ones, exit 2', async () => {
    const run = await cli(['call', 'read']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Unknown tool "read"');
    expect(lines[0]).toContain('Did you mean "read_file"');
    expect(lines[0]).toContain('toolhost list');
  });

  it('refuses a tool above --permission-mode (exit 2)', async () => {
    const run = await cli(['call', 'write_file', '{"path": "x.txt", "content": ""}', '--permission-mode', 'read_only']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('needs permission "write"');
  });

  it('--workspace confines file tools to another directory', async () => {
    const other = temporaryDirectory();
    try {
      const run = await cli(['call', 'write_file', '--arg', 'path=inside.txt', '--arg', 'content=x', '--workspace', other.path]);
      expect(run.exitCode).toBe(0);
      expect(readFileSync(join(other.path, 'inside.txt'), 'utf8')).toBe('x');
    } finally {
      other.remove();
    }
  });
});
