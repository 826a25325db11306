import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile, parseConfig, resolveConfig } from '../../src/config.ts';
import { ToolHostError } from '../../src/errors.ts';
import { defaultAdminTokenDirectory } from '../../src/server/admin-token.ts';
import { temporaryDirectory } from './helpers.ts';

function writeConfig(value: unknown, name = 'toolhost.json'): { dir: string; file: string } {
  const dir = temporaryDirectory('toolhost-config-');
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return { dir, file };
}

/** The admin-token fields of a server config resolved without TOOLHOST_ADMIN_TOKEN, admin_token or XDG variables. */
const NO_ADMIN_TOKEN = { adminToken: undefined, adminTokenDirectory: join(homedir(), '.cache', 'toolhost') };

function configError(run: () => unknown): ToolHostError {
  try {
    run();
  } catch (error) {
    if (ToolHostError.is(error, 'CONFIG_INVALID')) return error;
    throw error;
  }
  throw new Error('expected a CONFIG_INVALID error');
}

describe('config file validation', () => {
  it('names the path of a bad field', () => {
    const { file } = writeConfig({ policies: { fetcher: { timeout_ms: 'soon' } } });
    const error = configError(() => loadConfigFile(file));
    expect(error.message).toContain(file);
    expect(error.message).toContain('policies.fetcher.timeout_ms: expected integer, received string');
  });

  it('rejects unknown fields, at the top level and nested', () => {
    const error = configError(() => parseConfig({ prot: 1, limits: { timeout: 5 } }));
    expect(error.message).toContain('prot: unknown field');
    expect(error.message).toContain('limits.timeout: unknown field');
  });

  it('validates enums, ranges and the full policy shape', () => {
    expect(configError(() => parseConfig({ permission_mode: 'root' })).message).toContain('permission_mode:');
    expect(configError(() => parseConfig({ port: 70000 })).message).toContain('port:');
    expect(configError(() => parseConfig({ limits: { pool_size: 0 } })).message).toContain('limits.pool_size:');
    expect(configError(() => parseConfig({ policies: { t: { fs: [{ host: '.', guest: 'rel', mode: 'ro' }] } } })).message).toContain('policies.t.fs.0.guest');
  });

  it('reports invalid JSON and a missing file', () => {
    const { file } = writeConfig('{"port": ');
    expect(configError(() => loadConfigFile(file)).message).toContain('not valid JSON');
    expect(configError(() => loadConfigFile(join(temporaryDirectory(), 'missing.json'))).message).toContain('Cannot read config file');
  });

  it('resolves relative paths against the config file directory', () => {
    const { dir, file } = writeConfig({ workspace: 'ws', extensions: './ext', cache_dir: '../cache', secrets_file: 'secrets.json' }, 'conf.json');
    const config = loadConfigFile(file);
    expect(config.workspace).toBe(join(dir, 'ws'));
    expect(config.extensions).toBe(join(dir, 'ext'));
    expect(config.cache_dir).toBe(join(dir, '..', 'cache'));
    expect(config.secrets_file).toBe(join(dir, 'secrets.json'));
  });
});

describe('resolveConfig precedence: flags > env > file > defaults', () => {
  it('uses the defaults without flags, env or file', () => {
    const cwd = temporaryDirectory();
    const resolved = resolveConfig({ env: {}, cwd });
    expect(resolved.server).toEqual({ host: '127.0.0.1', port: 7411, token: undefined, bodyLimitBytes: 1024 * 1024, allowedOrigins: [], mcpSessionIdleMs: 600_000, maxMcpSessions: 1000, maxDispatchCalls: 64, drainTimeoutMs: 25_000, lockFile: join(cwd, 'toolhost.lock'), ...NO_ADMIN_TOKEN });
    // The admin token's folder is always hidden from shell commands (src/command-sandbox.ts); the lockfile read-only.
    expect(resolved.host).toEqual({ workspaceRoot: cwd, protectedPaths: { hidden: [defaultAdminTokenDirectory({})], readOnly: [join(cwd, 'toolhost.lock')] } });
    expect(resolved.configFile).toBeUndefined();
  });

  it('takes the extensions default from the caller', () => {
    const cwd = temporaryDirectory();
    expect(resolveConfig({ env: {}, cwd, defaults: { extensions: 'extensions/tools' } }).host.extensionsDir).toBe(join(cwd, 'extensions/tools'));
  });

  it('layers file, env and flags field by field', () => {
    const { dir, file } = writeConfig({
      host: '127.0.0.2',
      port: 8000,
      token: 'from-file',
      workspace: 'file-ws',
      permission_mode: 'read_only',
      include: ['a*'],
      policies: { fetcher: { timeout_ms: 500, network: { allow: ['example.com'] } } },
      limits: { timeout_ms: 1000, memory_mb: 64, body_limit_bytes: 2048 },
    });
    const cwd = temporaryDirectory();
    const resolved = resolveConfig({
      cwd,
      env: { TOOLHOST_CONFIG: file, TOOLHOST_PORT: '9000', TOOLHOST_TOKEN: 'from-env', TOOLHOST_PERMISSION_MODE: 'write' },
      flags: { port: '9100', memoryMb: '128' },
    });
    expect(resolved.configFile).toBe(file);
    expect(resolved.server).toEqual({ host: '127.0.0.2', port: 9100, token: 'from-env', bodyLimitBytes: 2048, allowedOrigins: [], mcpSessionIdleMs: 600_000, maxMcpSessions: 1000, maxDispatchCalls: 64, drainTimeoutMs: 25_000, lockFile: join(cwd, 'toolhost.lock'), ...NO_ADMIN_TOKEN });
    expect(resolved.host).toMatchObject({
      workspaceRoot: join(dir, 'file-ws'),
      permissionMode: 'write',
      include: ['a*'],
      policies: { fetcher: { timeout_ms: 500, network: { allow: ['example.com'] } } },
      limits: { timeoutMs: 1000, memoryMb: 128 },
    });
  });

  it('lets flags win over env for every shared field, with paths relative to cwd', () => {
    const cwd = temporaryDirectory();
    const resolved = resolveConfig({
      cwd,
      env: { TOOLHOST_HOST: '127.0.0.3', TOOLHOST_WORKSPACE: 'env-ws', TOOLHOST_EXTENSIONS: '/abs/ext', TOOLHOST_CACHE_DIR: 'env-cache', TOOLHOST_TOKEN: 'env' },
      flags: { host: '::1', workspace: 'flag-ws', token: 'flag', bodyLimitBytes: 10 },
    });
    expect(resolved.server).toEqual({ host: '::1', port: 7411, token: 'flag', bodyLimitBytes: 10, allowedOrigins: [], mcpSessionIdleMs: 600_000, maxMcpSessions: 1000, maxDispatchCalls: 64, drainTimeoutMs: 25_000, lockFile: join(cwd, 'toolhost.lock'), ...NO_ADMIN_TOKEN });
    expect(resolved.host.workspaceRoot).toBe(join(cwd, 'flag-ws'));
    expect(resolved.host.extensionsDir).toBe('/abs/ext');
    expect(resolved.host.cacheDir).toBe(join(cwd, 'env-cache'));
  });

  it('prefers the configFile argument, then --config, then TOOLHOST_CONFIG', () => {
    const a = writeConfig({ port: 1 });
    const b = writeConfig({ port: 2 });
    const c = writeConfig({ port: 3 });
    const env = { TOOLHOST_CONFIG: c.file };
    expect(resolveConfig({ env, configFile: a.file, flags: { config: b.file } }).server.port).toBe(1);
    expect(resolveConfig({ env, flags: { config: b.file } }).server.port).toBe(2);
    expect(resolveConfig({ env }).server.port).toBe(3);
  });

  it('names the flag or variable of a bad value', () => {
    expect(configError(() => resolveConfig({ env: {}, flags: { port: 'eighty' } })).message).toMatch(/--port: expected integer, received string/);
    expect(configError(() => resolveConfig({ env: {}, flags: { timeoutMs: '-5' } })).message).toContain('--timeout-ms:');
    expect(configError(() => resolveConfig({ env: { TOOLHOST_PORT: '99999' } })).message).toContain('TOOLHOST_PORT:');
    expect(configError(() => resolveConfig({ env: { TOOLHOST_PERMISSION_MODE: 'admin' } })).message).toContain('TOOLHOST_PERMISSION_MODE:');
  });

  it('ignores empty environment variables', () => {
    const cwd = temporaryDirectory();
    mkdirSync(join(cwd, 'x'));
    const resolved = resolveConfig({ cwd, env: { TOOLHOST_PORT: '', TOOLHOST_TOKEN: ' ', TOOLHOST_CONFIG: '' } });
    expect(resolved.server.port).toBe(7411);
    expect(resolved.server.token).toBeUndefined();
  });
});

describe('admin_token and TOOLHOST_ADMIN_TOKEN', () => {
  it('sets the admin token from the config file, and the environment wins over it', () => {
    const { file } = writeConfig({ admin_token: 'admin-token-from-the-file' });
    expect(resolveConfig({ env: {}, configFile: file }).server.adminToken).toBe('admin-token-from-the-file');
    expect(resolveConfig({ env: { TOOLHOST_ADMIN_TOKEN: 'admin-token-from-the-env' }, configFile: file }).server.adminToken).toBe('admin-token-from-the-env');
    expect(resolveConfig({ env: { TOOLHOST_ADMIN_TOKEN: 'admin-token-from-the-env' } }).server.adminToken).toBe('admin-token-from-the-env');
    // Blank is unset, like the other variables.
    expect(resolveConfig({ env: { TOOLHOST_ADMIN_TOKEN: '  ' }, configFile: file }).server.adminToken).toBe('admin-token-from-the-file');
  });

  it('refuses a short or spaced token, naming the field or variable, and one equal to the regular token', () => {
    expect(configError(() => parseConfig({ admin_token: 'short' })).message).toContain('admin_token: must be at least 16 visible ASCII characters without spaces');
    expect(configError(() => parseConfig({ admin_token: 'sixteen chars with spaces' })).message).toContain('admin_token:');
    expect(configError(() => resolveConfig({ env: { TOOLHOST_ADMIN_TOKEN: 'too-short' } })).message).toContain('TOOLHOST_ADMIN_TOKEN: must be at least 16');
    const same = configError(() => resolveConfig({ env: { TOOLHOST_ADMIN_TOKEN: 'one-token-for-everything', TOOLHOST_TOKEN: 'one-token-for-everything' } }));
    expect(same.message).toContain('must differ from token');
  });

  it('refuses admin_token from a config file inside the workspace, where tools read', () => {
    const { dir, file } = writeConfig({ admin_token: 'admin-token-in-the-workspace' });
    const inside = configError(() => resolveConfig({ env: {}, configFile: file, cwd: dir }));
    expect(inside.message).toContain('lies inside the workspace');
    expect(inside.message).toContain('TOOLHOST_ADMIN_TOKEN');
    // The same file with another workspace, or overridden by the environment, is fine.
    expect(resolveConfig({ env: {}, configFile: file, flags: { workspace: temporaryDirectory() } }).server.adminToken).toBe('admin-token-in-the-workspace');
    expect(resolveConfig({ env: { TOOLHOST_ADMIN_TOKEN: 'admin-token-from-the-env' }, configFile: file, cwd: dir }).server.adminToken).toBe('admin-token-from-the-env');
  });

  it('writes a generated token under $XDG_RUNTIME_DIR/toolhost, else the user cache directory', () => {
    expect(resolveConfig({ env: { XDG_RUNTIME_DIR: '/run/user/1000', XDG_CACHE_HOME: '/c' } }).server.adminTokenDirectory).toBe('/run/user/1000/toolhost');
    expect(resolveConfig({ env: { XDG_CACHE_HOME: '/c' } }).server.adminTokenDirectory).toBe('/c/toolhost');
  });
});

describe('allowed_origins and MCP session limits', () => {
  it('normalizes origins from the file, and lets env and then flags replace the list', () => {
    const { file } = writeConfig({ allowed_origins: ['HTTP://LocalHost:3000/', 'https://app.example:443'], limits: { mcp_session_idle_ms: 500, max_mcp_sessions: 3 } });
    const fromFile = resolveConfig({ env: {}, configFile: file });
    expect(fromFile.server).toMatchObject({ allowedOrigins: ['http://localhost:3000', 'https://app.example'], mcpSessionIdleMs: 500, maxMcpSessions: 3 });
    const fromEnv = resolveConfig({ env: { TOOLHOST_ALLOWED_ORIGINS: ' http://a.test:1 ,,http://b.test ' }, configFile: file });
    expect(fromEnv.server.allowedOrigins).toEqual(['http://a.test:1', 'http://b.test']);
    const fromFlags = resolveConfig({ env: { TOOLHOST_ALLOWED_ORIGINS: 'http://a.test' }, configFile: file, flags: { allowedOrigin: ['http://c.test:8080'], maxMcpSessions: '7' } });
    expect(fromFlags.server).toMatchObject({ allowedOrigins: ['http://c.test:8080'], maxMcpSessions: 7, mcpSessionIdleMs: 500 });
  });

  it('refuses values that are not origins, naming the file field, flag or variable', () => {
    expect(configError(() => parseConfig({ allowed_origins: ['http://x.test/path'] })).message).toContain('allowed_origins.0: "http://x.test/path" is not an origin');
    expect(configError(() => parseConfig({ allowed_origins: ['*'] })).message).toContain('allowed_origins.0: "*" is not allowed');
    expect(configError(() => parseConfig({ allowed_origins: ['null'] })).message).toContain('"null" is not allowed');
    expect(configError(() => parseConfig({ allowed_origins: ['localhost:3000x'] })).message).toContain('is not an origin');
    expect(configError(() => resolveConfig({ env: {}, flags: { allowedOrigin: ['nope'] } })).message).toContain('--allowed-origin:');
    expect(configError(() => resolveConfig({ env: { TOOLHOST_ALLOWED_ORIGINS: 'http://ok.test,ftp://u:p@x.test' } })).message).toContain('TOOLHOST_ALLOWED_ORIGINS:');
    expect(configError(() => parseConfig({ limits: { max_mcp_sessions: 0 } })).message).toContain('limits.max_mcp_sessions:');
    expect(configError(() => resolveConfig({ env: {}, flags: { mcpSessionIdleMs: 'soon' } })).message).toContain('--mcp-session-idle-ms:');
  });
});

describe('limits.max_dispatch_calls', () => {
  it('defaults to 64; the file sets it, the --max-dispatch-calls flag overrides it', () => {
    expect(resolveConfig({ env: {} }).server.maxDispatchCalls).toBe(64);
    const { file } = writeConfig({ limits: { max_dispatch_calls: 200 } });
    expect(resolveConfig({ env: {}, configFile: file }).server.maxDispatchCalls).toBe(200);
    expect(resolveConfig({ env: {}, configFile: file, flags: { maxDispatchCalls: '5' } }).server.maxDispatchCalls).toBe(5);
  });

  it('takes positive integers only, naming the field or the flag', () => {
    for (const bad of [0, -1, 1.5, '10']) expect(configError(() => parseConfig({ limits: { max_dispatch_calls: bad } })).message).toContain('limits.max_dispatch_calls:');
    expect(configError(() => resolveConfig({ env: {}, flags: { maxDispatchCalls: '0' } })).message).toContain('--max-dispatch-calls:');
    expect(configError(() => resolveConfig({ env: {}, flags: { maxDispatchCalls: 'many' } })).message).toContain('--max-dispatch-calls:');
  });
});

describe('lock', () => {
  it('defaults to toolhost.lock in the working directory; the file sets it relative to itself, --lock relative to cwd', () => {
    const cwd = temporaryDirectory();
    expect(resolveConfig({ env: {}, cwd }).server.lockFile).toBe(join(cwd, 'toolhost.lock'));
    const { dir, file } = writeConfig({ lock: 'locks/team.lock' });
    const fromFile = resolveConfig({ env: {}, cwd, configFile: file });
    expect(fromFile.server.lockFile).toBe(join(dir, 'locks', 'team.lock'));
    // Tools must not rewrite what vouches for them: the lockfile is read-only to the file tools and shell.
    expect(fromFile.host.protectedPaths?.readOnly).toEqual([join(dir, 'locks', 'team.lock')]);
    expect(resolveConfig({ env: {}, cwd, configFile: file, flags: { lock: 'other.lock' } }).server.lockFile).toBe(join(cwd, 'other.lock'));
  });

  it('refuses an empty or non-string lock, naming the field', () => {
    expect(configError(() => parseConfig({ lock: 7 })).message).toContain('lock: expected string');
    expect(configError(() => parseConfig({ lock: '' })).message).toContain('lock:');
  });
});
