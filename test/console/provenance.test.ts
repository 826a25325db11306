/**
 * Where a tool came from, as a running daemon shows it: `provenance` in GET /v1/tools/{name}/inspect
 * (locked, modified, unlocked; following hot reloads of the tool and changes of the lockfile) and the
 * console's Provenance section with its flags, in headless Chromium. A real `toolhost serve` on
 * loopback with a real extensions folder; the lock entry is written by hand with the right digests,
 * as `toolhost add` would have (src/distribution/lockfile.ts), so no registry is needed.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLockfile, type Lockfile, type LockedTool } from '../../src/distribution/lockfile.ts';
import { PROJECT_ROOT, runCli, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type Daemon } from './daemon.ts';

const CHROMIUM = process.env['TOOLHOST_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const GREET_WASM = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm');
const OTHER_WASM = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet2.wasm');
const WAIT_MS = 60_000;
const REFERENCE = 'oci://127.0.0.1:5000/tools/greet:1.0';
const SIGNER = 'key cosign.pub (sha256:5f0c2a9e)';
const VERIFIED_AT = '2026-11-29T10:00:00.000Z';

function sha256Of(file: string): string {
  return `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
}

function lockEntry(files: Record<string, string>): LockedTool {
  return { reference: REFERENCE, digest: `sha256:${'ab'.repeat(32)}`, signer: SIGNER, policy_digest: null, verified_at: VERIFIED_AT, files };
}

interface Inspection {
  sha256: string;
  provenance: Record<string, unknown> & { status: string };
}

describe('provenance in the daemon and the console', { timeout: 240_000 }, () => {
  let workspace: { path: string; remove: () => void };
  let extensions: string;
  let lockPath: string;
  let daemon: Daemon;
  let browser: Browser;

  async function inspect(name: string): Promise<{ status: number; text: string; body: Inspection }> {
    const response = await fetch(`${daemon.url}/v1/tools/${name}/inspect`);
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as Inspection };
  }

  async function served(name: string): Promise<boolean> {
    return (await fetch(`${daemon.url}/v1/tools/${name}/inspect`)).status === 200;
  }

  /** Replaces `target` by `source`'s bytes in one rename, as an installer would. */
  function replaceFile(source: string, target: string): void {
    const staging = join(workspace.path, 'staging.wasm');
    copyFileSync(source, staging);
    renameSync(staging, target);
  }

  beforeAll(async () => {
    expect(existsSync(GREET_WASM), `${GREET_WASM} (npm run fixtures)`).toBe(true);
    expect(existsSync(OTHER_WASM), `${OTHER_WASM} (npm run fixtures)`).toBe(true);
    expect(existsSync(CHROMIUM), `${CHROMIUM} (apt-get install chromium)`).toBe(true);
    workspace = temporaryDirectory('toolhost-provenance-');
    extensions = join(workspace.path, 'tools');
    mkdirSync(extensions);
    copyFileSync(GREET_WASM, join(extensions, 'greet.wasm'));
    copyFileSync(GREET_WASM, join(extensions, 'stray.wasm'));
    lockPath = join(workspace.path, 'team.lock');
    writeLockfile(lockPath, { lockfileVersion: 1, tools: { greet: lockEntry({ 'greet.wasm': sha256Of(GREET_WASM) }) } });
    // A relative --lock resolves against the daemon's working directory.
    daemon = await startDaemon(['--extensions', extensions, '--workspace', workspace.path, '--lock', 'team.lock'], workspace.path);
    // GET /readyz answers 200 once every file in the folder has loaded (or failed).
    const deadline = Date.now() + WAIT_MS;
    while ((await fetch(`${daemon.url}/readyz`)).status !== 200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await served('greet')).toBe(true);
    expect(await served('stray')).toBe(true);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await browser?.close();
    workspace?.remove();
  });

  it('reports a locked tool with its reference, digest, signer and verification time, naming the lockfile only by its base name', async () => {
    const { status, text, body } = await inspect('greet');
    expect(status, text).toBe(200);
    expect(body.provenance).toEqual({ status: 'locked', lockfile: 'team.lock', reference: REFERENCE, digest: `sha256:${'ab'.repeat(32)}`, signer: SIGNER, verified_at: VERIFIED_AT });
    expect(text).not.toContain(workspace.path);
  });

  it('flags a file dropped into the folder by hand as unlocked', async () => {
    const { body } = await inspect('stray');
    // Each shape fits the provenance schema /openapi.json publishes.
    const openapi = (await (await fetch(`${daemon.url}/openapi.json`)).json()) as { components: { schemas: { ToolInspection: { properties: { provenance: object } } } } };
    const validate = new Ajv2020({ strict: false, formats: { 'date-time': true } }).compile(openapi.components.schemas.ToolInspection.properties.provenance);
    expect(validate(body.provenance), JSON.stringify(validate.errors)).toBe(true);
    expect(validate((await inspect('greet')).body.provenance), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ status: 'trusted', lockfile: 'x' })).toBe(false);
    expect(body.provenance).toMatchObject({ status: 'unlocked', lockfile: 'team.lock' });
    expect(String(body.provenance['reason'])).toContain('stray.wasm is not in the lock');
  });

  it('vouches for nothing when a lock entry names the file with other bytes than it has (a forged or stale entry)', async () => {
    const lock: Lockfile = { lockfileVersion: 1, tools: { greet: lockEntry({ 'greet.wasm': sha256Of(GREET_WASM) }), stray: lockEntry({ 'stray.wasm': sha256Of(OTHER_WASM) }) } };
    writeLockfile(lockPath, lock);
    // The lockfile is read again on change, without a reload of the tool.
    await expect.poll(async () => (await inspect('stray')).body.provenance.status, { timeout: WAIT_MS }).toBe('modified');
    const { body } = await inspect('stray');
    expect(body.provenance).toMatchObject({ expected: sha256Of(OTHER_WASM), found: sha256Of(GREET_WASM) });
    writeLockfile(lockPath, { lockfileVersion: 1, tools: { greet: lockEntry({ 'greet.wasm': sha256Of(GREET_WASM) }) } });
    await expect.poll(async () => (await inspect('stray')).body.provenance.status, { timeout: WAIT_MS }).toBe('unlocked');
  });

  it('reports a broken or missing lockfile as no lock, without the host path', async () => {
    const good = readFileSync(lockPath);
    writeFileSync(lockPath, '{"lockfileVersion": 1, "tools": {"greet": {"reference": 7}}}');
    await expect.poll(async () => (await inspect('greet')).body.provenance.status, { timeout: WAIT_MS }).toBe('unlocked');
    const broken = await inspect('greet');
    expect(String(broken.body.provenance['reason'])).toContain('team.lock is not a toolhost lockfile');
    expect(broken.text).not.toContain(workspace.path);
    rmSync(lockPath);
    await expect.poll(async () => (await inspect('greet')).body.provenance['reason'], { timeout: WAIT_MS }).toBe('no lockfile at team.lock');
    writeFileSync(lockPath, good);
    await expect.poll(async () => (await inspect('greet')).body.provenance.status, { timeout: WAIT_MS }).toBe('locked');
  });

  it('toolhost inspect reads the same lockfile as the daemon: --lock, else the config key lock', async () => {
    const configDir = join(workspace.path, 'conf');
    mkdirSync(configDir, { recursive: true });
    const cliLock = join(configDir, 'cli.lock');
    writeLockfile(cliLock, { lockfileVersion: 1, tools: { stray: lockEntry({ 'stray.wasm': sha256Of(GREET_WASM) }) } });
    writeFileSync(join(configDir, 'toolhost.json'), JSON.stringify({ lock: 'cli.lock' }));
    const run = await runCli(['inspect', join(extensions, 'stray.wasm'), '--json', '--config', join(configDir, 'toolhost.json')], { cwd: workspace.path });
    expect(run.exitCode, run.stderr).toBe(0);
    // The operator's own CLI names the lockfile by its full path.
    expect((JSON.parse(run.stdout) as Inspection).provenance).toMatchObject({ status: 'locked', lockfile: cliLock, reference: REFERENCE });
    const flagged = await runCli(['inspect', join(extensions, 'stray.wasm'), '--json', '--config', join(configDir, 'toolhost.json'), '--lock', 'team.lock'], { cwd: workspace.path });
    expect(flagged.exitCode, flagged.stderr).toBe(0);
    expect((JSON.parse(flagged.stdout) as Inspection).provenance).toMatchObject({ status: 'unlocked', lockfile: lockPath });
  });

  it('keeps the lockfile out of reach of the tools it vouches for', async () => {
    const before = readFileSync(lockPath, 'utf8');
    const forged = JSON.stringify({ lockfileVersion: 1, tools: { stray: lockEntry({ 'stray.wasm': sha256Of(GREET_WASM) }) } });
    const response = await fetch(`${daemon.url}/v1/tools/write_file/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { path: 'team.lock', content: forged } }),
    });
    const result = (await response.json()) as { is_error: boolean; content: string };
    expect(result.is_error, result.content).toBe(true);
    expect(readFileSync(lockPath, 'utf8')).toBe(before);
    expect((await inspect('stray')).body.provenance.status).toBe('unlocked');
    // Nor through a shell command, by writing or by replacing it.
    for (const command of [`echo '${forged}' > team.lock`, `echo '${forged}' > forged.lock && mv -f forged.lock team.lock`]) {
      const shell = await fetch(`${daemon.url}/v1/tools/shell/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: { command } }),
      });
      const ran = (await shell.json()) as { is_error: boolean; content: string };
      expect(ran.is_error, ran.content).toBe(true);
      expect(ran.content).toMatch(/Read-only file system|Device or resource busy/);
      expect(readFileSync(lockPath, 'utf8')).toBe(before);
    }
    // Nor may a tool create one where there is none.
    rmSync(lockPath);
    try {
      const create = await fetch(`${daemon.url}/v1/tools/write_file/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: { path: './tools/../team.lock', content: forged } }),
      });
      const created = (await create.json()) as { is_error: boolean; content: string };
      expect(created.is_error, created.content).toBe(true);
      expect(existsSync(lockPath)).toBe(false);
    } finally {
      writeFileSync(lockPath, before);
    }
  });

  it('shows the provenance on the tool page in Chromium, with the flags for unlocked and modified files', async () => {
    const page: Page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${daemon.url}/console`);
    const section = page.locator('[data-testid="provenance"]');

    await page.locator('#tool-list li[data-tool="greet"] button').click();
    await section.waitFor();
    expect(await section.getAttribute('data-status')).toBe('locked');
    const locked = (await section.textContent()) ?? '';
    expect(locked).toContain(REFERENCE);
    expect(locked).toContain(`sha256:${'ab'.repeat(6)}…`);
    expect(locked).toContain(SIGNER);
    expect(locked).toContain(VERIFIED_AT);
    expect(await section.locator('.provenance-flag').count()).toBe(0);
    expect(await page.locator('[data-testid="provenance-badge"]').count()).toBe(0);

    await page.locator('#tool-list li[data-tool="stray"] button').click();
    await page.locator('[data-testid="provenance"][data-status="unlocked"]').waitFor();
    expect(await section.locator('.provenance-flag').textContent()).toContain('Local file, not from the lock');
    // The flag also sits beside the tool's name, where the page opens.
    expect(await page.locator('article.tool-page header [data-testid="provenance-badge"]').textContent()).toBe('not from the lock');

    // The locked file changes under the daemon: hot reload serves the new bytes, and the page says so.
    const lockedSha = (await inspect('greet')).body.sha256;
    await page.locator('#tool-list li[data-tool="greet"] button').click();
    await page.locator('[data-testid="provenance"][data-status="locked"]').waitFor();
    replaceFile(OTHER_WASM, join(extensions, 'greet.wasm'));
    await expect.poll(async () => (await inspect('greet')).body.sha256, { timeout: WAIT_MS }).not.toBe(lockedSha);
    const modified = await inspect('greet');
    expect(modified.body.provenance).toMatchObject({ status: 'modified', reference: REFERENCE, expected: sha256Of(GREET_WASM), found: sha256Of(OTHER_WASM) });
    // The open page re-renders on the tool's change event; selecting it again would too.
    await page.locator('[data-testid="provenance"][data-status="modified"]').waitFor();
    const flag = (await page.locator('[data-testid="provenance"] .provenance-flag').textContent()) ?? '';
    expect(flag).toContain('Modified since it was locked');
    expect(flag).toContain(`${sha256Of(OTHER_WASM).slice(0, 19)}…`);
    expect(await page.locator('article.tool-page header [data-testid="provenance-badge"]').textContent()).toBe('modified since locked');
    expect(errors).toEqual([]);
    await page.close();
  });
});
