import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveHostConfig } from '../../src/cli/host-setup.ts';
import { type CliIo, colourEnabled, type OutputStream, outputWidth, painterFor, renderTable, usageError, writeError } from '../../src/cli/output.ts';
import { createProgressReporter } from '../../src/cli/progress.ts';
import { runCli, temporaryDirectory } from './run-cli.ts';

function captureStream(isTTY: boolean): { write: (text: string) => boolean; isTTY: boolean; text: () => string } {
  let text = '';
  return {
    isTTY,
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
    text: () => text,
  };
}

function fakeIo(options: { tty?: boolean; env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliIo & { stdout: ReturnType<typeof captureStream>; stderr: ReturnType<typeof captureStream> } {
  return {
    stdout: captureStream(options.tty ?? false),
    stderr: captureStream(options.tty ?? false),
    stdin: new PassThrough(),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  };
}

describe('colour', () => {
  it('is on only for a TTY with NO_COLOR unset or empty', () => {
    expect(colourEnabled({ write: () => true, isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ write: () => true, isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled({ write: () => true, isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ write: () => true, isTTY: false }, {})).toBe(false);
    expect(colourEnabled({ write: () => true }, {})).toBe(false);
  });

  it('paints with ANSI codes on a TTY and leaves text alone otherwise', () => {
    expect(painterFor({ write: () => true, isTTY: true }, {})('red', 'x')).toBe('\u001b[31mx\u001b[39m');
    expect(painterFor({ write: () => true, isTTY: false }, {})('red', 'x')).toBe('x');
  });

  it('keeps table columns aligned when cells are coloured', () => {
    const paint = painterFor({ write: () => true, isTTY: true }, {});
    const table = renderTable([{ a: 'x', b: 'long' }, { a: 'xyz', b: 'y' }], [{ header: 'A', value: (row) => row.a, colour: () => 'cyan' }, { header: 'B', value: (row) => row.b }], { paint });
    const plain = table.replace(/\u001b\[\d+m/g, '');
    expect(plain).toBe('A    B\nx    long\nxyz  y\n');
  });
});

describe('tables fitted to the terminal width', () => {
  const plain = painterFor({ write: () => true, isTTY: false }, {});
  const rows = [
    { name: 'a_rather_long_extension_tool_name', kind: 'wasm', text: 'Converts between many formats, with a long description that runs on' },
    { name: 'grep', kind: 'builtin', text: 'Search file contents' },
  ];
  const columns = [
    { header: 'NAME', value: (row: (typeof rows)[number]) => row.name, truncatable: true },
    { header: 'SOURCE', value: (row: (typeof rows)[number]) => row.kind },
    { header: 'DESCRIPTION', value: (row: (typeof rows)[number]) => row.text },
  ];

  it.each([100, 80, 60, 45])('every line fits %i columns; the description is cut first, then the name', (width) => {
    const lines = renderTable(rows, columns, { paint: plain, width }).trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
    expect(lines[2]?.startsWith('grep ')).toBe(true);
  });

  it('keeps names whole while cutting the description is enough, and cuts with an ellipsis', () => {
    const lines = renderTable(rows, columns, { paint: plain, width: 70 }).split('\n');
    expect(lines[1]).toMatch(/^a_rather_long_extension_tool_name  wasm\s+Converts.*…$/);
    const narrow = renderTable(rows, columns, { paint: plain, width: 40 }).split('\n');
    expect(narrow[1]).toMatch(/^a_rather_long_e.*…\s+wasm/);
  });

  it('leaves a table whole without a width, and reads the width from COLUMNS, else a TTY', () => {
    expect(renderTable(rows, columns, { paint: plain }).split('\n')[1]).toContain('runs on');
    expect(outputWidth({ write: () => true, isTTY: false }, { COLUMNS: '72' })).toBe(72);
    expect(outputWidth({ write: () => true, isTTY: false }, {})).toBeUndefined();
    expect(outputWidth({ write: () => true, isTTY: true, columns: 90 } as OutputStream, {})).toBe(90);
    expect(outputWidth({ write: () => true, isTTY: true, columns: 90 } as OutputStream, { COLUMNS: 'wide' })).toBe(90);
  });

  it('toolhost list fits COLUMNS, from the real executable', async () => {
    const run = await runCli(['list'], { env: { COLUMNS: '50' } });
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(50);
    expect(run.stdout).toContain('…');
    const whole = await runCli(['list']);
    expect(Math.max(...whole.stdout.split('\n').map((line) => line.length))).toBeGreaterThan(50);
  });
});

describe('errors', () => {
  it('are one line with the hint, and gain the stack only with debug', () => {
    const io = fakeIo();
    writeError(io, usageError('bad thing\nhappened', 'do this'));
    expect(io.stderr.text()).toBe('toolhost: error: bad thing happened (hint: do this)\n');
    const debug = fakeIo();
    writeError(debug, new Error('boom'), { debug: true });
    const lines = debug.stderr.text().trim().split('\n');
    expect(lines[0]).toBe('toolhost: error: boom');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[1]).toContain('Error: boom');
  });

  it('print a stack trace with --debug from the real executable, and none without', async () => {
    const plain = await runCli(['call', 'read_file', '{oops']);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    const debug = await runCli(['--debug', 'call', 'read_file', '{oops']);
    expect(debug.exitCode).toBe(2);
    expect(debug.stderr.trim().split('\n').length).toBeGreaterThan(2);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});

describe('progress', () => {
  it('draws one rewritten line on a TTY for multi-file loads and clears it', async () => {
    const io = fakeIo({ tty: true, env: { NO_COLOR: '1' } });
    const progress = createProgressReporter(io);
    await new Promise((resolve) => setTimeout(resolve, 350));
    progress.update({ file: '/x/one.wasm', done: 1, total: 3 });
    progress.update({ file: '/x/two.wasm', done: 2, total: 3 });
    progress.done();
    expect(io.stderr.text()).toBe('\r\u001b[2Kloading extensions 1/3 one.wasm\r\u001b[2Kloading extensions 2/3 two.wasm\r\u001b[2K');
  });

  it('writes nothing when stderr is not a TTY', async () => {
    const io = fakeIo({ tty: false });
    const progress = createProgressReporter(io);
    await new Promise((resolve) => setTimeout(resolve, 350));
    progress.update({ file: '/x/one.wasm', done: 1, total: 3 });
    progress.done();
    expect(io.stderr.text()).toBe('');
  });
});

describe('host configuration defaults', () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());

  it('uses the cwd as workspace and no extensions folder when ./extensions/tools is absent', () => {
    const config = resolveHostConfig({}, { cwd: workspace.path, env: {} });
    expect(config.host.workspaceRoot).toBe(workspace.path);
    expect(config.host.extensionsDir).toBeUndefined();
  });

  it('uses ./extensions/tools when it exists; --extensions and TOOLHOST_EXTENSIONS override it', () => {
    mkdirSync(join(workspace.path, 'extensions', 'tools'), { recursive: true });
    mkdirSync(join(workspace.path, 'other'), { recursive: true });
    expect(resolveHostConfig({}, { cwd: workspace.path, env: {} }).host.extensionsDir).toBe(join(workspace.path, 'extensions', 'tools'));
    expect(resolveHostConfig({ extensions: 'other' }, { cwd: workspace.path, env: {} }).host.extensionsDir).toBe(join(workspace.path, 'other'));
    expect(resolveHostConfig({}, { cwd: workspace.path, env: { TOOLHOST_EXTENSIONS: 'other' } }).host.extensionsDir).toBe(join(workspace.path, 'other'));
  });

  it('refuses a missing workspace or extensions folder as a usage error', () => {
    for (const flags of [{ workspace: 'nope' }, { extensions: 'nope' }]) {
      let caught: unknown;
      try {
        resolveHostConfig(flags, { cwd: workspace.path, env: {} });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ exitCode: 2 });
    }
  });
});
