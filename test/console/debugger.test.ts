/**
 * The console as a debugger, in a real browser (Debian's Chromium driven by playwright-core) against a
 * real `toolhost serve` on loopback with real wasm tools (the tour's prebuilt hashenc, wasi-exit that
 * writes to stderr, cobra-notes with per-command options) and a config with approval rules and a quota:
 * opening calls (also those made before the page opened), the raw-JSON mode, subcommand-aware forms,
 * a stale result cleared by a new validation error, the approval rules and quotas, the protocol log,
 * and the README screenshot.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type Daemon } from './daemon.ts';

const CHROMIUM = process.env['TOOLHOST_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const PREBUILT = join(PROJECT_ROOT, 'extensions', 'examples', 'prebuilt');
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');
/** Where the screenshot for the README is kept; rewritten only with UPDATE_CONSOLE_SCREENSHOT=1. */
const README_SCREENSHOT = join(PROJECT_ROOT, 'test', 'console', 'console.png');
const WAIT_MS = 60_000;
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

function pageErrors(page: Page): string[] {
  page.setDefaultTimeout(WAIT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function post(daemon: Daemon, path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${daemon.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
}

async function call(daemon: Daemon, tool: string, args: unknown): Promise<{ content: string; is_error: boolean; metadata?: Record<string, unknown> }> {
  return (await post(daemon, `/v1/tools/${tool}/call`, { arguments: args })).json() as Promise<{ content: string; is_error: boolean }>;
}

describe('the console as a debugger', { timeout: 240_000 }, () => {
  let browser: Browser;
  let workspace: { path: string; remove: () => void };
  let daemon: Daemon;
  let admin: string;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} (apt-get install chromium)`).toBe(true);
    expect(existsSync(join(PREBUILT, 'hashenc.wasm')), 'the prebuilt tour tool').toBe(true);
    workspace = temporaryDirectory('toolhost-console-debug-');
    const tools = join(workspace.path, 'tools');
    mkdirSync(tools);
    for (const file of ['hashenc.wasm', 'hashenc.tool.json']) copyFileSync(join(PREBUILT, file), join(tools, file));
    copyFileSync(join(FIXTURES, 'wasi-exit.wasm'), join(tools, 'exiter.wasm'));
    copyFileSync(join(FIXTURES, 'cobra-notes.wasm'), join(tools, 'notes.wasm'));
    const config = join(workspace.path, 'toolhost.json');
    writeFileSync(
      config,
      JSON.stringify({
        approvals: [
          { tool: 'hashenc', match: { command: 'hex' }, action: 'ask' },
          { tool: 'write_file', action: 'deny' },
        ],
        quotas: { hashenc: { per_minute: 500 } },
      }),
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    daemon = await startDaemon(['--config', config, '--extensions', tools, '--workspace', workspace.path], workspace.path);
    admin = daemon.adminToken ?? '';
    expect(admin).not.toBe('');
    let loaded: string[] = [];
    const names = async (): Promise<string[]> => ((await (await fetch(`${daemon.url}/v1/tools?format=raw`)).json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    // Loaded in the background after the daemon listens: wait for the three (expect.poll is for tests only).
    const deadline = Date.now() + WAIT_MS * 2;
    while (!['hashenc', 'exiter', 'notes'].every((name) => loaded.includes(name))) {
      if (Date.now() > deadline) throw new Error(`tools did not load: ${loaded.join(', ')}\n${daemon.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      loaded = await names();
    }
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await browser?.close();
    workspace?.remove();
  });

  /** A tab signed in with the admin token (kept in its session storage, as the sign-in does). */
  async function adminContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(`sessionStorage.setItem('toolhost.token', ${JSON.stringify(admin)})`);
    return context;
  }

  async function openTool(page: Page, name: string): Promise<void> {
    await page.locator(`#tool-list li[data-tool="${name}"] button`).click();
    await page.locator(`article.tool-page[data-tool="${name}"]`).waitFor();
  }

  it('opens calls made before the page opened: arguments, result, stderr, refusal, duration, and who decided an approval', async () => {
    const digest = await call(daemon, 'hashenc', { command: 'sha256', text: 'abc' });
    expect(digest).toMatchObject({ is_error: false, content: ABC_SHA256 });
    const invalid = await call(daemon, 'hashenc', { command: 'sha256', text: 'abc', shout: true });
    expect(invalid.is_error).toBe(true);
    const exiter = await call(daemon, 'exiter', {});
    expect(exiter.metadata?.['stderr']).toContain('stderr-before-exit');
    const denied = await call(daemon, 'write_file', { path: 'x.txt', content: 'nope' });
    expect(denied.is_error).toBe(true);
    // An `ask`: decided by a person through the approvals API.
    const asked = call(daemon, 'hashenc', { command: 'hex', text: 'hi' });
    let pending: { id: string } | undefined;
    await expect
      .poll(
        async () => {
          const body = (await (await fetch(`${daemon.url}/v1/approvals`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { approvals: { id: string }[] };
          pending = body.approvals[0];
          return body.approvals.length;
        },
        { timeout: WAIT_MS },
      )
      .toBe(1);
    expect((await post(daemon, `/v1/approvals/${pending?.id}`, { decision: 'allow' }, admin)).status).toBe(200);
    expect((await asked).content).toBe('6869');

    const context = await adminContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await expect.poll(() => page.locator('#auth-kind').textContent(), { timeout: WAIT_MS }).toBe('admin token');
    const history = page.locator('#calls-body tr[data-source="history"]');
    await expect.poll(() => history.count(), { timeout: WAIT_MS }).toBeGreaterThanOrEqual(5);
    expect(await page.locator('#history-note').isVisible()).toBe(false);
    const dialog = page.getByRole('dialog', { name: /^Call to / });

    // The successful call: arguments, content, duration.
    await page.locator('#calls-body tr[data-tool="hashenc"][data-source="history"]').last().click();
    await dialog.waitFor();
    expect(JSON.parse((await dialog.getByTestId('call-arguments').textContent()) ?? '{}')).toEqual({ command: 'sha256', text: 'abc' });
    expect(await dialog.getByTestId('call-content').textContent()).toBe(ABC_SHA256);
    expect(await dialog.getByTestId('call-duration').textContent()).toMatch(/^\d+(\.\d+)? m?s$/);
    expect(await dialog.getByTestId('call-refusal').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The refused ones: invalid arguments, an approval rule's deny.
    const rowOf = async (predicate: (record: { arguments: Record<string, unknown> | null; tool: string }) => boolean): Promise<string> => {
      const list = (await (await fetch(`${daemon.url}/v1/calls`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { calls: { call_id: string }[] };
      for (const summary of list.calls) {
        const record = (await (await fetch(`${daemon.url}/v1/calls/${summary.call_id}`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { call_id: string; arguments: Record<string, unknown> | null; tool: string };
        if (predicate(record)) return record.call_id;
      }
      throw new Error('no such call in the history');
    };
    const invalidId = await rowOf((record) => record.arguments?.['shout'] === true);
    await page.locator(`#calls-body tr[data-call="${invalidId}"]`).getByRole('button').click();
    await dialog.getByTestId('call-refusal').waitFor();
    expect(await dialog.getByTestId('call-refusal').getAttribute('data-kind')).toBe('validation');
    expect(await dialog.getByTestId('call-content').textContent()).toContain('shout');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.locator(`#calls-body tr[data-call="${await rowOf((record) => record.tool === 'write_file')}"]`).click();
    await dialog.getByTestId('call-refusal').waitFor();
    expect(await dialog.getByTestId('call-refusal').getAttribute('data-kind')).toBe('approval');
    expect(await dialog.getByTestId('call-refusal').textContent()).toContain('approval rule 2');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // stderr, and who decided the approval.
    await page.locator(`#calls-body tr[data-call="${await rowOf((record) => record.tool === 'exiter')}"]`).click();
    await dialog.getByTestId('call-stderr').waitFor();
    expect(await dialog.getByTestId('call-stderr').textContent()).toContain('stderr-before-exit');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator(`#calls-body tr[data-call="${await rowOf((record) => record.arguments?.['command'] === 'hex')}"]`).click();
    await dialog.getByTestId('call-approval').waitFor();
    expect(await dialog.getByTestId('call-approval').textContent()).toMatch(/^Allowed by a person in the console or through the approvals API/);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // A call made while the page is open shows live, and opens the same way.
    await call(daemon, 'hashenc', { command: 'base64', text: 'live' });
    const live = page.locator('#calls-body tr[data-source="live"][data-tool="hashenc"]');
    await live.first().waitFor({ timeout: WAIT_MS });
    await live.first().click();
    await expect.poll(() => dialog.getByTestId('call-content').textContent(), { timeout: WAIT_MS }).toBe('bGl2ZQ==');
    // Each call is listed once, whether the history or the stream reported it.
    const ids = await page.locator('#calls-body tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-call')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without the admin token, lists only live calls and asks for the admin token to open one', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
    expect(await page.locator('#history-note').isVisible()).toBe(true);
    expect(await page.locator('#calls-body tr[data-source="history"]').count()).toBe(0);
    await call(daemon, 'hashenc', { command: 'sha256', text: 'secret-ish input' });
    const row = page.locator('#calls-body tr[data-tool="hashenc"]').first();
    await row.waitFor({ timeout: WAIT_MS });
    await row.click();
    const locked = page.getByTestId('call-locked');
    await locked.waitFor();
    expect(await page.locator('#call-body').textContent()).not.toContain('secret-ish input');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits the arguments as JSON, checked against the schema before sending', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/call')) calls.push(request.postData() ?? '');
    });
    await page.goto(`${daemon.url}/`);
    await openTool(page, 'hashenc');
    await page.getByLabel('command', { exact: true }).selectOption({ label: 'sha256' });
    await page.getByLabel('text', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    const json = page.getByLabel('Arguments as JSON', { exact: true });
    // The form's values carry over.
    expect(JSON.parse(await json.inputValue())).toEqual({ command: 'sha256', text: 'abc' });
    const problems = page.locator('.json-problems li');

    await json.fill('{"command": "sha256", "text": 5, "bogus": 1}');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    await problems.first().waitFor();
    const listed = await problems.allTextContents();
    expect(listed).toContain('text: Must be a string, not a number.');
    expect(listed.some((line) => line.startsWith('bogus: Unknown parameter'))).toBe(true);
    expect(await json.getAttribute('aria-invalid')).toBe('true');

    await json.fill('{"command": "md5", "text": "abc"}');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    await expect.poll(() => problems.allTextContents()).toEqual(['command: Must be one of "sha256", "base64", "hex".']);

    await json.fill('{"command": "sha256", "text": "abc"');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    await expect.poll(() => problems.first().textContent()).toMatch(/^Not valid JSON/);
    expect(calls).toEqual([]);

    await json.fill('{"command": "sha256", "text": "abc"}');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    const content = page.getByTestId('result-content');
    await content.waitFor({ timeout: WAIT_MS });
    expect(await content.textContent()).toBe(ABC_SHA256);
    expect(calls.map((body) => JSON.parse(body))).toEqual([{ arguments: { command: 'sha256', text: 'abc' } }]);
    expect(await json.getAttribute('aria-invalid')).toBeNull();

    // A new mistake clears the old answer.
    await json.fill('{"text": "abc"}');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    await content.waitFor({ state: 'detached' });
    expect(await problems.allTextContents()).toEqual(['command: Required.']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('clears a stale result when the form shows a new validation error', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await openTool(page, 'hashenc');
    await page.getByLabel('command', { exact: true }).selectOption({ label: 'sha256' });
    await page.getByLabel('text', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    const content = page.getByTestId('result-content');
    await content.waitFor({ timeout: WAIT_MS });
    await page.getByLabel('command', { exact: true }).selectOption({ index: 0 });
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    await page.locator('.form-summary').waitFor({ state: 'visible' });
    await content.waitFor({ state: 'detached' });
    expect(await page.locator('.result-slot').textContent()).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows only the chosen command's own parameters, and sends only those", async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await openTool(page, 'notes');
    const visible = async (label: string): Promise<boolean> => page.getByLabel(label, { exact: true }).isVisible();
    // Before a command is chosen: the root's own flag only.
    expect(await visible('verbose')).toBe(true);
    expect(await visible('limit')).toBe(false);
    expect(await visible('priority')).toBe(false);
    await page.getByLabel('command', { exact: true }).selectOption({ label: 'list' });
    expect(await visible('limit')).toBe(true);
    expect(await visible('tag')).toBe(true);
    expect(await visible('priority')).toBe(false);
    expect(await visible('text')).toBe(false);
    await page.getByLabel('limit', { exact: true }).fill('3');
    await page.getByLabel('command', { exact: true }).selectOption({ label: 'add' });
    expect(await visible('limit')).toBe(false);
    expect(await visible('priority')).toBe(true);
    expect(await visible('text')).toBe(true);
    await page.getByLabel('text', { exact: true }).fill('buy milk');
    await page.getByLabel('priority', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Call notes' }).click();
    const content = page.getByTestId('result-content');
    await content.waitFor({ timeout: WAIT_MS });
    // The limit typed while `list` was chosen is not sent with `add`.
    expect((await content.textContent())?.trim()).toBe('argv: add --priority 2 --text buy milk');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the approval rules and the quotas (rules with the admin token only)', async () => {
    const context = await adminContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await page.locator('#gates > summary').click();
    const rules = page.getByTestId('approval-rules');
    await rules.waitFor();
    const rows = await rules.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('hashenc');
    expect(rows[0]).toContain('command matches "hex"');
    expect(rows[0]).toContain('ask: waits for a person');
    expect(rows[1]).toContain('deny');
    const quota = page.getByTestId('quotas').locator('tr[data-quota="hashenc"]');
    await quota.waitFor();
    expect(await quota.textContent()).toContain('500 per minute');
    const before = Number(await quota.locator('td').nth(4).textContent());
    // A call refreshes the quota's numbers while the panel is open.
    await call(daemon, 'hashenc', { command: 'sha256', text: 'count me' });
    await expect.poll(async () => Number(await quota.locator('td').nth(4).textContent()), { timeout: WAIT_MS }).toBeGreaterThan(before);
    await context.close();

    const anonymous = await browser.newPage();
    pageErrors(anonymous);
    await anonymous.goto(`${daemon.url}/`);
    await anonymous.locator('#gates > summary').click();
    await anonymous.getByTestId('rules-locked').waitFor();
    await anonymous.getByTestId('quotas').waitFor();
    expect(errors).toEqual([]);
    await anonymous.close();
  });

  it("logs the page's own requests: method, URL, status, duration, sizes", async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
    const panel = page.locator('#protocol-log');
    expect(await page.locator('#protocol-body').isVisible()).toBe(false);
    await panel.locator('summary').click();
    const tools = page.locator('#protocol-body tr[data-url="/v1/tools?format=raw"]').first();
    await tools.waitFor();
    expect(await tools.getAttribute('data-method')).toBe('GET');
    expect(await tools.getAttribute('data-status')).toBe('200');
    const cells = await tools.locator('td').allTextContents();
    expect(cells[4]).toMatch(/^\d+(\.\d+)? m?s$/);
    expect(cells[6]).toMatch(/^\d+(\.\d+)? (B|KiB|MiB)$/);
    // Without the admin token the approvals probe answers 401: logged as it was.
    expect(await page.locator('#protocol-body tr[data-url="/v1/approvals"]').first().getAttribute('data-status')).toBe('401');
    // The event stream counts the bytes it receives.
    expect(await page.locator('#protocol-body tr[data-url="/v1/events"]').first().getAttribute('data-status')).toBe('200');

    await openTool(page, 'hashenc');
    await page.getByLabel('command', { exact: true }).selectOption({ label: 'sha256' });
    await page.getByLabel('text', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    const posted = page.locator('#protocol-body tr[data-url="/v1/tools/hashenc/call"]');
    await posted.waitFor();
    expect(await posted.getAttribute('data-method')).toBe('POST');
    const postCells = await posted.locator('td').allTextContents();
    expect(postCells[5]).toBe(`${JSON.stringify({ arguments: { command: 'sha256', text: 'abc' } }).length} B`);
    // Nothing of the token or the bodies is in the log.
    expect(await panel.textContent()).not.toContain('abc"');
    await page.locator('#protocol-clear').click();
    expect(await page.locator('#protocol-body tr').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('takes the README screenshot: the tour tool called from its form, with a clean result', async () => {
    const context = await adminContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${daemon.url}/`);
    await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
    await openTool(page, 'hashenc');
    await page.locator('[data-testid="not-understood"]').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('command', { exact: true }).selectOption({ label: 'sha256' });
    await page.getByLabel('text', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Call hashenc' }).click();
    const content = page.getByTestId('result-content');
    await content.waitFor({ timeout: WAIT_MS });
    expect(await content.textContent()).toBe(ABC_SHA256);
    await page.locator('#charts figure[data-tool="hashenc"] svg rect').first().waitFor({ timeout: WAIT_MS });
    const shot = join(tmpdir(), `toolhost-console-${process.pid}.png`);
    await page.screenshot({ path: shot, fullPage: false });
    console.log(`console screenshot: ${shot}`);
    if (process.env['UPDATE_CONSOLE_SCREENSHOT'] === '1') copyFileSync(shot, README_SCREENSHOT);
    expect(errors).toEqual([]);
    await context.close();
  });
});
