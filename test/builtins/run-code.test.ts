/**
 * run_code through a real host: agent JavaScript in QuickJS (WebAssembly) calling real built-ins on
 * files in a temp workspace and a real wasm component (ext-greet, built from C) from an extensions
 * folder; the sandbox's limits (time, memory, stack, returned size, call count), clear errors for
 * bad code, and the caller's permission mode and approval rules applied to each inner call.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { RUN_CODE_MAX_RESULT_CHARS, runCodeTool } from '../../builtins/run-code.ts';
import { createHost } from '../../src/host.ts';
import type { Host, HostOptions } from '../../src/host-types.ts';
import { createExtHost, ENVELOPE_SIDECAR, fixture, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';
import { callTool, createToolContext } from './helpers.ts';

describe('run_code', () => {
  let root: TempRoot;
  let workspace: string;
  const hosts: Host[] = [];

  async function hostWith(options: HostOptions = {}): Promise<Host> {
    const host = await createHost({ workspaceRoot: workspace, ...options });
    hosts.push(host);
    return host;
  }

  const run = async (host: Host, code: string) => host.callTool('run_code', { code });

  beforeAll(() => {
    root = tempRoot('toolhost-run-code-');
    workspace = root.folder('workspace');
    writeFileSync(join(workspace, 'a.txt'), 'alpha\n');
    writeFileSync(join(workspace, 'b.txt'), 'beta\nbeta\n');
    writeFileSync(join(workspace, 'notes.md'), '# notes\n');
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close({ graceMs: 5_000 })));
  });
  afterAll(() => root.remove());

  it('returns the value of the code, serialised as JSON', async () => {
    const host = await hostWith();
    expect(await run(host, 'return {sum: [1, 2, 3].reduce((a, b) => a + b, 0), text: "ok"}')).toMatchObject({ is_error: false, content: '{"sum":6,"text":"ok"}' });
    expect(await run(host, 'return "plain"')).toMatchObject({ is_error: false, content: '"plain"' });
    expect(await run(host, 'const x = 1;')).toMatchObject({ is_error: false, content: 'null' });
  });

  it('awaits real built-ins on the workspace and keeps intermediate results in the sandbox', async () => {
    const host = await hostWith();
    const result = await run(
      host,
      `
      const listing = await tools.list_dir({path: "."});
      const names = listing.content.split("\\n").map((line) => line.trim().split(/\\s+/)[0]).filter((name) => name.endsWith(".txt"));
      const files = await Promise.all(names.map((path) => tools.read_file({path})));
      console.log("read", names.length, "files");
      return names.map((name, i) => ({name, lines: files[i].content.split("\\n").filter((line) => line.includes("a")).length, is_error: files[i].is_error}));
      `,
    );
    expect(result.is_error).toBe(false);
    const files = JSON.parse(result.content) as { name: string; lines: number; is_error: boolean }[];
    expect(files.map((file) => file.name).sort()).toEqual(['a.txt', 'b.txt']);
    expect(files.every((file) => !file.is_error && file.lines >= 1)).toBe(true);
    expect(result.metadata).toMatchObject({ tool_calls: 3, console: 'read 2 files' });
    // The listing and file texts never reach the result.
    expect(result.content).not.toContain('alpha');
  });

  it('writes through write_file and reads the file back', async () => {
    const host = await hostWith();
    const result = await run(
      host,
      'const written = await tools.write_file({path: "out/made.txt", content: "made in the sandbox"}); if (written.is_error) return written; return (await tools.read_file({path: "out/made.txt"})).content;',
    );
    expect(result.is_error).toBe(false);
    expect(JSON.parse(result.content)).toContain('made in the sandbox');
  });

  it('a tool failure resolves to its is_error result; the code decides what to do with it', async () => {
    const host = await hostWith();
    const result = await run(host, 'const r = await tools.read_file({path: "missing.txt"}); return {is_error: r.is_error, said: r.content.length > 0};');
    expect(JSON.parse(result.content)).toEqual({ is_error: true, said: true });
  });

  it('refuses inner calls above the permission mode (read_only host: write_file refused, read_file allowed)', async () => {
    const host = await hostWith({ permissionMode: 'read_only' });
    expect(host.listTools().map((tool) => tool.name)).toContain('run_code');
    const result = await run(
      host,
      `let w;
       try { w = await tools["write_file"]({path: "blocked.txt", content: "x"}); } catch (error) { w = {thrown: String(error)}; }
       const r = await tools.read_file({path: "a.txt"});
       return {write: w, read_ok: !r.is_error};`,
    );
    const parsed = JSON.parse(result.content) as { write: { thrown?: string }; read_ok: boolean };
    expect(parsed.read_ok).toBe(true);
    // write_file is hidden under read_only, so it is not offered inside either.
    expect(parsed.write.thrown).toMatch(/No tool named "write_file"/);

    // Even offered inside (a caller listing every built-in), the call goes through the host, which refuses it.
    const context = createToolContext(workspace, {
      permissionMode: 'read_only',
      listTools: () => builtinTools,
      callTool: (name, args) => host.callTool(name, args),
    });
    const offered = await callTool(runCodeTool, { code: 'const w = await tools.write_file({path: "blocked.txt", content: "x"}); return w;' }, context);
    const inner = JSON.parse(offered.content) as { is_error: boolean; content: string };
    expect(inner.is_error).toBe(true);
    expect(inner.content).toMatch(/permission|read_only/i);
    expect(existsSync(join(workspace, 'blocked.txt'))).toBe(false);
  });

  it('applies approval rules to each inner call (a deny rule on shell)', async () => {
    const host = await hostWith({ approvals: [{ tool: 'shell', match: {}, action: 'deny' }] });
    const result = await run(host, 'const r = await tools.shell({command: "echo hi"}); return {is_error: r.is_error, content: r.content};');
    const parsed = JSON.parse(result.content) as { is_error: boolean; content: string };
    expect(parsed.is_error).toBe(true);
    expect(parsed.content).toMatch(/denied|deny/i);
  });

  // The code runs in its own process, so an endless loop holds only that process: it runs until the
  // call deadline and is killed then (there is no shorter "slice" cap, which the in-thread sandbox needed).
  it('stops an endless loop at the call deadline, and keeps serving', async () => {
    const host = await hostWith({ limits: { timeoutMs: 3_000 } });
    const result = await run(host, 'while (true) {}');
    expect(result).toMatchObject({ is_error: true, metadata: { failure: 'timeout' } });
    expect(result.content).toMatch(/deadline/);
    expect(await run(host, 'return 2 + 2')).toMatchObject({ is_error: false, content: '4' });
  }, 30_000);

  it('stops code that keeps awaiting tools at the call deadline', async () => {
    const host = await hostWith({ limits: { timeoutMs: 1_500 } });
    const result = await run(host, 'while (true) await tools.shell({command: "sleep 0.4"}); return "never"');
    expect(result).toMatchObject({ is_error: true, metadata: { failure: 'timeout' } });
    expect(result.content).toMatch(/deadline/);
  }, 30_000);

  it('stops when the caller cancels while it awaits a tool', async () => {
    const host = await hostWith({ limits: { timeoutMs: 60_000 } });
    const controller = new AbortController();
    const call = host.callTool('run_code', { code: 'await tools.shell({command: "touch started.flag; sleep 30"}); return "slept"' }, { signal: controller.signal });
    // Cancelled once the inner shell call is running.
    await vi.waitFor(() => expect(existsSync(join(workspace, 'started.flag'))).toBe(true), { timeout: 20_000, interval: 50 });
    controller.abort(new Error('client went away'));
    const result = await call;
    expect(result).toMatchObject({ is_error: true, metadata: { failure: 'cancelled', tool_calls: 1 } });
    expect(await run(host, 'return "still serving"')).toMatchObject({ is_error: false });
  }, 30_000);

  it('limits the number of tool calls in one run', async () => {
    const host = await hostWith();
    const result = await run(host, 'for (let i = 0; i < 250; i++) await tools.list_dir({}); return "all done"');
    expect(result).toMatchObject({ is_error: true, metadata: { tool_calls: 201 } });
    expect(result.content).toMatch(/More than 200 tool calls/);
  }, 30_000);

  it('stops memory bombs (large strings, large arrays, many small objects) with an is_error result', async () => {
    const host = await hostWith({ limits: { timeoutMs: 60_000 } });
    // Each bomb awaits a tool between allocations, so it is the memory bound that stops it, not the computing slice.
    const bombs = [
      'const kept = []; while (true) { kept.push("x".repeat(1 << 24) + kept.length); await tools.list_dir({}); }',
      'const kept = []; while (true) { kept.push(new Array(1 << 21).fill(kept.length)); await tools.list_dir({}); }',
      'const kept = []; while (true) { for (let i = 0; i < 50000; i++) kept.push({i, s: "v" + i}); await tools.list_dir({}); }',
    ];
    for (const code of bombs) {
      const result = await run(host, code);
      expect(result, code).toMatchObject({ is_error: true, metadata: { failure: 'memory' } });
    }
    expect(await run(host, 'return "recovered"')).toMatchObject({ is_error: false, content: '"recovered"' });
  }, 60_000);

  it('turns unbounded recursion into an error in the code, not a crash of the host', async () => {
    const host = await hostWith();
    const result = await run(host, 'function down(n) { return down(n + 1) + 1; } return down(0);');
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/stack overflow|call stack/i);
    expect(result.content.length).toBeLessThan(2_000);
  });

  it('reports a syntax error clearly, with the line', async () => {
    const host = await hostWith();
    const result = await run(host, 'const a = 1;\nreturn (a +;');
    expect(result).toMatchObject({ is_error: true, metadata: { failure: 'syntax' } });
    expect(result.content).toMatch(/SyntaxError/);
    expect(result.content).toMatch(/run_code\.js:2/);
  });

  it('reports a thrown error, a value JSON cannot hold, an unknown tool and a promise nothing settles', async () => {
    const host = await hostWith();
    const thrown = await run(host, 'throw new RangeError("too far")');
    expect(thrown).toMatchObject({ is_error: true, metadata: { failure: 'exception' } });
    expect(thrown.content).toContain('RangeError: too far');
    const bigint = await run(host, 'return 10n');
    expect(bigint.content).toMatch(/cannot be serialised as JSON/);
    const unknown = await run(host, 'return await tools.no_such_tool({})');
    expect(unknown.content).toMatch(/No tool named "no_such_tool".*read_file/);
    const hanging = await run(host, 'await new Promise(() => {})');
    expect(hanging).toMatchObject({ is_error: true, metadata: { failure: 'never_settles' } });
  });

  it('has no Node: require, process, fetch and timers are absent; run_code cannot call itself', async () => {
    const host = await hostWith();
    const result = await run(
      host,
      'return [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.__toolhost_call, "run_code" in tools, Object.keys(tools).includes("read_file")]',
    );
    expect(JSON.parse(result.content)).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', false, true]);
  });

  it('refuses a returned value over the size limit, and bounds console output', async () => {
    const host = await hostWith();
    const big = await run(host, `return "y".repeat(${RUN_CODE_MAX_RESULT_CHARS + 10})`);
    expect(big).toMatchObject({ is_error: true, metadata: { failure: 'result_too_large' } });
    const chatty = await run(host, 'for (let i = 0; i < 10000; i++) console.log("line", i, "of a chatty loop"); return "done"');
    expect(chatty).toMatchObject({ is_error: false, content: '"done"', metadata: { console_truncated: true } });
    expect((chatty.metadata?.['console'] as string).length).toBeLessThanOrEqual(20_000);
  });

  it('without a host to call through, it says so', async () => {
    const result = await callTool(runCodeTool, { code: 'return 1' }, createToolContext(workspace));
    expect(result).toMatchObject({ is_error: true });
    expect(result.content).toMatch(/needs a tool host/);
  });
});

describe('run_code calling a wasm tool', () => {
  let root: TempRoot;
  let ext: ExtHost | undefined;

  beforeAll(() => {
    root = tempRoot('toolhost-run-code-wasm-');
  });
  afterAll(async () => {
    await ext?.close();
    root.remove();
  });

  it('awaits ext-greet (a C component) from inside the sandbox', async () => {
    const extensionsDir = root.folder('extensions');
    copyFileSync(fixture('ext-greet'), join(extensionsDir, 'ext-greet.wasm'));
    writeFileSync(join(extensionsDir, 'ext-greet.tool.json'), JSON.stringify(ENVELOPE_SIDECAR));
    ext = await createExtHost({ workspaceRoot: root.folder('workspace'), extensionsDir, cacheDir: root.folder('cache') });
    const result = await ext.host.callTool('run_code', {
      code: 'const names = ["Ada", "Grace"]; const greetings = []; for (const name of names) { const r = await tools["ext-greet"]({name}); greetings.push(r.is_error ? "ERR " + r.content : r.content); } return greetings;',
    });
    expect(result.is_error).toBe(false);
    expect(JSON.parse(result.content)).toEqual(['Hello, Ada!', 'Hello, Grace!']);
    expect(result.metadata).toMatchObject({ tool_calls: 2 });
  }, 60_000);
});
