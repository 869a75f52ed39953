import { existsSync } from 'node:fs';
import { CHROMIUM, CHROMIUM_ARGS } from '@touchbase/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `browser login test skipped: ${CHROMIUM} is missing (apt-get install -y chromium; npm run setup does it where apt is available)`,
  );
}

// A real Chromium (Debian's) driven by playwright-core: what a person does to reach Bull Board.
describe.skipIf(!hasChromium)('a browser signs in and reaches Bull Board', () => {
  let f: ApiFixture;
  let browser: Browser;
  let base: string;
  let key: string;

  beforeAll(async () => {
    f = await apiFixture('browser_login', { adminToken: 'browser-admin-token-0123456789' });
    key = await f.key('admin', 'ops-browser');
    // Loopback only: the page is never reachable from elsewhere.
    await f.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(f.app.server.address() as { port: number }).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it('the login form, then the queues page renders; logout ends it', async () => {
    // A fresh context: its own empty profile, no cookie.
    const context = await browser.newContext();
    const page = await context.newPage();
    const first = await page.goto(`${base}/admin/queues`);
    expect(first?.status()).toBe(401);
    await page.getByLabel('API key').fill('tb_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toContain('unknown or revoked');

    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/admin/queues`);
    // Bull Board's own page (a script app) lists the queue once it has read its API with the cookie.
    await page.getByRole('link', { name: 'touches' }).first().waitFor({ state: 'visible', timeout: 30_000 });

    const [cookie] = await context.cookies(base);
    expect(cookie).toMatchObject({ name: 'touchbase_session', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate('document.cookie')).toBe('');

    await page.goto(`${base}/login`);
    await expect.poll(() => page.locator('main').textContent()).toContain('Signed in as ops-browser');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/login`);
    expect((await page.goto(`${base}/admin/queues`))?.status()).toBe(401);
    await context.close();
  }, 120_000);
});
