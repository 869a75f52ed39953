import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from '@touchbase/testing';
import { chromium, type Page } from 'playwright-core';
import type { ApiFixture } from './api-fixture.js';

/** The console bundle the API serves in these tests (`node scripts/build-console.mjs` builds it). */
export const CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));

/** Whether a console check can run here: Debian's Chromium and the console bundle are both present. */
export function consoleCheckable(file: string): boolean {
  const ok = existsSync(CHROMIUM) && existsSync(join(CONSOLE_DIR, 'console.js'));
  if (!ok) {
    console.warn(
      `the console check of ${file} is skipped: ${CHROMIUM} or the console bundle is missing (npm run setup)`,
    );
  }
  return ok;
}

/**
 * Opens the console at `path` (the fixture's app listening on a free port) in Debian's
 * Chromium, signs in with a read key named `keyName`, and hands the page to `check`;
 * the browser is closed afterwards, whatever `check` did.
 */
export async function inConsole(
  f: ApiFixture,
  path: string,
  keyName: string,
  check: (page: Page, base: string) => Promise<void>,
): Promise<void> {
  await f.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(f.app.server.address() as { port: number }).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  try {
    const page = await (await browser.newContext()).newPage();
    const url = `${base}${path}`;
    await page.goto(url);
    await page.getByLabel('API key').fill(await f.key('read', keyName));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url);
    await check(page, base);
  } finally {
    await browser.close();
  }
}
