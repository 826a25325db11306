/**
 * The composition root (src/compose.ts): what a host is made of by default (the shipped built-ins and
 * the wasm tools of the extensions folder, loaded without being asked for), and how the daemon is put
 * together around it (bind settings refused before the host exists; a host whose server cannot listen
 * is closed again). Every CLI command that opens a host loads the module, so it must load nothing else.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { composeHost, composeServer } from '../../src/compose.ts';
import { type ConfigFlags, resolveConfig, type ResolvedConfig } from '../../src/config.ts';
import { ToolHostError } from '../../src/errors.ts';
import type { ExtensionSourceFactory, Host } from '../../src/host-types.ts';
import { silentLogger } from '../../src/logger.ts';
import { TEST_XDG_CACHE_HOME } from '../cli/run-cli.ts';
import { fixture, PROJECT_ROOT, tempRoot, type TempRoot } from '../extensions/helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): TempRoot {
  const root = tempRoot('toolhost-compose-');
  cleanups.push(() => root.remove());
  return root;
}

function configOf(flags: ConfigFlags): ResolvedConfig {
  return resolveConfig({ env: {}, flags });
}

/** An extension source that loads nothing and records what the host did with it. */
function recordingExtensions(): { factory: ExtensionSourceFactory; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    factory: () => ({
      start: async () => {
        calls.push('start');
      },
      failures: () => [],
      close: async () => {
        calls.push('close');
      },
    }),
  };
}

/** A TCP port some other listener holds for the rest of the test. */
async function occupiedPort(): Promise<number> {
  const blocker: Server = createServer();
  await new Promise<void>((resolveListen) => blocker.listen(0, '127.0.0.1', resolveListen));
  cleanups.push(() => new Promise<void>((resolveClose) => blocker.close(() => resolveClose())));
  const address = blocker.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('composeHost', () => {
  it('wires the shipped built-ins and the wasm tools of the extensions folder by default', async () => {
    const root = scratch();
    const extensions = root.folder('tools');
    copyFileSync(fixture('ext-greet'), join(extensions, 'ext-greet.wasm'));
    const config = configOf({ workspace: root.folder('workspace'), extensions, cacheDir: join(TEST_XDG_CACHE_HOME, 'toolhost') });
    const host: Host = await composeHost({ config, logger: silentLogger(), watch: false, extensions: { runtime: 'in-process' } });
    cleanups.push(() => host.close({ graceMs: 0 }));

    const tools = host.listTools();
    expect(tools.filter((tool) => tool.source === 'wasm').map((tool) => tool.name)).toEqual(['ext-greet']);
    expect(tools.map((tool) => tool.name)).toContain('read_file');
    const result = await host.callTool('ext-greet', { name: 'Ada' });
    expect(result.is_error).toBe(false);
    expect(result.content).toContain('Ada');
  });

  it('leaves the built-ins out when the host options say so', async () => {
    const root = scratch();
    const config = configOf({ workspace: root.path });
    const host = await composeHost({ config: { ...config, host: { ...config.host, builtins: false } }, logger: silentLogger(), watch: false });
    cleanups.push(() => host.close({ graceMs: 0 }));
    expect(host.listTools()).toEqual([]);
  });
});

describe('composeServer', () => {
  it('refuses a non-loopback bind without a token before a host is made', async () => {
    const root = scratch();
    const extensions = recordingExtensions();
    const config = configOf({ workspace: root.path, extensions: root.folder('tools'), host: '0.0.0.0', port: 0 });
    const attempt = composeServer({ config, logger: silentLogger(), watch: false, dependencies: { builtinTools: [], extensions: extensions.factory } });
    await expect(attempt).rejects.toSatisfy((error) => ToolHostError.is(error, 'SERVER_START_REFUSED'));
    expect(extensions.calls).toEqual([]);
  });

  it('closes the host it made when the port cannot be bound', async () => {
    const root = scratch();
    const extensions = recordingExtensions();
    const config = configOf({ workspace: root.path, extensions: root.folder('tools'), port: await occupiedPort() });
    const attempt = composeServer({ config, logger: silentLogger(), watch: false, dependencies: { builtinTools: [], extensions: extensions.factory } });
    await expect(attempt).rejects.toSatisfy((error) => ToolHostError.is(error, 'SERVER_LISTEN_FAILED'));
    expect(extensions.calls).toEqual(['start', 'close']);
  });

  it('serves the host it made, and closing the server closes the host', async () => {
    const root = scratch();
    const extensions = recordingExtensions();
    const config = configOf({ workspace: root.path, extensions: root.folder('tools'), port: 0 });
    const { host, server } = await composeServer({ config, logger: silentLogger(), watch: false, dependencies: { extensions: extensions.factory } });
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { tools: number };
    expect(health.tools).toBe(host.listTools().length);
    expect(health.tools).toBeGreaterThan(0);
    await server.close(1_000);
    expect(extensions.calls).toEqual(['start', 'close']);
  });
});

describe('src/compose.ts', () => {
  it('imports only types when it loads: the host, the built-ins, the wasm runtime and the edges load when used', () => {
    const file = join(PROJECT_ROOT, 'src', 'compose.ts');
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const imports = source.statements.filter(ts.isImportDeclaration);
    expect(imports.length).toBeGreaterThan(0);
    const valueImports = imports.filter((declaration) => declaration.importClause?.isTypeOnly !== true).map((declaration) => declaration.moduleSpecifier.getText(source));
    expect(valueImports).toEqual([]);
  });
});
