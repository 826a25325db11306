/**
 * `npm run bench:real`: can an agent call a real CLI right without an override? Builds what is missing
 * of the real-CLI set (build.mjs, pinned sources), drops every tool into one temp extensions folder with
 * only a policy sidecar (a data folder granted at /data, the workload's env; no .tool.json), loads them
 * through the real loader (help capture, introspection, probes when there are), and runs each tool's
 * workload (workloads/<tool>.json) twice: the JSON arguments through toolhost, the person's command line
 * under the reference runtime (the wasmtime CLI), each in its own copy of the data folder. A call is
 * right when toolhost returns a result (not an error) whose content is exactly the reference's stdout,
 * the reference exited with the workload's status (0 unless it says), and every file the call writes
 * is byte-identical. A tool that missed and has overrides/<tool>.tool.json is then loaded again with it
 * and its workload rerun: the "with an override" column says whether an override fixes the misses.
 *
 * Prints a markdown table per tool (loads, schema usable without override, workload calls right, with
 * an override, probe fields in `inspect --json`, build time) with totals, then every miss with the argv
 * toolhost sent and why, then the descriptions toolhost gave. Writes the whole record to
 * <cache>/results.json and each tool's `inspect --json` report to <cache>/inspect/<tool>.json.
 * A bench, not a test: it asserts nothing.
 * Env: REAL_CLIS_CACHE (default ~/.cache/toolhost-real-clis), REAL_CLIS_ONLY=name,name (a subset),
 * REAL_CLIS_KEEP=1 (keep the temp folder).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectJson } from '../../src/cli/commands/inspect.ts';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import { cliSpecToArgv } from '../../src/introspect/to-argv.ts';
import type { AnyTool } from '../../src/tool.ts';
import { ensureVenv, wasmtimeBinary } from '../bench/peers/wasmtime.ts';
import { createExtHost, tempRoot, type ExtHost, type TempRoot } from '../extensions/helpers.ts';
import { readWorkloads, type Workload, type WorkloadCall } from './workload.ts';

const here = dirname(fileURLToPath(import.meta.url));
const CACHE = process.env['REAL_CLIS_CACHE'] ?? join(homedir(), '.cache', 'toolhost-real-clis');
const OUT = join(CACHE, 'out');
const CALL_TIMEOUT_MS = 120_000;
const MAX_SHOWN = 400;

interface ToolEntry {
  name: string;
  program: string;
  language: string;
  framework: string;
  wasm: string;
  wrapper?: string;
}

interface CallOutcome {
  intent: string;
  args: Record<string, unknown>;
  expected_argv: string[];
  sent_argv: string[] | null;
  right: boolean;
  expressible: boolean;
  reason: string | null;
}

interface ToolOutcome {
  name: string;
  language: string;
  framework: string;
  wasm: string;
  wrapper?: string;
  build_seconds: number | null;
  build_error?: string;
  loads: boolean;
  load_problem?: string;
  help_problem?: string;
  description?: string;
  probe_fields: number;
  probe_sources: string[];
  calls: CallOutcome[];
  /** The workload again with overrides/<tool>.tool.json, for a tool that missed and has one. */
  with_override?: { right: number; total: number; problem?: string; misses?: CallOutcome[] };
}

const shorten = (text: string, max = MAX_SHOWN): string => (text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`);
const quoteArgv = (argv: readonly string[]): string => argv.map((arg) => (/^[\w./=:,@%+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(' ');

/** Every `sources` value anywhere in the inspect report that starts with `probe:`. */
function probeSources(report: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'sources' && item !== null && typeof item === 'object') {
          for (const [field, source] of Object.entries(item)) if (typeof source === 'string' && source.startsWith('probe:')) found.push(`${path}.${field} ← ${source}`);
        } else walk(item, `${path}.${key}`);
      }
    }
  };
  walk(report, 'spec');
  return found;
}

interface RefRun {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/**
 * The tool compiled once by the reference runtime (`wasmtime compile`, kept by the module's sha256):
 * a 28 MB Go module takes minutes to compile on a busy 2-core machine, longer than a call's budget.
 */
function precompiled(binary: string, name: string): string {
  const wasm = join(OUT, `${name}.wasm`);
  const digest = createHash('sha256').update(readFileSync(wasm)).digest('hex').slice(0, 16);
  const file = join(CACHE, 'cwasm', `${name}-${digest}.cwasm`);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    process.stderr.write(`bench:real: wasmtime compile ${name} …\n`);
    const compiled = spawnSync(binary, ['compile', wasm, '-o', `${file}.partial`], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (compiled.status !== 0) throw new Error(`wasmtime compile ${name} failed: ${compiled.stderr}`);
    renameSync(`${file}.partial`, file);
  }
  return file;
}

function runReference(binary: string, cwasm: string, program: string, dataDir: string, env: Record<string, string>, argv: readonly string[]): Promise<RefRun> {
  const envFlags = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['run', '--allow-precompiled', '--argv0', program, '--dir', `${dataDir}::/data`, ...envFlags, cwasm, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '', RUST_BACKTRACE: '0', HOME: homedir() },
      timeout: CALL_TIMEOUT_MS,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code }));
  });
}

async function runCall(tool: AnyTool, call: WorkloadCall, context: { callTool: (name: string, args: unknown) => Promise<{ content: string; is_error: boolean }>; wasmtime: string; wasm: string; program: string; env: Record<string, string>; thData: string; refData: string }): Promise<CallOutcome> {
  const base = { intent: call.intent, args: call.args, expected_argv: call.argv };
  const parsed = tool.input.safeParse(call.args);
  const sentArgv = parsed.success ? cliSpecToArgv((tool.details as WasmToolDetails).spec, parsed.data as Record<string, unknown>) : null;
  const reference = await runReference(context.wasmtime, context.wasm, context.program, context.refData, context.env, call.argv);
  if (reference.code !== call.exit) {
    return { ...base, sent_argv: sentArgv, right: false, expressible: parsed.success, reason: `workload error: the reference run exited ${reference.code}, not ${call.exit}: ${shorten(reference.stderr.trim(), 300)}` };
  }
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    return { ...base, sent_argv: null, right: false, expressible: false, reason: `not expressible with the inferred schema: ${shorten(issues, 300)}` };
  }
  const result = await context.callTool(tool.name, call.args);
  const argvNote = sentArgv !== null && quoteArgv(sentArgv) !== quoteArgv(call.argv) ? ` (sent \`${quoteArgv(sentArgv)}\`, a person types \`${quoteArgv(call.argv)}\`)` : '';
  if (result.is_error) {
    const exitNote = call.exit !== 0 ? ` (the program exits ${call.exit} with a result here)` : '';
    return { ...base, sent_argv: sentArgv, right: false, expressible: true, reason: `toolhost returned an error${exitNote}${argvNote}: ${shorten(result.content.trim(), 300)}` };
  }
  const expected = reference.stdout.toString('utf8');
  if (result.content !== expected) {
    return { ...base, sent_argv: sentArgv, right: false, expressible: true, reason: `output differs${argvNote}: toolhost ${result.content.length} chars, reference ${expected.length}; toolhost starts ${JSON.stringify(result.content.slice(0, 120))}` };
  }
  for (const file of call.outputs) {
    const mine = join(context.thData, file);
    const theirs = join(context.refData, file);
    if (!existsSync(mine) || !readFileSync(mine).equals(readFileSync(theirs))) {
      return { ...base, sent_argv: sentArgv, right: false, expressible: true, reason: `written file ${file} differs${argvNote}` };
    }
  }
  return { ...base, sent_argv: sentArgv, right: true, expressible: true, reason: null };
}

/**
 * One extensions folder for a pass: each tool's .wasm with a policy (the data folder granted at /data,
 * the workload's env, room for a slow machine) and, in the override pass only, its overrides/<tool>.tool.json.
 * Each pass gets fresh copies of the data folder for toolhost and for the reference runtime.
 */
function stage(root: TempRoot, pass: string, entries: readonly ToolEntry[], workloads: ReadonlyMap<string, Workload>, withOverrides: boolean): string {
  const tools = root.folder(`extensions-${pass}`);
  for (const tool of entries) {
    const workload = workloads.get(tool.name) as Workload;
    const thData = root.folder(`${pass}/toolhost-data/${tool.name}`);
    const refData = root.folder(`${pass}/reference-data/${tool.name}`);
    for (const [file, content] of Object.entries(workload.files)) {
      writeFileSync(join(thData, file), content);
      writeFileSync(join(refData, file), content);
    }
    copyFileSync(join(OUT, `${tool.name}.wasm`), join(tools, `${tool.name}.wasm`));
    const policy = { fs: [{ host: thData, guest: '/data', mode: workload.grant }], env: workload.env, timeout_ms: CALL_TIMEOUT_MS, memory_mb: 1024 };
    writeFileSync(join(tools, `${tool.name}.policy.json`), JSON.stringify(policy));
    if (withOverrides) copyFileSync(join(here, 'overrides', `${tool.name}.tool.json`), join(tools, `${tool.name}.tool.json`));
  }
  return tools;
}

async function runWorkload(ext: ExtHost, tool: AnyTool, entry: ToolEntry, workload: Workload, where: { wasmtime: string; root: string; pass: string }): Promise<CallOutcome[]> {
  process.stderr.write(`bench:real: ${entry.name}${where.pass === 'plain' ? '' : ` (${where.pass})`}: ${workload.calls.length} calls …\n`);
  const outcomes: CallOutcome[] = [];
  for (const call of workload.calls) {
    const asSent = where.pass === 'override' && call.override_args !== undefined ? { ...call, args: call.override_args } : call;
    outcomes.push(
      await runCall(tool, asSent, {
        callTool: (name, args) => ext.host.callTool(name, args),
        wasmtime: where.wasmtime, wasm: precompiled(where.wasmtime, entry.name), program: entry.program, env: workload.env,
        thData: join(where.root, where.pass, 'toolhost-data', entry.name), refData: join(where.root, where.pass, 'reference-data', entry.name),
      }),
    );
  }
  return outcomes;
}

/** Why a built tool is not in the registry: its load_failed event, when there is one. */
function loadFailure(ext: ExtHost, name: string): string {
  for (const event of ext.events) {
    if (event.type === 'load_failed' && basename(event.file) === `${name}.wasm`) return `load failed: ${event.error}${event.code ? ` (${event.code})` : ''}`;
  }
  return 'not in the registry';
}

function buildRecord(name: string): { seconds: number | null; error?: string } {
  const file = join(OUT, `${name}.build.json`);
  if (!existsSync(join(OUT, `${name}.wasm`)) || !existsSync(file)) return { seconds: null, error: 'not built' };
  return { seconds: (JSON.parse(readFileSync(file, 'utf8')) as { seconds: number }).seconds };
}

function table(outcomes: readonly ToolOutcome[]): string {
  const rows = [
    '| tool | language | parser | wasm | loads | schema usable without override | workload calls right | with an override | probe fields | build (s) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const tool of outcomes) {
    const right = tool.calls.filter((call) => call.right).length;
    const usable = tool.loads && tool.calls.length > 0 && right === tool.calls.length;
    rows.push(
      `| ${tool.name}${tool.wrapper ? ' ¹' : ''} | ${tool.language} | ${tool.framework} | ${tool.wasm} | ${tool.loads ? 'yes' : `no${tool.build_error ? ' (build failed)' : ''}`} | ${usable ? 'yes' : 'no'} | ${tool.loads ? `${right}/${tool.calls.length}` : '–'} | ${tool.with_override === undefined ? '–' : tool.with_override.problem ?? `${tool.with_override.right}/${tool.with_override.total}`} | ${tool.probe_fields} | ${tool.build_seconds ?? '–'} |`,
    );
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(here, 'tools.json'), 'utf8')) as { tools: ToolEntry[] };
  const only = process.env['REAL_CLIS_ONLY']?.split(',').filter(Boolean);
  const entries = manifest.tools.filter((tool) => only === undefined || only.includes(tool.name));
  const workloads = readWorkloads(join(here, 'workloads'));

  process.stderr.write('bench:real: building what is missing (test/real-clis/build.mjs) …\n');
  spawnSync(process.execPath, [join(here, 'build.mjs'), ...entries.map((tool) => tool.name)], { stdio: ['ignore', 'inherit', 'inherit'] });
  const missingPeer = await ensureVenv();
  if (missingPeer !== undefined) throw new Error(`the reference runtime is not available: ${missingPeer}`);
  const wasmtime = await wasmtimeBinary();

  const root = tempRoot('toolhost-real-clis-');
  const built = entries.filter((tool) => buildRecord(tool.name).seconds !== null && workloads.has(tool.name));
  const tools = stage(root, 'plain', built, workloads, false);
  process.stderr.write(`bench:real: loading ${built.length} tools through toolhost …\n`);
  const loadStarted = Date.now();
  const ext = await createExtHost({ extensionsDir: tools, cacheDir: join(CACHE, 'toolhost-cache'), workspaceRoot: root.folder('workspace') });
  const loadSeconds = Math.round((Date.now() - loadStarted) / 100) / 10;
  const outcomes: ToolOutcome[] = [];
  try {
    for (const entry of entries) {
      const build = buildRecord(entry.name);
      const workload = workloads.get(entry.name);
      const outcome: ToolOutcome = {
        name: entry.name, language: entry.language, framework: entry.framework, wasm: entry.wasm,
        ...(entry.wrapper ? { wrapper: entry.wrapper } : {}),
        build_seconds: build.seconds, ...(build.error ? { build_error: build.error } : {}),
        loads: false, probe_fields: 0, probe_sources: [], calls: [],
      };
      outcomes.push(outcome);
      if (workload === undefined) {
        outcome.load_problem = 'no workload';
        continue;
      }
      const tool = ext.host.registry.get(entry.name);
      if (build.seconds === null || tool === undefined) {
        outcome.load_problem = build.seconds === null ? 'not built' : loadFailure(ext, entry.name);
        continue;
      }
      outcome.loads = true;
      const report = inspectJson(tool);
      outcome.description = report.description;
      if (report.help_problem !== undefined) outcome.help_problem = report.help_problem;
      outcome.probe_sources = probeSources(report.spec);
      outcome.probe_fields = outcome.probe_sources.length;
      mkdirSync(join(CACHE, 'inspect'), { recursive: true });
      writeFileSync(join(CACHE, 'inspect', `${entry.name}.json`), JSON.stringify(report, null, 2));
      process.stderr.write(`bench:real: ${entry.name}: ${workload.calls.length} calls …\n`);
      outcome.calls = await runWorkload(ext, tool, entry, workload, { wasmtime, root: root.path, pass: 'plain' });
    }
  } finally {
    await ext.close();
  }

  // The override pass: each tool with a miss and an overrides/<tool>.tool.json, loaded again with it,
  // runs its whole workload (each call's `override_args` when the override renames properties).
  const fixable = outcomes.filter((tool) => tool.calls.some((call) => !call.right) && existsSync(join(here, 'overrides', `${tool.name}.tool.json`)));
  if (fixable.length > 0) {
    const fixEntries = entries.filter((entry) => fixable.some((tool) => tool.name === entry.name));
    const overrideTools = stage(root, 'override', fixEntries, workloads, true);
    process.stderr.write(`bench:real: loading ${fixEntries.length} tools again with their override …\n`);
    const overridden = await createExtHost({ extensionsDir: overrideTools, cacheDir: join(CACHE, 'toolhost-cache'), workspaceRoot: root.folder('workspace-override') });
    try {
      for (const entry of fixEntries) {
        const outcome = outcomes.find((tool) => tool.name === entry.name) as ToolOutcome;
        const tool = overridden.host.registry.get(entry.name);
        if (tool === undefined) {
          outcome.with_override = { right: 0, total: 0, problem: 'did not load with the override' };
          continue;
        }
        const calls = await runWorkload(overridden, tool, entry, workloads.get(entry.name) as Workload, { wasmtime, root: root.path, pass: 'override' });
        outcome.with_override = { right: calls.filter((call) => call.right).length, total: calls.length, misses: calls.filter((call) => !call.right) };
      }
    } finally {
      await overridden.close();
    }
  }

  const loaded = outcomes.filter((tool) => tool.loads);
  const usable = loaded.filter((tool) => tool.calls.length > 0 && tool.calls.every((call) => call.right));
  const calls = outcomes.flatMap((tool) => tool.calls);
  const languages = new Set(outcomes.map((tool) => tool.language));
  const lines: string[] = [];
  lines.push(`## Real CLIs, end to end (${outcomes.length} tools, ${languages.size} languages; loaded in ${loadSeconds} s)`, '');
  lines.push(table(outcomes), '');
  lines.push(`**Totals:** loads ${loaded.length}/${outcomes.length} · schema usable without override ${usable.length}/${outcomes.length} · workload calls right ${calls.filter((call) => call.right).length}/${calls.length} (expressible ${calls.filter((call) => call.expressible).length}/${calls.length}) · probe fields ${outcomes.reduce((sum, tool) => sum + tool.probe_fields, 0)}`, '');
  const wrappers = outcomes.filter((tool) => tool.wrapper);
  for (const tool of wrappers) lines.push(`¹ ${tool.name}: ${tool.wrapper}.`);
  if (wrappers.length > 0) lines.push('');
  const misses = outcomes.flatMap((tool) => tool.calls.filter((call) => !call.right).map((call) => ({ tool, call })));
  if (misses.length > 0) {
    lines.push('### Misses', '');
    for (const { tool, call } of misses) {
      lines.push(`- **${tool.name}** — ${call.intent}: \`${JSON.stringify(call.args)}\` → ${(call.reason ?? '').replace(/\s*\n\s*/g, ' ⏎ ')}${tool.with_override === undefined ? '' : tool.with_override.misses?.some((miss) => miss.intent === call.intent) === false ? ' — **the override fixes it**' : ' — the override does not fix it'}`);
    }
    lines.push('');
  }
  const notLoaded = outcomes.filter((tool) => !tool.loads);
  for (const tool of notLoaded) lines.push(`- **${tool.name}** did not load: ${tool.build_error ?? tool.load_problem ?? 'unknown'}`);
  const helpProblems = loaded.filter((tool) => tool.help_problem !== undefined);
  for (const tool of helpProblems) lines.push(`- **${tool.name}** help: ${tool.help_problem}`);
  lines.push('', '### Descriptions toolhost gave', '');
  for (const tool of loaded) lines.push(`- ${tool.name}: ${JSON.stringify(shorten(tool.description ?? '', 160))}`);
  console.log(lines.join('\n'));
  writeFileSync(join(CACHE, 'results.json'), `${JSON.stringify({ at: new Date().toISOString(), load_seconds: loadSeconds, tools: outcomes }, null, 2)}\n`);
  if (process.env['REAL_CLIS_KEEP'] === '1') process.stderr.write(`bench:real: kept ${root.path}\n`);
  else root.remove();
}

await main();
