/**
 * The web console in a real browser: headless Chromium (Debian's package) driven by playwright-core,
 * against a real `toolhost serve` process on loopback with a real extensions folder.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';
import { startDaemon, type Daemon } from './daemon.ts';

const CHROMIUM = process.env['TOOLHOST_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const GREET_WASM = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm');
const WAIT_MS = 60_000;

interface RawTool {
  name: string;
  source: string;
}

async function toolNames(daemon: Daemon, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await fetch(`${daemon.url}/v1/tools?format=raw`, { headers });
  const body = (await response.json()) as { tools: RawTool[] };
  return body.tools.map((tool) => tool.name);
}

async function callDirectly(daemon: Daemon, tool: string, args: Record<string, unknown>): Promise<{ content: string; is_error: boolean }> {
  const response = await fetch(`${daemon.url}/v1/tools/${tool}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
  return (await response.json()) as { content: string; is_error: boolean };
}

/**
 * Uncaught errors of the page's scripts, collected so a test can require none; also gives the page's
 * actions the tests' generous timeout (CI machines are busy).
 */
function pageErrors(page: Page): string[] {
  page.setDefaultTimeout(WAIT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Names in the catalog list, in order. */
async function listedTools(page: Page): Promise<string[]> {
  return page.locator('#tool-list li.tool-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-tool') ?? ''));
}

/** The text of the error element a control names in aria-describedby (its field error). */
async function fieldError(page: Page, label: string): Promise<string> {
  const control = page.getByLabel(label, { exact: true });
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(/\s+/);
  const errorId = ids.find((id) => id.endsWith('-error'));
  expect(errorId, `${label} has an error slot`).toBeDefined();
  const slot = page.locator(`[id="${errorId}"]`);
  await slot.waitFor({ state: 'visible' });
  return (await slot.textContent()) ?? '';
}

/** A schema with every control the form generates: enum, array, nested object, boolean, JSON. */
const RICH_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 2, description: 'What to look for' },
    mode: { type: 'string', enum: ['fast', 'thorough'] },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
    limits: { type: 'object', properties: { max: { type: 'integer', minimum: 1, maximum: 100 }, ratio: { type: 'number' } }, required: ['max'] },
    verbose: { type: 'boolean' },
    extra: { description: 'Anything', anyOf: [{ type: 'string' }, { type: 'object' }] },
  },
  required: ['query', 'tags'],
  additionalProperties: false,
};

/** Mounts the console's schema form for `schema` in the page, as `window.__form`. */
async function mountForm(page: Page, schema: object): Promise<void> {
  await page.evaluate(`(async () => {
    const { buildSchemaForm } = await import('/console/schema-form.js');
    window.__form = buildSchemaForm(${JSON.stringify(schema)});
    document.getElementById('tool-detail').replaceChildren(window.__form.element);
  })()`);
}

describe('web console in Chromium', { timeout: 180_000 }, () => {
  let browser: Browser;
  let workspace: { path: string; remove: () => void };
  let extensions: string;
  let daemon: Daemon;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} (apt-get install chromium)`).toBe(true);
    expect(existsSync(GREET_WASM), `${GREET_WASM} (npm run fixtures)`).toBe(true);
    workspace = temporaryDirectory('toolhost-console-');
    extensions = join(workspace.path, 'tools');
    mkdirSync(extensions);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    daemon = await startDaemon(['--extensions', extensions, '--workspace', workspace.path], workspace.path);
  }, 120_000);

  /** Tests after the hot-reload one use ext-greet too; this lets each of them run alone. */
  async function ensureGreet(): Promise<void> {
    const target = join(extensions, 'ext-greet.wasm');
    if (!existsSync(target)) copyFileSync(GREET_WASM, target);
    await expect.poll(() => toolNames(daemon), { timeout: WAIT_MS }).toContain('ext-greet');
  }

  afterAll(async () => {
    await daemon?.stop();
    await browser?.close();
    workspace?.remove();
  });

  it('opens on / with every tool the API lists, and asks nothing of another origin', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(daemon.url) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    const response = await page.goto(`${daemon.url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.locator('#tool-list li.tool-item').first().waitFor();
    const expected = await toolNames(daemon);
    expect(expected).toContain('read_file');
    expect(await listedTools(page)).toEqual(expected);
    await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');

    // Search (name and description, any case) and filters narrow the list.
    const all = (await (await fetch(`${daemon.url}/v1/tools?format=raw`)).json()) as { tools: { name: string; description: string }[] };
    await page.getByLabel('Search tools').fill('READ_file');
    const found = await listedTools(page);
    expect(found).toContain('read_file');
    expect(found).toEqual(all.tools.filter((tool) => `${tool.name} ${tool.description}`.toLowerCase().includes('read_file')).map((tool) => tool.name));
    expect(found.length).toBeLessThan(expected.length);
    await page.getByLabel('Search tools').fill('');
    await page.getByLabel('Permission').selectOption('write');
    const writers = await listedTools(page);
    expect(writers.length).toBeGreaterThan(0);
    expect(writers).not.toContain('read_file');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a dropped .wasm without a reload, with its policy and inspect report, and calls it from the form', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/console`);
    await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
    await page.evaluate('window.__sameDocument = true');

    copyFileSync(GREET_WASM, join(extensions, 'ext-greet.wasm'));
    await page.locator('#tool-list li[data-tool="ext-greet"]').waitFor({ timeout: WAIT_MS });
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    await page.locator('#changes li[data-type="added"]', { hasText: 'ext-greet' }).waitFor();

    await page.locator('#tool-list li[data-tool="ext-greet"] button').click();
    await page.locator('[data-testid="not-understood"]').waitFor({ timeout: WAIT_MS });
    const inspection = (await page.locator('section.inspection').textContent()) ?? '';
    expect(inspection).toContain('filesystem');
    expect(inspection).toContain('--greeting');

    await page.getByLabel('name', { exact: true }).fill('Ada');
    await page.getByLabel('times', { exact: true }).fill('2');
    await page.getByLabel('shout', { exact: true }).check();
    await page.getByRole('button', { name: 'Call ext-greet' }).click();
    const content = page.locator('[data-testid="result-content"]');
    await content.waitFor({ timeout: WAIT_MS });
    const expected = await callDirectly(daemon, 'ext-greet', { name: 'Ada', times: 2, shout: true });
    expect(expected.is_error).toBe(false);
    expect(expected.content).toContain('ADA');
    expect(await content.textContent()).toBe(expected.content);
    expect(await page.locator('[data-testid="result-status"]').textContent()).toBe('is_error: false');
    expect(JSON.parse((await page.locator('[data-testid="result-raw"]').textContent()) ?? '{}')).toMatchObject({ content: expected.content, is_error: false });

    // The live view saw the call, with its duration, and drew a chart for the tool.
    const row = page.locator('#calls-body tr[data-tool="ext-greet"]').first();
    await row.waitFor({ timeout: WAIT_MS });
    expect(await row.textContent()).toMatch(/\d+(\.\d+)? m?s/);
    await page.locator('#charts figure[data-tool="ext-greet"] svg rect').first().waitFor();

    expect(errors).toEqual([]);
    await page.close();
  });

  it('calls a built-in from its form and shows what it returned', async () => {
    const text = `console check ${process.pid} ${Date.now()}\n`;
    writeFileSync(join(workspace.path, 'note.txt'), text);
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await page.locator('#tool-list li[data-tool="read_file"] button').click();
    await page.getByLabel('path', { exact: true }).fill('note.txt');
    await page.getByRole('button', { name: 'Call read_file' }).click();
    const content = page.locator('[data-testid="result-content"]');
    await content.waitFor({ timeout: WAIT_MS });
    const expected = await callDirectly(daemon, 'read_file', { path: 'note.txt' });
    expect(expected.content).toContain(text.trim());
    expect(await content.textContent()).toBe(expected.content);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders an image a wasm tool printed as an <img> with its bytes', async () => {
    // The conformance fixture prints a 1x1 red PNG under this name; its .tool.json declares image/png.
    copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'mcp-conformance.wasm'), join(extensions, 'test_image_content.wasm'));
    copyFileSync(join(PROJECT_ROOT, 'test', 'conformance', 'tools', 'test_image_content.tool.json'), join(extensions, 'test_image_content.tool.json'));
    await expect.poll(() => toolNames(daemon), { timeout: WAIT_MS }).toContain('test_image_content');
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await page.locator('#tool-list li[data-tool="test_image_content"] button').click();
    await page.getByRole('button', { name: 'Call test_image_content' }).click();
    const image = page.locator('[data-testid="result-part-0"] img');
    await image.waitFor({ timeout: WAIT_MS });
    const expected = (await callDirectly(daemon, 'test_image_content', {})) as { parts?: Array<{ data: string }> };
    expect(expected.parts?.[0]?.data).toMatch(/^iVBORw0KGgo/);
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${expected.parts?.[0]?.data}`);
    expect(await image.getAttribute('alt')).toBe('image/png result');
    // Decoded by the browser (the CSP lets data: images through): the PNG's real size, 1x1.
    type Decoded = { complete: boolean; naturalWidth: number; naturalHeight: number };
    await expect.poll(() => image.evaluate((element) => (element as unknown as Decoded).complete && (element as unknown as Decoded).naturalWidth), { timeout: WAIT_MS }).toBe(1);
    expect(await image.evaluate((element) => (element as unknown as Decoded).naturalHeight)).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a wrong value as an error next to its field and does not call the tool', async () => {
    await ensureGreet();
    const page = await browser.newPage();
    const errors = pageErrors(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/call')) calls.push(request.url());
    });
    await page.goto(`${daemon.url}/`);
    await page.locator('#tool-list li[data-tool="ext-greet"] button').click();
    await page.getByLabel('name', { exact: true }).fill('Ada');
    await page.getByLabel('times', { exact: true }).fill('two');
    await page.getByRole('button', { name: 'Call ext-greet' }).click();
    expect(await fieldError(page, 'times')).toBe('Must be a whole number.');
    expect(await page.getByLabel('times', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.locator('#tool-list li[data-tool="read_file"] button').click();
    await page.getByRole('button', { name: 'Call read_file' }).click();
    expect(await fieldError(page, 'path')).toMatch(/^Required/);
    expect(calls).toEqual([]);

    // Fixing the value clears the error and the call goes through.
    await page.getByLabel('path', { exact: true }).fill('note.txt');
    await page.getByRole('button', { name: 'Call read_file' }).click();
    await page.locator('[data-testid="result-content"]').waitFor({ timeout: WAIT_MS });
    expect(await page.getByLabel('path', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(calls).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('generates controls for enums, arrays, nested objects, booleans and JSON, and validates each', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await mountForm(page, RICH_SCHEMA);

    await page.getByLabel('query', { exact: true }).fill('x');
    await page.getByLabel('limits.max', { exact: true }).fill('200');
    await page.getByLabel('extra', { exact: true }).fill('{oops');
    const problems = (await page.evaluate('window.__form.validate()')) as string[];
    expect(problems).toHaveLength(4);
    expect(await fieldError(page, 'query')).toBe('Must be at least 2 characters.');
    expect(await fieldError(page, 'limits.max')).toBe('Must be at most 100.');
    expect(await fieldError(page, 'extra')).toMatch(/^Must be valid JSON/);
    expect(await page.locator('fieldset[id$="-tags"] > .field-error').textContent()).toBe('Needs at least 1 item.');

    await page.getByLabel('query', { exact: true }).fill('needle');
    await page.getByLabel('mode', { exact: true }).selectOption({ label: 'thorough' });
    for (const tag of ['a', 'b', 'c']) {
      await page.getByRole('button', { name: 'Add an item to tags' }).click();
      await page.getByLabel(/^tags\[\d\]$/).last().fill(tag);
    }
    await page.getByRole('button', { name: 'Remove tags[1]' }).click();
    expect(await page.getByLabel('tags[1]', { exact: true }).inputValue()).toBe('c');
    await page.getByLabel('limits.max', { exact: true }).fill('7');
    await page.getByLabel('verbose', { exact: true }).check();
    await page.getByLabel('extra', { exact: true }).fill('{"k": [1, 2]}');
    expect(await page.evaluate('window.__form.validate()')).toEqual([]);
    expect(await page.evaluate('window.__form.read()')).toEqual({ query: 'needle', mode: 'thorough', tags: ['a', 'c'], limits: { max: 7 }, verbose: true, extra: { k: [1, 2] } });
    expect(await page.getByLabel('limits.max', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks for the token once on a token-protected daemon and keeps it for the session', async () => {
    await ensureGreet();
    const token = `t-${process.pid}-${Date.now()}`;
    const guarded = await startDaemon(['--token', token, '--extensions', extensions, '--workspace', workspace.path], workspace.path);
    try {
      expect((await fetch(`${guarded.url}/v1/tools`)).status).toBe(401);
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = pageErrors(page);
      await page.goto(`${guarded.url}/`);
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.waitFor();
      // Plain words: what the token is and where it comes from, no HTTP header talk.
      const firstAsk = (await page.locator('#token-reason').textContent()) ?? '';
      expect(firstAsk).toContain('--token');
      expect(firstAsk).not.toMatch(/bearer|authorization|header|401|session storage/i);
      await page.getByLabel('Token', { exact: true }).fill('wrong');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.locator('#token-reason').textContent()).toBe('That token did not work. Check that it is the whole value and try again.');
      await page.getByLabel('Token', { exact: true }).fill(token);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.locator('#tool-list li.tool-item').first().waitFor();
      expect(await listedTools(page)).toEqual(await toolNames(guarded, { authorization: `Bearer ${token}` }));
      expect(await page.evaluate('sessionStorage.getItem("toolhost.token")')).toBe(token);
      await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');

      // A reload in the same tab does not ask again.
      await page.reload();
      await page.locator('#tool-list li.tool-item').first().waitFor();
      expect(await dialog.isVisible()).toBe(false);

      // A call from the form carries the token, and the token-authenticated event stream reports it.
      await page.locator('#tool-list li[data-tool="ext-greet"] button').click();
      await page.getByLabel('name', { exact: true }).fill('Grace');
      await page.getByRole('button', { name: 'Call ext-greet' }).click();
      await page.locator('[data-testid="result-content"]').waitFor({ timeout: WAIT_MS });
      expect(await page.locator('[data-testid="result-content"]').textContent()).toContain('Grace');
      await page.locator('#calls-body tr[data-tool="ext-greet"]').first().waitFor({ timeout: WAIT_MS });
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await guarded.stop();
    }
  });

  it('approvals: without the admin token it says where the token is; signed in with it, it lists calls and decides them', async () => {
    await ensureGreet();
    const config = join(workspace.path, 'approvals.json');
    writeFileSync(config, JSON.stringify({ approvals: [{ tool: 'ext-greet', action: 'ask' }] }));
    const gated = await startDaemon(['--config', config, '--extensions', extensions, '--workspace', workspace.path], workspace.path);
    try {
      const adminToken = gated.adminToken ?? '';
      expect(adminToken).not.toBe('');
      const page = await browser.newPage();
      const errors = pageErrors(page);
      await page.goto(`${gated.url}/`);
      await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
      await expect.poll(() => page.locator('#auth-kind').textContent()).toBe('no token');
      expect(await page.locator('#admin-sign-in').isVisible()).toBe(true);
      expect(await page.locator('#approvals').isVisible()).toBe(false);

      // Not signed in with the admin token: a waiting call is announced, without its arguments or buttons.
      const first = callDirectly(gated, 'ext-greet', { name: 'Lin' });
      const locked = page.locator('#approvals-locked');
      await locked.waitFor({ timeout: WAIT_MS });
      const note = (await locked.textContent()) ?? '';
      expect(note).toContain("A call waits for a person's decision.");
      expect(note).toContain(`admin-token-${new URL(gated.url).port}`);
      expect(note).toContain('printed it on stderr');
      expect(note).not.toContain('Lin');
      expect(await page.locator('#approval-list li').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Allow / }).count()).toBe(0);

      // Sign in: a wrong token is refused in the dialog, the admin token opens the panel.
      await page.locator('#approvals-sign-in').click();
      const dialog = page.getByRole('dialog', { name: 'Admin token' });
      await dialog.waitFor();
      expect((await page.locator('#token-reason').textContent()) ?? '').not.toMatch(/bearer|authorization/i);
      await page.getByLabel('Token', { exact: true }).fill('not-the-admin-token-000');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.locator('#token-reason').textContent()).toContain('That is not the admin token');
      expect(await page.locator('#token-reason').textContent()).toContain('printed it on stderr');
      await page.getByLabel('Token', { exact: true }).fill(adminToken);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.locator('#auth-kind').textContent(), { timeout: WAIT_MS }).toBe('admin token');
      expect(await page.locator('#admin-sign-in').isVisible()).toBe(false);
      expect(await page.evaluate('sessionStorage.getItem("toolhost.token")')).toBe(adminToken);

      const waiting = page.locator('#approval-list li[data-tool="ext-greet"]');
      await waiting.waitFor({ timeout: WAIT_MS });
      expect(await waiting.locator('pre').textContent()).toContain('"Lin"');
      await waiting.getByRole('button', { name: /^Allow ext-greet call / }).click();
      const result = await first;
      expect(result.is_error).toBe(false);
      expect(result.content).toContain('Lin');
      await waiting.waitFor({ state: 'detached' });

      const denied = callDirectly(gated, 'ext-greet', { name: 'Mo' });
      await waiting.waitFor({ timeout: WAIT_MS });
      expect(await waiting.locator('pre').textContent()).toContain('"Mo"');
      await waiting.getByRole('button', { name: /^Deny ext-greet call / }).click();
      expect((await denied).is_error).toBe(true);
      await waiting.waitFor({ state: 'detached' });

      const always = callDirectly(gated, 'ext-greet', { name: 'Al' });
      await waiting.waitFor({ timeout: WAIT_MS });
      await waiting.getByRole('button', { name: /^Always allow ext-greet call / }).click();
      expect((await always).is_error).toBe(false);
      await waiting.waitFor({ state: 'detached' });
      // The identical call now runs without asking.
      expect((await callDirectly(gated, 'ext-greet', { name: 'Al' })).is_error).toBe(false);
      await page.locator('#approvals').waitFor({ state: 'hidden' });
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await gated.stop();
    }
  });

  it('takes the admin token at the token prompt of a token-protected daemon, and shows which token is in use', async () => {
    await ensureGreet();
    const token = `t-${process.pid}-${Date.now()}`;
    const config = join(workspace.path, 'approvals-guarded.json');
    writeFileSync(config, JSON.stringify({ approvals: [{ tool: 'ext-greet', action: 'ask' }] }));
    const guarded = await startDaemon(['--token', token, '--config', config, '--extensions', extensions, '--workspace', workspace.path], workspace.path);
    try {
      const adminToken = guarded.adminToken ?? '';
      // The regular token: tools, yes; approvals, no.
      const regularTab = await browser.newContext();
      const regularPage = await regularTab.newPage();
      pageErrors(regularPage);
      await regularPage.goto(`${guarded.url}/`);
      await regularPage.getByRole('dialog', { name: 'Sign in' }).waitFor();
      await regularPage.getByLabel('Token', { exact: true }).fill(token);
      await regularPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await regularPage.locator('#tool-list li.tool-item').first().waitFor();
      await expect.poll(() => regularPage.locator('#auth-kind').textContent()).toBe('token (not admin)');
      expect(await regularPage.locator('#admin-sign-in').isVisible()).toBe(true);
      await regularTab.close();

      // The admin token at the same prompt: everything, approvals included.
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = pageErrors(page);
      await page.goto(`${guarded.url}/`);
      await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Token', { exact: true }).fill(adminToken);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.locator('#tool-list li.tool-item').first().waitFor();
      await expect.poll(() => page.locator('#auth-kind').textContent()).toBe('admin token');
      await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
      const call = fetch(`${guarded.url}/v1/tools/ext-greet/call`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ arguments: { name: 'Kay' } }) });
      const waiting = page.locator('#approval-list li[data-tool="ext-greet"]');
      await waiting.waitFor({ timeout: WAIT_MS });
      expect(await waiting.locator('pre').textContent()).toContain('"Kay"');
      await waiting.getByRole('button', { name: /^Allow ext-greet call / }).click();
      expect(((await (await call).json()) as { is_error: boolean }).is_error).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await guarded.stop();
    }
  });

  it('lists the files that failed to load before the page opened, each with its reason', async () => {
    writeFileSync(join(extensions, 'broken-early.wasm'), 'not a component either');
    try {
      await expect.poll(async () => ((await (await fetch(`${daemon.url}/healthz`)).json()) as { load_failures: number }).load_failures, { timeout: WAIT_MS }).toBeGreaterThan(0);
      const page = await browser.newPage();
      const errors = pageErrors(page);
      await page.goto(`${daemon.url}/`);
      const failure = page.locator('#changes li[data-type="load_failed"]', { hasText: 'broken-early.wasm' });
      await failure.waitFor({ timeout: WAIT_MS });
      expect((await failure.locator('.change-detail').textContent()) ?? '').toMatch(/before this page opened/);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      rmSync(join(extensions, 'broken-early.wasm'));
    }
  });

  it('reports hot-reload changes live: a file that fails to load with its reason, and a removed tool leaving the catalog', async () => {
    await ensureGreet();
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${daemon.url}/`);
    await expect.poll(() => page.locator('#stream-status').getAttribute('data-state'), { timeout: WAIT_MS }).toBe('open');
    await page.locator('#tool-list li[data-tool="ext-greet"] button').click();

    writeFileSync(join(extensions, 'broken.wasm'), 'this is not a component');
    const failure = page.locator('#changes li[data-type="load_failed"]', { hasText: 'broken.wasm' });
    await failure.waitFor({ timeout: WAIT_MS });
    const reason = (await failure.locator('.change-detail').textContent()) ?? '';
    expect(reason.length).toBeGreaterThan(0);
    rmSync(join(extensions, 'broken.wasm'));

    rmSync(join(extensions, 'ext-greet.wasm'));
    await page.locator('#changes li[data-type="removed"]', { hasText: 'ext-greet' }).waitFor({ timeout: WAIT_MS });
    await page.locator('#tool-list li[data-tool="ext-greet"]').waitFor({ state: 'detached', timeout: WAIT_MS });
    expect(await page.locator('#tool-detail').textContent()).toContain('ext-greet is no longer served');
    expect(errors).toEqual([]);
    await page.close();
  });
});
