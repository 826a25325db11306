/**
 * A real OCI registry for tests: Debian's `docker-registry` (the CNCF distribution registry),
 * started on a free loopback port with a temporary config and storage folder. A missing binary is
 * a failure, never a skip: CI installs it (`apt-get install -y docker-registry`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REGISTRY_BINARY = process.env['TOOLHOST_TEST_REGISTRY'] ?? '/usr/bin/docker-registry';

export interface RunningRegistry {
  /** `127.0.0.1:<port>`. */
  host: string;
  /** The registry's storage root (its files are what it serves). */
  storage: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startRegistry(): Promise<RunningRegistry> {
  if (!existsSync(REGISTRY_BINARY)) throw new Error(`${REGISTRY_BINARY} is missing: install Debian's docker-registry package (apt-get install -y docker-registry)`);
  const root = mkdtempSync(join(tmpdir(), 'toolhost-registry-'));
  const port = await freePort();
  const config = join(root, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(root, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(REGISTRY_BINARY, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`docker-registry exited (${code}): ${stderr}`))));
  const host = `127.0.0.1:${port}`;
  const ready = (async () => {
    for (;;) {
      try {
        const response = await fetch(`http://${host}/v2/`);
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await Promise.race([ready, exited]);
  return {
    host,
    storage: join(root, 'data'),
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
