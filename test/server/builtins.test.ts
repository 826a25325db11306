import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../builtins/index.ts';
import { resolveConfig } from '../../src/config.ts';
import { TEST_XDG_RUNTIME_DIR } from '../cli/run-cli.ts';
import { silentLogger } from '../../src/logger.ts';
import { runServeCommand } from '../../src/server/commands.ts';
import type { RunningServer } from '../../src/server/serve.ts';
import { postJson, readJson, temporaryDirectory } from './helpers.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close(1_000);
  server = undefined;
});

describe('runServeCommand with the real built-in tools', () => {
  it('serves the built-ins from a resolved configuration', async () => {
    const workspace = temporaryDirectory();
    writeFileSync(join(workspace, 'notes.txt'), 'first line\nsecond line\n');
    const config = resolveConfig({ env: { XDG_RUNTIME_DIR: TEST_XDG_RUNTIME_DIR }, flags: { workspace, port: 0, permissionMode: 'read_only' } });
    const started = await runServeCommand({ config, logger: silentLogger(), watch: false, handleSignals: false, dependencies: { builtinTools } });
    server = started.server;

    const list = await readJson(await fetch(`${server.url}/v1/tools?format=mcp`));
    const names = list.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('read_file');
    expect(names).not.toContain('write_file');

    const result = await readJson(await postJson(`${server.url}/v1/tools/read_file/call`, { arguments: { path: 'notes.txt' } }));
    expect(result.is_error).toBe(false);
    expect(result.content).toContain('second line');

    const escape = await readJson(await postJson(`${server.url}/v1/tools/read_file/call`, { arguments: { path: '../../etc/passwd' } }));
    expect(escape.is_error).toBe(true);

    const hidden = await postJson(`${server.url}/v1/tools/write_file/call`, { arguments: { path: 'x', content: 'y' } });
    expect(hidden.status).toBe(404);
    expect((await readJson(hidden)).error.details.reason).toBe('permission');
  });
});
