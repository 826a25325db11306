/**
 * The console's "Fill from example" in a real browser: headless Chromium (Debian's package) driven by
 * playwright-core, against a real `toolhost serve` process with a real wasm tool whose help has an
 * `Examples:` section (test/fixtures/c/shrink.c). The picker lists the examples (labelled with what
 * they do once the inspect report is in); picking one fills the form's fields (scalars, a flag, an
 * array), picking another clears what it leaves out, and the call sends exactly the example.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type Daemon } from './daemon.ts';

const CHROMIUM = process.env['TOOLHOST_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const SHRINK_WASM = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'shrink.wasm');
const WAIT_MS = 60_000;

describe('console: fill the try-it form from an example', { timeout: 180_000 }, () => {
  let browser: Browser;
  let workspace: { path: string; remove: () => void };
  let daemon: Daemon;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} (apt-get install chromium)`).toBe(true);
    expect(existsSync(SHRINK_WASM), `${SHRINK_WASM} (npm run fixtures)`).toBe(true);
    workspace = temporaryDirectory('toolhost-console-examples-');
    const extensions = join(workspace.path, 'tools');
    mkdirSync(extensions);
    copyFileSync(SHRINK_WASM, join(extensions, 'shrink.wasm'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    daemon = await startDaemon(['--extensions', extensions, '--workspace', workspace.path], workspace.path);
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await browser?.close();
    workspace?.remove();
  });

  it('picks an example and sees the form filled; the call sends exactly that example', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${daemon.url}/`);
    await page.locator('#tool-list li[data-tool="shrink"] button').click();
    const picker = page.getByLabel('Fill from example', { exact: true });
    // one entry per example the schema offers, after the prompt, each showing its arguments
    const labels = await picker.locator('option').allTextContents();
    expect(labels).toHaveLength(4);
    expect(labels[0]).toBe('Choose an example…');
    ['{"width":"800","input":"photo.jpg"}', '{"format":"webp","quality":70,"strip":true,"input":"photo.png"}', '{"tag":["holiday","beach"],"width":"1024","input":"beach.jpg"}'].forEach((json, index) =>
      expect(labels[index + 1]?.endsWith(json)).toBe(true),
    );

    // once the inspect report is in, each example says what it does
    await expect.poll(() => picker.locator('option').nth(1).textContent(), { timeout: WAIT_MS }).toBe('Shrink a photo to 800 pixels wide — {"width":"800","input":"photo.jpg"}');
    expect(await picker.locator('option').nth(3).textContent()).toBe('Tag a beach photo twice — {"tag":["holiday","beach"],"width":"1024","input":"beach.jpg"}');

    await picker.selectOption({ index: 3 });
    expect(await page.getByLabel('input', { exact: true }).inputValue()).toBe('beach.jpg');
    expect(await page.getByLabel('width', { exact: true }).inputValue()).toBe('1024');
    expect(await page.getByLabel('tag[0]', { exact: true }).inputValue()).toBe('holiday');
    expect(await page.getByLabel('tag[1]', { exact: true }).inputValue()).toBe('beach');

    // another example replaces it: what it leaves out is cleared (no tags, no width), the rest is set
    await picker.selectOption({ index: 2 });
    expect(await page.getByLabel('input', { exact: true }).inputValue()).toBe('photo.png');
    expect(await page.getByLabel('width', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('quality', { exact: true }).inputValue()).toBe('70');
    expect(await page.getByLabel('strip', { exact: true }).isChecked()).toBe(true);
    expect(await page.locator('select[name="format"] option:checked').textContent()).toBe('webp');
    expect(await page.getByLabel('tag[0]', { exact: true }).count()).toBe(0);

    // "Edit as JSON" shows exactly the example's arguments
    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    expect(JSON.parse(await page.getByLabel('Arguments as JSON').inputValue())).toEqual({ format: 'webp', quality: 70, strip: true, input: 'photo.png' });
    await page.getByRole('button', { name: 'Back to the form' }).click();

    await page.getByRole('button', { name: 'Call shrink' }).click();
    const content = page.locator('[data-testid="result-content"]');
    await content.waitFor({ timeout: WAIT_MS });
    expect(await content.textContent()).toBe('[--quality]\n[70]\n[--format]\n[webp]\n[--strip]\n[photo.png]\n');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows no picker for a tool without examples', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(`${daemon.url}/`);
    await page.locator('#tool-list li[data-tool="read_file"] button').click();
    await page.getByRole('button', { name: 'Call read_file' }).waitFor();
    expect(await page.getByLabel('Fill from example', { exact: true }).count()).toBe(0);
    await page.close();
  });
});
