/**
 * A real registry for trust tests: Debian's `docker-registry` (the CNCF distribution registry) on a
 * free loopback port with a temporary storage folder, started per test file and stopped after it.
 * Missing binary = a loud failure (the CI installs the package), never a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DOCKER_REGISTRY_BINARY = process.env['TOOLHOST_DOCKER_REGISTRY'] ?? '/usr/bin/docker-registry';

export interface RunningRegistry {
  /** `127.0.0.1:<port>` */
  address: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts docker-registry; resolves once it logs that it listens. */
export async function startRegistry(): Promise<RunningRegistry> {
  if (!existsSync(DOCKER_REGISTRY_BINARY)) {
    throw new Error(`${DOCKER_REGISTRY_BINARY} is missing: install Debian's docker-registry package (apt-get install docker-registry).`);
  }
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-trust-registry-'));
  const port = await freePort();
  const config = join(folder, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: info',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(folder, 'storage')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(DOCKER_REGISTRY_BINARY, ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (log.includes('listening on')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`docker-registry exited (${code}) before listening:\n${log.slice(-2000)}`)));
  });
  return {
    address: `127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
