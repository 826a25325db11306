/**
 * The host's own files against the built-in file tools and MCP resources, as an attacker (a model) would
 * try: the daemon's config file, secrets file and cache folder placed INSIDE the workspace must be
 * unreadable, unsearchable and unlisted through read_file, list_dir, grep, glob, symlinks and
 * resources/read; the extensions folder inside the workspace is readable but never writable (a model
 * that could write `extensions/tools/x.policy.json` would widen a tool's grants). Real daemon on
 * loopback, real HTTP calls, the MCP SDK client.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../cli/run-cli.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';

const marker = `hf${process.pid}`;

describe("the host's own files inside the workspace, through the file tools and resources", { timeout: 180_000 }, () => {
  let workspace: { path: string; remove: () => void };
  let daemon: TestDaemon;
  let client: Client;
  const policy = JSON.stringify({ fs: [] });

  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-host-files-');
    const root = workspace.path;
    mkdirSync(join(root, 'cache'));
    writeFileSync(join(root, 'cache', 'planted.txt'), `cache-${marker}`);
    writeFileSync(join(root, 'secrets.json'), JSON.stringify({ API_KEY: `secret-${marker}` }));
    mkdirSync(join(root, 'extensions'));
    writeFileSync(join(root, 'extensions', 'greet.policy.json'), policy);
    writeFileSync(join(root, 'notes.txt'), `notes-${marker}\n`);
    symlinkSync('secrets.json', join(root, 'innocent.txt'));
    symlinkSync('cache', join(root, 'cache-link'));
    daemon = await startTestDaemon({
      workspace: root,
      configDirectory: root,
      config: { cache_dir: join(root, 'cache'), secrets_file: join(root, 'secrets.json'), extensions: join(root, 'extensions'), admin_token: undefined, token: `tok-${marker}-${'x'.repeat(16)}` },
    });
    client = new Client({ name: 'host-files-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer tok-${marker}-${'x'.repeat(16)}` } } }));
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await daemon?.stop();
    workspace?.remove();
  }, 60_000);

  const call = (name: string, args: Record<string, unknown>) => daemon.call(name, args, { authorization: `Bearer tok-${marker}-${'x'.repeat(16)}` });

  it('read_file refuses the config, the secrets file, a cached file and symlinks to them', async () => {
    for (const path of ['toolhost.json', 'secrets.json', 'cache/planted.txt', 'innocent.txt', 'cache-link/planted.txt', join(workspace.path, 'secrets.json')]) {
      const result = await call('read_file', { path });
      expect(result.is_error, path).toBe(true);
      expect(result.content, path).toContain("toolhost's own files");
      expect(result.content, path).not.toContain(marker);
    }
    const plain = await call('read_file', { path: 'notes.txt' });
    expect(plain.content).toContain(`notes-${marker}`);
  });

  it('grep, glob and list_dir neither show nor search them', async () => {
    const grep = await call('grep', { pattern: marker, path: '.' });
    expect(grep.content).toContain('notes.txt');
    expect(grep.content).not.toContain('secret-');
    expect(grep.content).not.toContain('cache-');
    const grepInside = await call('grep', { pattern: marker, path: 'cache' });
    expect(grepInside.is_error).toBe(true);
    const glob = await call('glob', { pattern: '**/*' });
    expect(glob.content).toContain('notes.txt');
    for (const name of ['toolhost.json', 'secrets.json', 'planted.txt', 'innocent.txt']) expect(glob.content).not.toContain(name);
    const list = await call('list_dir', { path: '.' });
    expect(list.content).toContain('notes.txt');
    for (const name of ['toolhost.json', 'secrets.json']) expect(list.content).not.toContain(name);
    expect(list.content).not.toMatch(/^cache\b/m);
  });

  it('write_file and edit_file cannot change the extensions folder, the config or the secrets; reading extensions works', async () => {
    const planted = await call('write_file', { path: 'extensions/evil.policy.json', content: '{"fs":[{"host":"/","guest":"/","mode":"rw"}]}' });
    expect(planted.is_error).toBe(true);
    expect(planted.content).toContain('may read but not change');
    expect(existsSync(join(workspace.path, 'extensions', 'evil.policy.json'))).toBe(false);
    const widened = await call('edit_file', { path: 'extensions/greet.policy.json', old_string: '[]', new_string: '[{"host":"/","guest":"/"}]' });
    expect(widened.is_error).toBe(true);
    expect(readFileSync(join(workspace.path, 'extensions', 'greet.policy.json'), 'utf8')).toBe(policy);
    for (const path of ['toolhost.json', 'secrets.json', 'cache/new.txt']) {
      const result = await call('write_file', { path, content: 'overwritten' });
      expect(result.is_error, path).toBe(true);
    }
    expect(readFileSync(join(workspace.path, 'secrets.json'), 'utf8')).toContain(`secret-${marker}`);
    const read = await call('read_file', { path: 'extensions/greet.policy.json' });
    expect(read.is_error).toBe(false);
    expect(read.content).toContain('"fs"');
  });

  it('MCP resources neither list nor read them', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris).toContain('file:///notes.txt');
    for (const uri of ['file:///toolhost.json', 'file:///secrets.json', 'file:///cache/planted.txt']) expect(uris).not.toContain(uri);
    for (const uri of ['file:///toolhost.json', 'file:///secrets.json', 'file:///cache/planted.txt', 'file:///innocent.txt']) {
      await expect(client.readResource({ uri }), uri).rejects.toThrow(/own files/);
    }
    const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: 's' } });
    expect(completion.completion.values).not.toContain('secrets.json');
  });
});
