#!/usr/bin/env node
// Builds every example tool under extensions/examples/ from source and copies `<name>.wasm` plus its sidecars
// (`<name>.tool.json`, `<name>.policy.json`) into extensions/tools/ (or --out DIR), so `npm start` serves them.
//
//   node extensions/examples/build.mjs [--out DIR] [--only NAME[,NAME]] [--force] [--jobs N]
//
// Toolchains, pinned like the `toolhost new` templates (src/cli/templates/*.ts); missing ones are installed
// where that needs no root: the Rust wasm32-wasip2 target (rustup), componentize-py in a venv (unless the pinned
// version is already on PATH) and ComponentizeJS from npm, both under ~/.cache/toolhost-examples. clang + wasi-libc are Debian packages: the
// script prints the apt-get command and stops instead of running apt itself. Go >= 1.21 must be installed.
//
// Incremental: an example is skipped when its output is newer than its sources (and this script). Built
// components are also kept in the cache under a hash of their sources, so building into a new --out folder
// (or after touching a file without changing it) copies instead of rebuilding.
//
// Several runs at once (two checkouts, two terminals, CI jobs) share the cache safely: each build stages and
// writes in a work folder of its own (<cache>/work/<example>-XXXXXX, removed afterwards), finished files are
// moved into place by rename (a reader sees the old file or the new one, never part of one), and what must not
// run twice at once (a toolchain install into the cache, the shared cargo target folder) takes a lock folder.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT = resolve(HERE, '..', '..');
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'toolhost-examples');
/** The vendored WASI WIT the Python and JS templates use; the examples use the same files. */
const WASI_WIT = join(PROJECT, 'src', 'cli', 'templates', 'wasi-wit');

/** Pinned like src/cli/templates/python.ts and js.ts (test/examples/examples.test.ts checks they agree). */
export const COMPONENTIZE_PY_VERSION = '0.25.1';
export const APT_PACKAGES = ['clang', 'lld', 'wasi-libc', 'libclang-rt-14-dev-wasm32'];

/** A build step failed for a reason the user can fix; the message says how. */
class BuildError extends Error {}

/**
 * Runs a command and resolves with its output; rejects with a BuildError carrying the output tail. Async so
 * that two builds can overlap (--jobs).
 */
function run(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => reject(new BuildError(`${command}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolvePromise(output);
      else reject(new BuildError(`${[command, ...args].join(' ')} failed (exit ${code}):\n${output.trim().split('\n').slice(-30).join('\n')}`));
    });
  });
}

function commandWorks(command, args) {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Build output folders and files inside an example folder: not sources. */
function isBuildOutput(entry) {
  return ['target', 'node_modules', '__pycache__', 'wit_world', 'deps'].includes(entry) || entry.endsWith('.wasm');
}

/** The source files under `path` (a file or a folder), sorted, skipping build output. */
function sourceFiles(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((entry) => !isBuildOutput(entry))
    .sort()
    .flatMap((entry) => sourceFiles(join(path, entry)));
}

/** An example's sources: its folder, this script, and what else its build reads from the project. */
function sourcesOf(example) {
  return [example.dir, fileURLToPath(import.meta.url), ...(example.extraSources ?? [])].flatMap(sourceFiles);
}

function mtimeOrZero(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

// ---- sharing the cache with other runs ----

/**
 * A new empty folder of this run's own for one build of `name`: `<cacheRoot>/work/<name>-XXXXXX`. Nothing
 * else writes there, so two runs building the same example at once never touch each other's files.
 */
export function createWorkFolder(name, cacheRoot = CACHE) {
  const parent = join(cacheRoot, 'work');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, `${name}-`));
}

/** Copies `source` to `target` through a temporary file beside it and a rename: never a half-written target. */
export function copyIntoPlace(source, target) {
  const temporary = `${target}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    copyFileSync(source, temporary);
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
}

const sleep = (ms) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The pid a lock folder names as its owner, or undefined when it names none (yet) or is gone. */
function lockOwner(lock) {
  try {
    const pid = Number.parseInt(readFileSync(join(lock, 'pid'), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A lock is abandoned when its owner process is gone, or when it names no owner a minute after it was made. */
function lockAbandoned(lock) {
  const owner = lockOwner(lock);
  if (owner !== undefined) return !processAlive(owner);
  try {
    return Date.now() - statSync(lock).mtimeMs > 60_000;
  } catch {
    return false; // released meanwhile: the next mkdir takes it
  }
}

/**
 * Runs `task` holding the lock `<cacheRoot>/locks/<name>` (a folder: mkdir is atomic), for work on a shared
 * folder that must not run twice at once. A lock whose owner process is gone is taken over.
 */
export async function withCacheLock(name, task, cacheRoot = CACHE) {
  const locks = join(cacheRoot, 'locks');
  mkdirSync(locks, { recursive: true });
  const lock = join(locks, name);
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (lockAbandoned(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!told) {
      console.log(`waiting for another build (pid ${lockOwner(lock) ?? '?'}) to finish with ${name}`);
      told = true;
    }
    await sleep(250);
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return await task();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---- toolchains: each is checked (and installed where allowed) once, only when an example needs building ----

const toolchains = new Map();
function once(name, check) {
  if (!toolchains.has(name)) toolchains.set(name, check());
  return toolchains.get(name);
}

function requireClang() {
  return once('clang', async () => {
    const probe = createWorkFolder('clang-probe');
    writeFileSync(join(probe, 'probe.c'), '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n');
    try {
      await run('clang', ['--target=wasm32-wasi', '-O2', '-o', join(probe, 'probe.wasm'), join(probe, 'probe.c')]);
    } catch (error) {
      throw new BuildError(
        `clang cannot build for wasm32-wasi with wasi-libc. Install the Debian packages, then run this again:\n` +
          `  sudo apt-get install -y ${APT_PACKAGES.join(' ')}\n(${error.message.split('\n').slice(-3).join(' ')})`,
      );
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  });
}

function requireGo() {
  return once('go', async () => {
    let version;
    try {
      version = await run('go', ['env', 'GOVERSION']);
    } catch {
      throw new BuildError('Go >= 1.21 is needed for the Go example (GOOS=wasip1): install it from https://go.dev/dl/');
    }
    const [, major, minor] = /go(\d+)\.(\d+)/.exec(version) ?? [];
    if (Number(major) === 1 && Number(minor) < 21) throw new BuildError(`Go >= 1.21 is needed for GOOS=wasip1, found ${version.trim()}`);
  });
}

function requireRustTarget() {
  return once('rust', async () => {
    if (!commandWorks('cargo', ['--version']) || !commandWorks('rustup', ['--version'])) {
      throw new BuildError('rustup and cargo are needed for the Rust example: install them from https://rustup.rs');
    }
    const installed = await run('rustup', ['target', 'list', '--installed']);
    if (!installed.split('\n').includes('wasm32-wasip2')) {
      console.log('installing the Rust target: rustup target add wasm32-wasip2');
      await run('rustup', ['target', 'add', 'wasm32-wasip2']);
    }
  });
}

/**
 * componentize-py at the pinned version: the one on PATH when it is that version (CI puts its own there),
 * else one in a venv of its own under the cache, installed on first use. Resolves to the executable.
 */
function requireComponentizePy() {
  return once('componentize-py', async () => {
    const onPath = (await run('componentize-py', ['--version']).catch(() => '')).trim();
    if (onPath === `componentize-py ${COMPONENTIZE_PY_VERSION}`) return 'componentize-py';
    const venv = join(CACHE, 'componentize-py');
    const executable = join(venv, 'bin', 'componentize-py');
    const installedVersion = async () => (existsSync(executable) ? (await run(executable, ['--version']).catch(() => '')).trim() : '');
    if ((await installedVersion()) === `componentize-py ${COMPONENTIZE_PY_VERSION}`) return executable;
    // One install into the shared venv at a time; a run that waited finds it installed.
    return withCacheLock('componentize-py', async () => {
      if ((await installedVersion()) === `componentize-py ${COMPONENTIZE_PY_VERSION}`) return executable;
      console.log(`installing componentize-py ${COMPONENTIZE_PY_VERSION} into ${venv}`);
      try {
        await run('python3', ['-m', 'venv', venv]);
      } catch (error) {
        throw new BuildError(`python3 -m venv failed; on Debian: sudo apt-get install -y python3 python3-venv\n${error.message}`);
      }
      await run(join(venv, 'bin', 'pip'), ['install', '-q', `componentize-py==${COMPONENTIZE_PY_VERSION}`]);
      const version = await installedVersion();
      if (version !== `componentize-py ${COMPONENTIZE_PY_VERSION}`) throw new BuildError(`componentize-py install check failed: got "${version}"`);
      return executable;
    });
  });
}

/**
 * ComponentizeJS with the exact versions of the JS example's package.json (the template's pins), npm-installed
 * into the cache. Resolves to the componentize-js executable.
 */
function requireComponentizeJs(exampleDir) {
  return once('componentize-js', async () => {
    const manifest = JSON.parse(readFileSync(join(exampleDir, 'package.json'), 'utf8'));
    const prefix = join(CACHE, 'componentize-js');
    const executable = join(prefix, 'node_modules', '.bin', 'componentize-js');
    const wanted = manifest.devDependencies;
    const installed = () =>
      Object.entries(wanted).every(([name, version]) => {
        const file = join(prefix, 'node_modules', ...name.split('/'), 'package.json');
        return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === version;
      });
    if (existsSync(executable) && installed()) return executable;
    // One npm install into the shared prefix at a time; a run that waited finds it installed.
    return withCacheLock('componentize-js', async () => {
      if (existsSync(executable) && installed()) return executable;
      console.log(`installing ${Object.entries(wanted).map(([name, version]) => `${name}@${version}`).join(' ')} into ${prefix}`);
      mkdirSync(prefix, { recursive: true });
      writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true, type: 'module', devDependencies: wanted }, null, 2)}\n`);
      await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: prefix });
      if (!installed()) throw new BuildError(`npm did not install the pinned ComponentizeJS versions in ${prefix}`);
      return executable;
    });
  });
}

/**
 * A build folder holding a copy of the example's sources plus the vendored WASI WIT in wit/deps: `stage` in
 * the build's own work folder (see createWorkFolder), never a folder another run also uses.
 */
export function stageWithWasiWit(example, files, work) {
  const stage = join(work, 'stage');
  mkdirSync(join(stage, 'wit'), { recursive: true });
  for (const file of files) copyFileSync(join(example.dir, file), join(stage, file));
  copyFileSync(join(example.dir, 'wit', 'world.wit'), join(stage, 'wit', 'world.wit'));
  cpSync(WASI_WIT, join(stage, 'wit', 'deps'), { recursive: true, filter: (source) => !source.endsWith('README.md') });
  return stage;
}

// ---- the examples ----

/**
 * Each example: its folder, language, and how to build `<artifact>` (the component, a path in the build's own
 * work folder `work`, where the build also keeps whatever else it writes).
 */
/**
 * The clang command line that builds hashenc's core module (a bare wasip1 command, `-Wl,--strip-all`). It is also
 * how `prebuilt/hashenc.wasm` was made: the build is reproducible, and a test rebuilds it and compares the bytes. Under
 * `npm run`, node_modules/.bin leads PATH and clang runs the binaryen `wasm-opt` it finds there (pinned by the lockfile).
 */
export const HASHENC_CLANG_ARGS = ['--target=wasm32-wasi', '-O2', '-Wall', '-Wextra', '-Werror', '-Wl,--strip-all'];

export const EXAMPLES = [
  {
    name: 'jsonq',
    language: 'Rust',
    async build(example, artifact) {
      await requireRustTarget();
      const target = join(CACHE, 'cargo-target');
      // cargo locks its target folder only while it runs: the lock also covers taking the output out of it.
      await withCacheLock('cargo-target', async () => {
        await run('cargo', ['build', '--release', '--locked', '--target', 'wasm32-wasip2'], { cwd: example.dir, env: { CARGO_TARGET_DIR: target } });
        copyFileSync(join(target, 'wasm32-wasip2', 'release', 'jsonq.wasm'), artifact);
      });
    },
  },
  {
    name: 'textstats',
    language: 'Go',
    async build(example, artifact) {
      await requireGo();
      // A standard wasip1 command module: toolhost wraps it with the preview1 command adapter when it loads it.
      await run('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', artifact, '.'], {
        cwd: example.dir,
        env: { GOOS: 'wasip1', GOARCH: 'wasm', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
      });
    },
  },
  {
    name: 'hashenc',
    language: 'C',
    async build(example, artifact) {
      await requireClang();
      const core = `${artifact.slice(0, -'.wasm'.length)}.core.wasm`;
      await run('clang', [...HASHENC_CLANG_ARGS, '-o', core, 'hashenc.c'], { cwd: example.dir });
      // jco's componentNew with its preview1 command adapter: what `jco new --wasi-command` does.
      const { componentNew, preview1AdapterCommandPath } = await import('@bytecodealliance/jco');
      writeFileSync(artifact, await componentNew(readFileSync(core), [['wasi_snapshot_preview1', readFileSync(preview1AdapterCommandPath())]]));
    },
  },
  {
    name: 'csv2json',
    language: 'Python',
    extraSources: [WASI_WIT],
    async build(example, artifact, work) {
      const componentizePy = await requireComponentizePy();
      const stage = stageWithWasiWit(example, ['app.py'], work);
      await run(componentizePy, ['-d', 'wit', '-w', 'tool', 'componentize', 'app', '-o', artifact], { cwd: stage });
    },
  },
  {
    name: 'units',
    language: 'JavaScript',
    extraSources: [WASI_WIT],
    async build(example, artifact, work) {
      const componentizeJs = await requireComponentizeJs(example.dir);
      const stage = stageWithWasiWit(example, ['units.js'], work);
      await run(componentizeJs, ['units.js', '--wit', 'wit', '--world-name', 'tool', '-o', artifact], { cwd: stage });
    },
  },
].map((example) => ({ ...example, dir: join(HERE, example.name) }));

const SIDECARS = ['.tool.json', '.policy.json'];

function formatSize(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}

/** Copies the cached component into place; false when there is none (or another run just removed it). */
function copiedFromCache(artifact, output) {
  try {
    copyIntoPlace(artifact, output);
    return true;
  } catch (error) {
    if (error.code === 'ENOENT') return false;
    throw error;
  }
}

/** Builds (or reuses) one example and copies it into `out`; returns a summary row. */
async function buildOne(example, out, force) {
  const started = performance.now();
  const sources = sourcesOf(example);
  const sourcesTime = Math.max(...sources.map((file) => statSync(file).mtimeMs));
  const output = join(out, `${example.name}.wasm`);
  // The cached component is named after a hash of its sources, so another checkout or branch never reuses it.
  const hash = createHash('sha256');
  for (const file of sources) hash.update(relative(PROJECT, file)).update('\0').update(readFileSync(file)).update('\0');
  const builds = join(CACHE, 'build');
  const artifact = join(builds, `${example.name}-${hash.digest('hex').slice(0, 16)}.wasm`);
  let status;
  if (!force && mtimeOrZero(output) > sourcesTime) {
    status = 'up to date';
  } else if (!force && copiedFromCache(artifact, output)) {
    status = 'cached';
  } else {
    const work = createWorkFolder(example.name);
    try {
      const built = join(work, `${example.name}.wasm`);
      await example.build(example, built, work);
      // Into the output first, from this run's own file: another run may replace the cached one meanwhile.
      copyIntoPlace(built, output);
      mkdirSync(builds, { recursive: true });
      renameSync(built, artifact);
      // Components of older sources go; only finished ones are named <name>-<16 hex>.wasm.
      const stale = new RegExp(`^${example.name}-[0-9a-f]{16}\\.wasm$`);
      for (const old of readdirSync(builds).filter((file) => stale.test(file) && join(builds, file) !== artifact)) rmSync(join(builds, old), { force: true });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    status = 'built';
  }
  for (const suffix of SIDECARS) {
    const sidecar = join(example.dir, `${example.name}${suffix}`);
    const target = join(out, `${example.name}${suffix}`);
    if (existsSync(sidecar)) copyIntoPlace(sidecar, target);
    else rmSync(target, { force: true });
  }
  return { name: example.name, language: example.language, size: statSync(output).size, seconds: (performance.now() - started) / 1000, status };
}

function printTable(rows) {
  const header = ['example', 'language', 'size', 'seconds', 'status'];
  const cells = rows.map((row) => [row.name, row.language, row.size === undefined ? '-' : formatSize(row.size), row.seconds.toFixed(1), row.status]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column].length)));
  const line = (values) => values.map((value, column) => (column === 2 || column === 3 ? value.padStart(widths[column]) : value.padEnd(widths[column]))).join('  ').trimEnd();
  console.log(line(header));
  for (const row of cells) console.log(line(row));
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      only: { type: 'string' },
      force: { type: 'boolean', default: false },
      jobs: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: node extensions/examples/build.mjs [--out DIR] [--only NAME[,NAME]] [--force] [--jobs N]');
    console.log(`Examples: ${EXAMPLES.map((example) => `${example.name} (${example.language})`).join(', ')}`);
    return 0;
  }
  const out = resolve(values.out ?? join(PROJECT, 'extensions', 'tools'));
  const wanted = values.only?.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = (wanted ?? []).filter((name) => !EXAMPLES.some((example) => example.name === name));
  if (unknown.length > 0) {
    console.error(`build-examples: unknown example ${unknown.join(', ')}; known: ${EXAMPLES.map((example) => example.name).join(', ')}`);
    return 2;
  }
  const jobs = Math.max(1, Number.parseInt(values.jobs, 10) || 1);
  mkdirSync(out, { recursive: true });
  const selected = EXAMPLES.filter((example) => wanted === undefined || wanted.includes(example.name));
  const started = performance.now();
  const rows = new Array(selected.length);
  const failures = [];
  let next = 0;
  const worker = async () => {
    while (next < selected.length) {
      const index = next++;
      const example = selected[index];
      try {
        rows[index] = await buildOne(example, out, values.force);
      } catch (error) {
        rows[index] = { name: example.name, language: example.language, seconds: (performance.now() - started) / 1000, status: 'FAILED' };
        failures.push(`${example.name} (${example.language}): ${error instanceof BuildError ? error.message : error.stack}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, selected.length) }, worker));
  printTable(rows);
  console.log(`build-examples: ${selected.length} examples in ${((performance.now() - started) / 1000).toFixed(1)} s, output in ${relative(process.cwd(), out) || '.'}`);
  for (const failure of failures) console.error(`\nbuild-examples: ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
