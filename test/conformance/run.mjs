#!/usr/bin/env node
// Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance, pinned below) against
// a real `toolhost serve` (the build in dist/) over Streamable HTTP, and exits with the suite's code:
// non-zero on any failure not listed in test/conformance/expected-failures.yml, and on a listed one that
// now passes (the list must then shrink).
//
// The suite calls fixture tools by name; they come through toolhost's real path for wasm tools: an
// extensions folder made for this run holding the C fixture test/fixtures/c/mcp-conformance.c (built by
// `npm run fixtures`) once per tool name, each with its .tool.json from test/conformance/tools/.
// The daemon is started by serve.mjs (the CLI's composition of `toolhost serve`) with one test-only
// resource source (resources.mjs): the suite's `test://…` resources, served from files this run writes
// into its workspace through toolhost's workspace resources (read, media type, blob, watch). A tool
// named in OWN_FIXTURES is another C fixture instead (test_tool_with_progress: progress-report.c, which
// reports progress the documented way, `toolhost-progress:` lines on stderr).
// The suite tests servers over HTTP only (`conformance server --url`); `toolhost mcp` (stdio) shares the
// MCP server code and is covered by test/server/mcp-stdio.test.ts and test/server/mcp-logging.test.ts.
//
// Usage: node test/conformance/run.mjs [--fixture <mcp-conformance.wasm>] [-- <more suite flags, e.g. --scenario ping>]
// Needs Node >= 22, `npm run build` and `npm run fixtures` done. The suite is installed once into
// $XDG_CACHE_HOME/toolhost-conformance (else ~/.cache/toolhost-conformance).
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SUITE_PACKAGE = '@modelcontextprotocol/conformance';
const SUITE_VERSION = '0.1.16';
/** How long the daemon may take to listen and to load the fixture tools (a loaded 2-core CI machine). */
const START_TIMEOUT_MS = 120_000;

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '../..');
const { values, positionals } = parseArgs({
  options: { fixture: { type: 'string', default: join(root, 'test/fixtures/build/mcp-conformance.wasm') } },
  allowPositionals: true,
});

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(2);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) fail(`the suite needs Node >= 22 (this is ${process.version})`);
const bin = join(root, 'dist/src/cli/bin.js');
if (!existsSync(bin)) fail(`${bin} is missing: run \`npm run build\` first`);
if (!existsSync(values.fixture)) fail(`${values.fixture} is missing: run \`npm run fixtures\` first`);

// The pinned suite, installed once into a cache folder of its own (never into the project's node_modules).
const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
const suiteDir = join(cacheRoot, 'toolhost-conformance');
const suitePackageJson = join(suiteDir, 'node_modules', SUITE_PACKAGE, 'package.json');
const installedVersion = existsSync(suitePackageJson) ? JSON.parse(readFileSync(suitePackageJson, 'utf8')).version : undefined;
if (installedVersion !== SUITE_VERSION) {
  console.log(`conformance: installing ${SUITE_PACKAGE}@${SUITE_VERSION} into ${suiteDir}`);
  mkdirSync(suiteDir, { recursive: true });
  execFileSync('npm', ['install', '-q', '--prefix', suiteDir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${SUITE_PACKAGE}@${SUITE_VERSION}`], { stdio: 'inherit' });
}
const suiteBin = join(suiteDir, 'node_modules', SUITE_PACKAGE, 'dist/index.js');

// The run's own workspace, cache and extensions folder: one copy of the fixture per tool name.
const scratch = mkdtempSync(join(tmpdir(), 'toolhost-conformance-'));
const workspace = join(scratch, 'workspace');
const tools = join(scratch, 'tools');
const cache = join(scratch, 'cache');
for (const dir of [workspace, tools, cache]) mkdirSync(dir);
const sidecars = readdirSync(join(here, 'tools')).filter((file) => file.endsWith('.tool.json'));
/** Tools served by a fixture of their own (in the fixture's folder) rather than mcp-conformance. */
const OWN_FIXTURES = { test_tool_with_progress: 'progress-report.wasm' };
for (const sidecar of sidecars) {
  const name = sidecar.slice(0, -'.tool.json'.length);
  const own = OWN_FIXTURES[name];
  const fixture = own === undefined ? values.fixture : join(values.fixture, '..', own);
  if (!existsSync(fixture)) fail(`${fixture} is missing: run \`npm run fixtures\` first`);
  copyFileSync(join(here, 'tools', sidecar), join(tools, sidecar));
  copyFileSync(fixture, join(tools, `${name}.wasm`));
}

// The files behind the suite's test:// resources (imported here, after the build check: it loads dist/).
const { CONFORMANCE_FILES } = await import('./resources.mjs');
for (const [file, content] of Object.entries(CONFORMANCE_FILES)) {
  mkdirSync(dirname(join(workspace, file)), { recursive: true });
  writeFileSync(join(workspace, file), content);
}

const daemon = spawn(process.execPath, [join(here, 'serve.mjs'), '--workspace', workspace, '--extensions', tools, '--cache-dir', cache], {
  cwd: scratch,
  env: { ...process.env, NO_COLOR: '1', XDG_RUNTIME_DIR: scratch },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let daemonLog = '';
daemon.stderr.setEncoding('utf8').on('data', (chunk) => {
  daemonLog += chunk;
});
const exited = new Promise((resolveExit) => daemon.on('exit', (code, signal) => resolveExit({ code, signal })));

/** Settles with the daemon's URL once it printed its listening line, and its tools have all loaded. */
async function daemonReady() {
  const url = await new Promise((resolveUrl, reject) => {
    let out = '';
    daemon.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const match = /toolhost listening on (http:\/\/\S+)/.exec(out);
      if (match) resolveUrl(match[1]);
    });
    void exited.then(({ code, signal }) => reject(new Error(`toolhost serve exited (${code ?? signal}) before listening`)));
  });
  // Ready once stderr says so (all extension files loaded).
  await new Promise((resolveReady, reject) => {
    const check = () => /toolhost ready:/.test(daemonLog) && resolveReady();
    daemon.stderr.on('data', check);
    check();
    void exited.then(({ code, signal }) => reject(new Error(`toolhost serve exited (${code ?? signal}) before it was ready`)));
  });
  return url;
}

let exitCode = 1;
try {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`toolhost serve was not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS).unref());
  const url = await Promise.race([daemonReady(), timeout]);
  const failures = /could not load .*/g.exec(daemonLog);
  if (failures) throw new Error(`a fixture tool did not load: ${failures[0]}`);
  console.log(`conformance: ${SUITE_PACKAGE}@${SUITE_VERSION} against ${url}/mcp (fixture tools: ${sidecars.length})`);
  const suite = spawn(
    process.execPath,
    [suiteBin, 'server', '--url', `${url}/mcp`, '--expected-failures', join(here, 'expected-failures.yml'), '--output-dir', join(scratch, 'results'), ...positionals],
    { stdio: 'inherit' },
  );
  exitCode = await new Promise((resolveExit) => suite.on('exit', (code) => resolveExit(code ?? 1)));
} catch (error) {
  console.error(`conformance: ${error.message}\n--- toolhost serve stderr ---\n${daemonLog}`);
  exitCode = 2;
} finally {
  if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGTERM');
  await exited;
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(exitCode);
