/**
 * The shell's trust boundary, tried as an attacker would, against a real `toolhost serve` on loopback:
 * a model that may run shell commands tries to change the daemon's installation (to get code run
 * inside the daemon later), read its config, secrets and caches, reach same-user services through
 * sockets in /tmp, /run and the abstract namespace, call the daemon's own API over loopback, and fork
 * without bound. Each attack is paired with a check that it would be seen if it worked.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';
import { findProcessesWithArgument, waitUntil } from '../builtins/process-probes.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';

const marker = randomBytes(6).toString('hex');
/** What the protected files hold: never in a path, so an error message naming a path cannot show it. */
const content = randomBytes(6).toString('hex');

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
}

/** A python3 one-liner that connects to a Unix socket and prints `connected <name>` or `refused <name>: <error>`. */
function connectScript(name: string, address: string): string {
  return `python3 -c 'import socket,sys
s=socket.socket(socket.AF_UNIX)
try:
  s.connect(sys.argv[1]); print("connected ${name}")
except Exception as e: print("refused ${name}:", e)' ${JSON.stringify(address)}`;
}

function fetchScript(url: string): string {
  return `python3 -c 'import sys,urllib.request
try: print("reached", urllib.request.urlopen(sys.argv[1], timeout=5).status)
except Exception as e: print("unreachable:", e)' ${JSON.stringify(url)}`;
}

describe('shell: the daemon trust boundary holds against the shell', { timeout: 120_000 }, () => {
  let workspace: { path: string; remove: () => void };
  /** Outside /tmp on purpose: /tmp is private for every command anyway. */
  const privateFolder = join(homedir(), `.toolhost-attack-${marker}`);
  const configDirectory = join(privateFolder, 'config');
  const cacheDirectory = join(privateFolder, 'cache');
  const secretsFile = join(privateFolder, 'secrets.json');
  let daemon: TestDaemon;
  const servers: Server[] = [];
  // /run takes sockets only for root; an unprivileged run uses its own runtime folder (under /run/user as a rule).
  const runFolder = ['/run', process.env['XDG_RUNTIME_DIR']].find((folder) => folder !== undefined && writable(folder)) ?? '/tmp';
  const socketPaths = { tmp: `/tmp/toolhost-attack-${marker}.sock`, run: join(runFolder, `toolhost-attack-run-${marker}.sock`), abstract: `\0toolhost-attack-${marker}` };

  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-attack-');
    mkdirSync(configDirectory, { recursive: true });
    mkdirSync(cacheDirectory, { recursive: true });
    writeFileSync(join(cacheDirectory, 'planted.txt'), `cache-${content}`);
    writeFileSync(secretsFile, JSON.stringify({ API_KEY: `secret-${content}` }));
    for (const path of Object.values(socketPaths)) {
      const server = createServer((socket) => socket.end('hello from a same-user service\n'));
      await listen(server, path);
      servers.push(server);
    }
    daemon = await startTestDaemon({
      workspace: workspace.path,
      configDirectory,
      config: { cache_dir: cacheDirectory, secrets_file: secretsFile, shell: { max_processes: 64, memory_mb: 128 }, include: [`*${content}*`, '*'] },
    });
  });

  afterAll(async () => {
    await daemon?.stop();
    for (const server of servers) server.close();
    for (const path of [socketPaths.tmp, socketPaths.run]) rmSync(path, { force: true });
    rmSync(privateFolder, { recursive: true, force: true });
    workspace?.remove();
  });

  it("cannot change the daemon's installation (sources, build, node_modules) or its extensions folder", async () => {
    const targets = [
      join(PROJECT_ROOT, 'node_modules', '@bytecodealliance', 'jco', `.attack-${marker}`),
      join(PROJECT_ROOT, 'src', `.attack-${marker}.ts`),
      join(PROJECT_ROOT, 'extensions', 'tools', `attack-${marker}.wasm`),
      join(PROJECT_ROOT, 'package.json'),
    ];
    const command = targets.map((target) => `(true >> ${JSON.stringify(target)}) && echo "wrote ${target}"`).join('; ') + '; echo done';
    const result = await daemon.call('shell', { command });
    expect(result.metadata).toMatchObject({ isolation: 'namespaces', network: 'none' });
    expect(result.content).toContain('done');
    expect(result.content).not.toContain('wrote');
    expect(result.content.match(/Read-only file system/g)?.length).toBe(targets.length);
    for (const target of targets.slice(0, 3)) expect(existsSync(target)).toBe(false);
  });

  it('cannot read the config file, the secrets file or the cache (transpiled code the daemon imports)', async () => {
    const result = await daemon.call('shell', {
      command: `cat ${configDirectory}/toolhost.json; cat ${secretsFile}; ls -a ${cacheDirectory}; cat ${cacheDirectory}/planted.txt; echo done`,
    });
    expect(result.content).toContain('done');
    expect(result.content).not.toContain(content);
    // Control: the files are there and hold the marker, outside the sandbox.
    expect(readFileSync(secretsFile, 'utf8')).toContain(content);
    expect(readFileSync(join(configDirectory, 'toolhost.json'), 'utf8')).toContain(content);
  });

  it('cannot write into the cache either (a tampered entry would be imported by the daemon)', async () => {
    const result = await daemon.call('shell', { command: `echo evil > ${cacheDirectory}/evil.mjs; echo done` });
    expect(result.content).toContain('done');
    expect(readdirSync(cacheDirectory)).not.toContain('evil.mjs');
  });

  it('cannot reach same-user services through sockets in /tmp, /run or the abstract namespace', async () => {
    const command = [connectScript('tmp', socketPaths.tmp), connectScript('run', socketPaths.run), connectScript('abstract', socketPaths.abstract)].join('; ');
    const result = await daemon.call('shell', { command: command.replace(/\0/g, '\\0') });
    expect(result.content).toMatch(/refused tmp/);
    expect(result.content).toMatch(/refused run/);
    expect(result.content).toMatch(/refused abstract/);
    expect(result.content).not.toContain('connected');
  });

  it("cannot reach the daemon's own API (or anything else) over the network", async () => {
    const result = await daemon.call('shell', { command: `${fetchScript(`${daemon.url}/v1/approvals`)}; ${fetchScript(`${daemon.url}/healthz`)}` });
    expect(result.content).not.toContain('reached');
    expect(result.content.match(/unreachable/g)?.length).toBe(2);
  });

  it('cannot run more processes than shell.max_processes, in the background or the foreground', async () => {
    // Counted from outside, on the host: each attempt sleeps for a number no other test uses.
    const seconds = 3000 + Math.floor(Math.random() * 900);
    // A loop that goes on after a refused fork (a POSIX sh script ends at the first one), then holds its children.
    const bomb = (sleep: number, hold: number): string =>
      `python3 -c 'import subprocess,time
started=refused=0
for i in range(1000):
  try: subprocess.Popen(["sleep","${sleep}"]); started+=1
  except OSError: refused+=1
print("forked",started,"refused",refused,flush=True)
time.sleep(${hold})'`;
    const background = await daemon.call('shell', { command: bomb(seconds, seconds), run_in_background: true });
    const id = background.metadata?.['process_id'] as string;
    // Enforced by a cgroup (root, or a delegated v2 subtree) or by RLIMIT_NPROC in the user namespace (unprivileged).
    expect(background.metadata?.['limits']).toMatchObject({ max_processes: 64 });
    expect(['cgroup', 'rlimit']).toContain((background.metadata?.['limits'] as { enforced_by: string }).enforced_by);
    let output = '';
    await waitUntil(async () => {
      output += (await daemon.call('process', { action: 'output', process_id: id })).content;
      return output.includes('forked');
      // Generous: the command runs at nice 10 in a low-weight CPU group, which a loaded machine starves.
    }, 180_000, 200);
    const inBackground = (await findProcessesWithArgument(String(seconds))).length;
    await daemon.call('process', { action: 'kill', process_id: id });
    const [, started, refused] = /forked (\d+) refused (\d+)/.exec(output) ?? [];
    expect(Number(started)).toBeLessThanOrEqual(64);
    expect(Number(refused)).toBeGreaterThan(900);
    expect(inBackground).toBeGreaterThan(10);
    expect(inBackground).toBeLessThanOrEqual(64);

    const foregroundSeconds = seconds + 1;
    const foreground = daemon.call('shell', { command: bomb(foregroundSeconds, 3), timeout_ms: 300_000 });
    let inForeground = 0;
    await waitUntil(async () => {
      inForeground = Math.max(inForeground, (await findProcessesWithArgument(String(foregroundSeconds))).length);
      return inForeground > 10;
    }, 180_000, 50);
    const finished = await foreground;
    expect(Number(/forked (\d+) refused/.exec(finished.content)?.[1])).toBeLessThanOrEqual(64);
    expect(inForeground).toBeLessThanOrEqual(64);
    expect(await waitUntil(async () => (await findProcessesWithArgument(String(foregroundSeconds))).length === 0, 120_000)).toBe(true);
  }, 600_000);

  it('cannot use more memory than shell.memory_mb where a cgroup caps it: the command is killed, the daemon is not', async () => {
    const result = await daemon.call('shell', { command: `python3 -c 'b = bytearray(512 * 1024 * 1024); b[::4096] = b"x" * len(b[::4096]); print("allocated")'` });
    const limits = result.metadata?.['limits'] as { memory_mb: number | null; enforced_by: string };
    if (limits.memory_mb === null) {
      // Documented: without a writable cgroup there is no memory cap; the result must say so.
      expect(limits.enforced_by).not.toBe('cgroup');
      expect(result.content).toContain('allocated');
    } else {
      expect(limits).toMatchObject({ memory_mb: 128, enforced_by: 'cgroup' });
      expect(result.is_error).toBe(true);
      expect(result.content).not.toContain('allocated');
    }
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  });

  it('runs at a lower CPU priority than the daemon (a busy command cannot starve its event loop)', async () => {
    const result = await daemon.call('shell', { command: 'nice' });
    expect(result.content.trim()).toBe('10');
  });

  it('still does everyday work in the workspace: writes files, runs pipelines, uses a private /tmp', async () => {
    const result = await daemon.call('shell', { command: 'echo hi > note.txt && cat note.txt | tr a-z A-Z && echo scratch > /tmp/x && cat /tmp/x && pwd' });
    expect(result).toMatchObject({ is_error: false });
    expect(result.content).toBe(`HI\nscratch\n${workspace.path}\n`);
    expect(readFileSync(join(workspace.path, 'note.txt'), 'utf8')).toBe('hi\n');
  });
});

describe('shell: host network is an explicit opt-in', { timeout: 120_000 }, () => {
  it('with shell.network "host" the same probe reaches the daemon (the control for the test above)', async () => {
    const workspace = temporaryDirectory('toolhost-attack-');
    const daemon = await startTestDaemon({ workspace: workspace.path, config: { shell: { network: 'host' } } });
    try {
      const result = await daemon.call('shell', { command: fetchScript(`${daemon.url}/healthz`) });
      expect(result.metadata).toMatchObject({ isolation: 'namespaces', network: 'host' });
      expect(result.content).toContain('reached 200');
    } finally {
      await daemon.stop();
      workspace.remove();
    }
  });
});
