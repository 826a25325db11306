/**
 * The console in identity mode, in a real browser (headless Chromium via playwright-core): it asks
 * for an access token, shows who is signed in, and lists only the tools that principal may use;
 * every request the page makes carries the token.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIdentityDaemon, type IdentityDaemon } from './identity-daemon.ts';
import { startIssuer, type TestIssuer } from './oidc-issuer.ts';

const CHROMIUM = process.env['TOOLHOST_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const WAIT_MS = 60_000;

let issuer: TestIssuer;
let daemon: IdentityDaemon;
let browser: Browser;

beforeAll(async () => {
  issuer = await startIssuer({ clients: [{ client_id: 'alice', scope: 'tools:read tools:write' }, { client_id: 'bob', scope: 'tools:read' }], scopes: ['tools:read', 'tools:write'] });
  daemon = await startIdentityDaemon(issuer.issuer, { auth: { scopes: { 'tools:read': 'read_only', 'tools:write': 'write' } } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.close();
  await issuer?.close();
});

async function signedInPage(client: 'alice' | 'bob', scope: string): Promise<{ tools: string[]; who: string }> {
  const token = await issuer.clientToken(client, { scope, resource: daemon.audience });
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(`${daemon.url}/`);
    await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#token-reason').textContent()).toContain('signs people in with OAuth');
    await page.getByLabel('Token', { exact: true }).fill(token);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.locator('#auth-kind').textContent(), { timeout: WAIT_MS }).toMatch(/^signed in as /);
    await page.locator('#tool-list li.tool-item').first().waitFor();
    const tools = await page.locator('#tool-list li.tool-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-tool') ?? ''));
    const who = (await page.locator('#auth-kind').textContent()) ?? '';
    expect(errors).toEqual([]);
    return { tools, who };
  } finally {
    await page.close();
  }
}

it('shows who is signed in and only the tools they may use', async () => {
  const bob = await signedInPage('bob', 'tools:read');
  expect(bob.who).toBe('signed in as bob (read_only)');
  expect(bob.tools).toContain('read_file');
  expect(bob.tools).not.toContain('write_file');
  const alice = await signedInPage('alice', 'tools:read tools:write');
  expect(alice.who).toBe('signed in as alice (write)');
  expect(alice.tools).toContain('write_file');
});
