/**
 * The console's "Scheduled runs" panel in a real browser (Debian's Chromium driven by playwright-core)
 * against a real `toolhost serve` on loopback whose config has a schedule firing every second: the
 * panel shows the schedule and, as runs finish (call_finished on the page's event stream), its last
 * result and counts.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type Daemon } from './daemon.ts';

const CHROMIUM = process.env['TOOLHOST_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const WAIT_MS = 60_000;

describe('the console shows scheduled runs', { timeout: 180_000 }, () => {
  let browser: Browser;
  let workspace: { path: string; remove: () => void };
  let daemon: Daemon;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} (apt-get install chromium)`).toBe(true);
    workspace = temporaryDirectory('toolhost-console-schedules-');
    const config = join(workspace.path, 'toolhost.json');
    writeFileSync(config, JSON.stringify({ schedules: [{ name: 'heartbeat', cron: '* * * * * *', tool: 'list_dir', arguments: { path: '.' }, timezone: 'UTC' }] }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    daemon = await startDaemon(['--config', config, '--workspace', workspace.path], workspace.path);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    workspace?.remove();
  });

  it('lists the schedule with its next run, then its last result and counts as runs finish', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${daemon.url}/console`);
    const panel = page.locator('#schedules');
    await panel.waitFor({ state: 'visible' });
    const row = panel.locator('tr[data-schedule="heartbeat"]');
    await expect(row.locator('td').nth(1).textContent()).resolves.toBe('* * * * * *');
    await expect(row.locator('td').nth(2).textContent()).resolves.toBe('list_dir');
    // a finished run (call_finished on the page's stream) brings its result in
    await panel.locator('tr[data-schedule="heartbeat"][data-last-status="ok"]').waitFor({ state: 'attached' });
    expect(await row.getByTestId('last-run').textContent()).toMatch(/^ok \d{2}:\d{2}:\d{2} \(/);
    expect(await row.getByTestId('counts').textContent()).toMatch(/^[1-9]\d* \/ 0 \/ 0 \/ 0$/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
