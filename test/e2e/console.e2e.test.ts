import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@touchbase/api';
import { CHROMIUM, CHROMIUM_ARGS, waitFor } from '@touchbase/testing';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem, waitForEnded } from '../support/test-system.js';
import { postHttp, WEBHOOK_ENV } from './ingest-support.js';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `console browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium; npm run setup does it where apt is available)`,
  );
}
// The README's two pictures. A run takes and checks them; it writes them over docs/ only when
// asked (`UPDATE_DOCS_SCREENSHOTS=1`), so a test run leaves the working tree and the docs as they were.
const UPDATE_DOCS_SCREENSHOTS = process.env.UPDATE_DOCS_SCREENSHOTS === '1';
const SCREENSHOT = fileURLToPath(new URL('../../docs/console.png', import.meta.url));
const SIMULATION_SCREENSHOT = fileURLToPath(new URL('../../docs/console-simulate.png', import.meta.url));
const VIEWPORT = { width: 1366, height: 860 };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A number as the console prints it (`1,234`); NaN for a dash. */
const num = (text: string | null) => Number((text ?? '').replace(/[,\s]/g, ''));
/** A request to run a dry run (the console asks with `?picture=svg`). */
const isSimulation = (url: string) => new URL(url).pathname === '/v1/simulations';

// The operator console in a real Chromium (Debian's, driven by playwright-core) against the
// whole system running on the sandbox: one browser, one profile of its own, a few pages.
describe.skipIf(!hasChromium)('the operator console in a browser, against the running system', () => {
  let sys: TestSystem;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let key: string;
  const errors: string[] = [];
  const ids = { campaign: '', waiting: '', domain: '', domainName: '', spareMailbox: '', patientMailbox: '' };

  /** The API as a client sees it, with the admin key. */
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(sys.apiUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON answers loosely
    const json = (await res.json()) as any;
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };

  beforeAll(async () => {
    sys = await startTestSystem('console_e2e', {
      SANDBOX_REPLY_RATE: '0.3',
      SANDBOX_BOUNCE_RATE: '0.1',
      HTTP_PROVIDER_WEBHOOK_SECRET: WEBHOOK_ENV.HTTP_PROVIDER_WEBHOOK_SECRET,
    });
    // Open while no key exists: the fixture's own calls, then a key closes the API to the browser.
    const mailbox = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'sdr@outreach-sender.example',
      windowDays: [],
    });
    const campaign = await sys.api('POST', '/v1/sequences', {
      name: 'Spring outreach',
      steps: [
        {
          subject: 'Hello {{firstName|there}}',
          body: 'A first note to {{company|your team}}',
          wait: '1d',
          variants: [{ subject: 'Quick question, {{firstName|there}}', body: 'A shorter first note' }],
        },
        { subject: 'unused', body: 'A follow-up', wait: '2d' },
        { subject: 'unused', body: 'A last note', wait: '2d' },
      ],
    });
    const people = await sys.api('POST', '/v1/prospects', {
      prospects: Array.from({ length: 16 }, (_, i) => ({
        email: `lead-${i}@customers.example`,
        firstName: `Lead${i}`,
        company: 'Customers Inc',
      })),
    });
    ids.campaign = campaign.body.id;
    await sys.api('POST', '/v1/enrollments', {
      sequenceId: campaign.body.id,
      mailboxId: mailbox.body.id,
      prospectIds: people.body.prospects.map((p: { id: string }) => p.id),
    });

    // One enrollment that waits: its first touch is sent, the next is due ten (compressed) years later.
    const slowMailbox = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'sdr@patient-sender.example',
      windowDays: [],
    });
    ids.patientMailbox = slowMailbox.body.id;
    const slow = await sys.api('POST', '/v1/sequences', {
      name: 'Slow follow-up',
      steps: ['first', 'second', 'third'].map((n) => ({
        subject: `A ${n} note`,
        body: 'When the time is right',
        wait: '3650d',
      })),
    });
    // Wendy never answers, whatever the odds.
    sys.sandbox.script('wendy@patience.example', 'none');
    const wendy = await sys.api('POST', '/v1/prospects', {
      prospects: [
        { email: 'wendy@patience.example', firstName: 'Wendy', lastName: 'Waite', company: 'Patience Ltd' },
      ],
    });
    const enrolled = await sys.api('POST', '/v1/enrollments', {
      sequenceId: slow.body.id,
      mailboxId: slowMailbox.body.id,
      prospectIds: [wendy.body.prospects[0].id],
    });
    ids.waiting = enrolled.body.enrolled[0].id;
    await waitFor(
      'the first touch of the waiting enrollment',
      async () =>
        (await sys.api('GET', `/v1/enrollments/${ids.waiting}/waiting`)).body.waiting?.reason ===
          'waiting_for_due_time' || null,
      { timeoutMs: 30_000 },
    );

    // A mailbox an operator paused, to be resumed in the console.
    const spare = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'sdr@spare-sender.example',
    });
    ids.spareMailbox = spare.body.id;
    await sys.api('POST', `/v1/mailboxes/${spare.body.id}/pause`, { reason: 'SPF record being fixed' });
    // A reply from a stranger: no enrollment owns it, so it waits for a person in triage.
    const stranger = await postHttp(sys, `msg_${randomUUID()}`, {
      type: 'reply',
      occurred_at: new Date().toISOString(),
      email: 'stranger@elsewhere.example',
      text: 'Who are you? Please tell me more about pricing.',
    });
    expect(stranger.body.events[0].triaged).toBe(true);

    key = (
      await createApiKey({ repos: sys.rt.repos }, { name: 'ops-console', scope: 'admin', actor: 'test' })
    ).key;
    await waitForEnded(sys, ids.campaign, 16, { timeoutMs: 90_000 });
    // The domain guard's rollup gives the domain its days; then the domain is paused, to be resumed in the console.
    await api('POST', '/v1/domains/health/run?wait=60');
    const domains = await api('GET', '/v1/domains');
    const domain = domains.items.find((d: { domain: string }) => d.domain === 'outreach-sender.example');
    ids.domain = domain.id;
    ids.domainName = domain.domain;
    if (domain.status !== 'paused')
      await api('POST', `/v1/domains/${domain.id}/pause`, { by: 'test', reason: 'bounces to look into' });

    profile = await mkdtemp(join(tmpdir(), 'touchbase-console-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: VIEWPORT,
      args: [...CHROMIUM_ARGS],
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 240_000);

  /**
   * The page as a picture: a PNG of the viewport's size (its IHDR chunk gives width and height),
   * written to `path` when UPDATE_DOCS_SCREENSHOTS=1.
   */
  const screenshot = async (path: string) => {
    const png = await page.screenshot();
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual(VIEWPORT);
    if (UPDATE_DOCS_SCREENSHOTS) await writeFile(path, png);
  };

  /**
   * What a screen reader could not name on the page: fields without a label, buttons and
   * links without text, tables without a caption, images (the charts) without a label.
   */
  const unnamed = () =>
    page.evaluate(() => {
      // The page's DOM, typed by hand: the tests' tsconfig has no DOM library.
      type El = {
        type?: string;
        name?: string;
        tagName: string;
        outerHTML: string;
        labels?: ArrayLike<unknown> | null;
        textContent: string | null;
        getAttribute(name: string): string | null;
        querySelector(selector: string): unknown;
      };
      const doc = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } };
      const all = (selector: string) => Array.from(doc.document.querySelectorAll(selector));
      const text = (el: El) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
      return [
        ...all('input, select, textarea')
          .filter(
            (el) => el.type !== 'hidden' && (el.labels?.length ?? 0) === 0 && !el.getAttribute('aria-label'),
          )
          .map((el) => `field ${el.name}`),
        ...all('button, a')
          .filter((el) => !text(el))
          .map((el) => `${el.tagName} ${el.outerHTML}`),
        ...all('table')
          .filter((el) => !el.querySelector('caption'))
          .map(() => 'table without caption'),
        ...all('[role=img]')
          .filter((el) => !el.getAttribute('aria-label'))
          .map(() => 'image without label'),
      ];
    });

  /** A link of the console's main navigation. */
  const nav = (name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name });

  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
    await sys?.stop();
  });

  it('signs in with a key and lands on the page asked for', async () => {
    const first = await page.goto(`${sys.apiUrl}/console/campaigns`);
    expect(first?.status()).toBe(401);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${sys.apiUrl}/console/campaigns`);
    await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
    // From here on the app runs: no script error, no refused request, no CSP violation.
    page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
    });
  });

  it("shows a campaign's funnel per step and variant with the numbers of /v1/stats", async () => {
    await page.getByRole('link', { name: 'Spring outreach' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spring outreach' }).waitFor();
    const steps = page
      .getByRole('table', { name: 'Funnel per step', exact: true })
      .locator('tbody tr[data-step]');
    await steps.first().waitFor();
    const stats = await api('GET', `/v1/stats?sequenceId=${ids.campaign}`);

    const total = async (metric: string) =>
      num(await page.locator(`dl dd[data-metric=${metric}]`).textContent());
    expect(await total('enrolled')).toBe(stats.enrolled);
    expect(await total('replied')).toBe(stats.byStatus.replied ?? 0);
    expect(await total('bounced')).toBe(stats.byStatus.bounced ?? 0);
    expect(await total('exhausted')).toBe(stats.byStatus.exhausted ?? 0);
    expect(stats.byStatus.replied).toBeGreaterThan(0);

    const shownSteps: Record<string, number> = {};
    for (const row of await steps.all()) {
      shownSteps[(await row.getAttribute('data-step')) ?? '?'] = num(
        await row.locator('td[data-metric=sent]').textContent(),
      );
    }
    expect(shownSteps).toEqual(stats.sentByStep);

    const variants = page
      .getByRole('table', { name: 'Funnel per step and variant', exact: true })
      .locator('tbody tr[data-step]');
    const shownVariants = [];
    for (const row of await variants.all()) {
      shownVariants.push({
        step: Number(await row.getAttribute('data-step')),
        variant: Number(await row.getAttribute('data-variant')),
        sent: num(await row.locator('td[data-metric=sent]').textContent()),
      });
    }
    expect(shownVariants).toEqual(stats.sentByStepAndVariant);
    expect(shownVariants.filter((v) => v.step === 1)).toHaveLength(2);

    // The charts drew (Chart.js sizes its canvases), per step and per variant; then the picture of the README.
    await expect.poll(() => page.locator('canvas').count()).toBe(2);
    for (const canvas of await page.locator('canvas').all())
      await expect.poll(async () => (await canvas.boundingBox())?.height ?? 0).toBeGreaterThan(100);
    await screenshot(SCREENSHOT);
    expect(await unnamed()).toEqual([]);

    // The date range selects the enrollments started in it: none from tomorrow on.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Enrolled from').fill(tomorrow);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No enrollment in this range.').waitFor();
    expect(page.url()).toContain(`from=${tomorrow}`);
    await page.getByRole('link', { name: 'All dates' }).click();
    await steps.first().waitFor();
  });

  it("simulates the campaign and shows the last touch and binding constraint of the API's answer", async () => {
    await page
      .getByRole('navigation', { name: 'Campaign views' })
      .getByRole('link', { name: 'Simulate' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Simulate Spring outreach' }).waitFor();
    // The form by keyboard: labelled fields, Enter submits. The campaign has no pool: a mailbox is needed.
    await page.getByLabel('Prospects').fill('400');
    await page.getByLabel('Days to simulate').fill('30');
    await page.getByLabel('Seed').fill('7');
    await page.getByLabel('Start').fill('2027-01-11T08:00');
    await page.getByLabel('Reply odds').fill('0.05, 0.03');
    await page.getByLabel('Bounce odds').fill('0.02');
    await page.getByLabel('Seed').press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Mailboxes: pick at least one');
    await page.getByLabel('sdr@outreach-sender.example').check();
    const posted = page.waitForRequest((r) => isSimulation(r.url()) && r.method() === 'POST');
    await page.getByLabel('Seed').press('Enter');
    const body = (await posted).postDataJSON();
    expect(body).toMatchObject({
      sequenceId: ids.campaign,
      prospects: { count: 400 },
      horizonDays: 30,
      seed: 7,
      odds: { reply: [0.05, 0.03], bounce: 0.02, outOfOffice: 0.02 },
    });
    expect(body.mailboxIds).toHaveLength(1);

    // The same input through the API with the key: the page shows that answer.
    const expected = await api('POST', '/v1/simulations', body);
    expect(expected.summary.lastTouchAt).not.toBeNull();
    const lastTouch = page.locator('[data-field=lastTouch] time');
    await lastTouch.waitFor();
    expect(await lastTouch.getAttribute('datetime')).toBe(expected.summary.lastTouchAt);
    expect(await lastTouch.textContent()).toBe(
      await page.evaluate(
        (iso) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }),
        expected.summary.lastTouchAt as string,
      ),
    );
    expect(await page.locator('[data-field=binding]').textContent()).toBe(expected.binding.message);
    // Screen readers hear the outcome in a status line.
    expect(await page.getByRole('status').textContent()).toBe(`Simulated: ${expected.binding.message}`);
    expect(await page.locator('[data-field=binding]').getAttribute('data-constraint')).toBe(
      expected.binding.constraint,
    );
    const funnel = page
      .getByRole('table', { name: 'Projected funnel per step' })
      .locator('tbody tr[data-node]');
    const shown = [];
    for (const row of await funnel.all())
      shown.push({
        node: await row.getAttribute('data-node'),
        sent: num(await row.locator('td[data-metric=sent]').textContent()),
      });
    expect(shown).toEqual(
      expected.funnel.map((f: { node: string; sent: number }) => ({ node: f.node, sent: f.sent })),
    );
    // The simulator's own picture, shown as an image: the API's SVG for the same input, drawn by
    // the browser, with a series per mailbox and the caps line.
    const pictured = await api('POST', '/v1/simulations?picture=svg', body);
    const svg = pictured.picture as string;
    expect(svg).toContain(`>${expected.input.mailboxes[0].id}</text>`);
    expect(svg).toContain(`>daily caps ${expected.dailyCap}</text>`);
    expect(svg).toContain('stroke-dasharray');
    const picture = page.locator('[data-field=simulation] [data-field=picture] img');
    await picture.waitFor();
    const src = (await picture.getAttribute('src')) as string;
    expect(src.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(src.slice(src.indexOf(',') + 1))).toBe(svg);
    // Decoded and laid out by the browser at the SVG's own size (a broken image has none).
    await expect
      .poll(() =>
        picture.evaluate((el) => {
          // The test's types have no DOM: the <img>'s two fields, by their shape.
          const img = el as unknown as { complete: boolean; naturalWidth: number };
          return img.complete ? img.naturalWidth : 0;
        }),
      )
      .toBe(Number(/width="(\d+)"/.exec(svg)?.[1]));
    expect(await picture.getAttribute('alt')).toContain(expected.input.mailboxes[0].id);
    // The same numbers drawn by Chart.js from the JSON (no SVG markup in the page: the CSP stays strict).
    const chart = page.locator('[data-field=simulation] canvas');
    await expect.poll(async () => (await chart.boundingBox())?.height ?? 0).toBeGreaterThan(100);

    // The README's picture: the result, from its binding sentence to the chart.
    await page.getByRole('heading', { level: 2, name: 'Result' }).evaluate((el) => el.scrollIntoView());
    await screenshot(SIMULATION_SCREENSHOT);
    expect(await unnamed()).toEqual([]);

    // A pool campaign needs no mailbox picked: the API takes the pool's active members (the paused one is left out).
    const pool = await api('POST', '/v1/mailbox-pools', {
      name: 'Console pool',
      mailboxIds: [ids.spareMailbox, ids.patientMailbox],
    });
    const pooled = await api('POST', '/v1/sequences', {
      name: 'Pooled outreach',
      mailboxPoolId: pool.id,
      steps: [
        { subject: 'Hello', body: 'A first note', wait: '2d' },
        { subject: 'Again', body: 'A follow-up', wait: '0s' },
      ],
    });
    await page.goto(`${sys.apiUrl}/console/campaigns/${pooled.id}/simulate`);
    await page.getByText('Mailboxes: the active members of the campaign’s pool.').waitFor();
    expect(await page.getByRole('group', { name: /Mailboxes/ }).count()).toBe(0);
    await page.getByLabel('Prospects').fill('200');
    const pooledPost = page.waitForRequest((r) => isSimulation(r.url()) && r.method() === 'POST');
    await page.getByRole('button', { name: 'Simulate', exact: true }).click();
    const pooledBody = (await pooledPost).postDataJSON();
    expect(pooledBody).toMatchObject({ sequenceId: pooled.id, prospects: { count: 200 } });
    expect(pooledBody.mailboxIds).toBeUndefined();
    const pooledExpected = await api('POST', '/v1/simulations', pooledBody);
    expect(pooledExpected.input.mailboxes.map((m: { id: string }) => m.id)).toEqual([
      'sdr@patient-sender.example',
    ]);
    await expect
      .poll(() => page.locator('[data-field=lastTouch] time').getAttribute('datetime'))
      .toBe(pooledExpected.summary.lastTouchAt);
    expect(await page.locator('[data-field=binding]').textContent()).toBe(pooledExpected.binding.message);
  });

  it("draws a LinkedIn campaign's actions per day by account, with the accounts' caps per action", async () => {
    const pool = await api('POST', '/v1/mailbox-pools', {
      name: 'Console LinkedIn pool',
      mailboxIds: [ids.patientMailbox],
    });
    // Invitations 12 + 8 a day and profile visits 10 + 10: one caps line at 20 names both.
    for (const [name, invitationsPerDay] of [
      ['Grace (SDR)', 12],
      ['Hugo (AE)', 8],
    ] as const)
      await api('POST', '/v1/linkedin-accounts', {
        provider: 'sandbox',
        providerAccountId: `console-${name}`,
        name,
        invitationsPerDay,
        profileVisitsPerDay: 10,
        poolIds: [pool.id],
      });
    const linked = await api('POST', '/v1/sequences', {
      name: 'LinkedIn outreach',
      mailboxPoolId: pool.id,
      graph: {
        nodes: [
          { id: 'visit', action: 'linkedin_visit' },
          { id: 'connect', action: 'linkedin_connect' },
          { id: 'mail', action: 'email', subject: 'Hello', body: 'A note' },
          { id: 'end', action: 'end' },
        ],
        edges: [
          { from: 'visit', to: 'connect', trigger: 'always', wait: '1d' },
          { from: 'connect', to: 'mail', trigger: 'not_accepted', wait: '3d' },
          { from: 'mail', to: 'end', trigger: 'no_reply', wait: '2d' },
        ],
      },
    });
    await page.goto(`${sys.apiUrl}/console/campaigns/${linked.id}/simulate`);
    await page.getByLabel('Prospects').fill('150');
    await page.getByLabel('Start').fill('2027-01-11T08:00');
    const posted = page.waitForRequest((r) => isSimulation(r.url()) && r.method() === 'POST');
    await page.getByRole('button', { name: 'Simulate', exact: true }).click();
    const expected = await api('POST', '/v1/simulations', (await posted).postDataJSON());
    expect(expected.linkedin.capLines).toEqual([{ actions: ['invitation', 'profile_visit'], value: 20 }]);
    const section = page.locator('[data-field=simulation] [data-field=linkedin]');
    await section.waitFor();
    // The simulator's picture has the LinkedIn panel too: the accounts and their caps line.
    const src = decodeURIComponent(
      (await page.locator('[data-field=simulation] [data-field=picture] img').getAttribute('src')) ?? '',
    );
    expect(src).toContain('>Grace (SDR)</text>');
    expect(src).toContain('>LinkedIn invitation, profile visit caps 20</text>');
    // The chart: one series per account, the caps as lines (named in its label; the canvas is an image).
    const chart = section.locator('canvas');
    await expect.poll(async () => (await chart.boundingBox())?.height ?? 0).toBeGreaterThan(100);
    expect(await chart.getAttribute('aria-label')).toBe(
      `Stacked bar chart of the LinkedIn actions of each of 2 LinkedIn accounts on each of ${expected.days.length} days, with the accounts' daily caps as lines: LinkedIn invitation, profile visit caps 20; the tables below have the numbers`,
    );
    // The accounts with their caps, and their actions per day, as the API answered.
    const accounts = section.getByRole('table', { name: 'LinkedIn accounts and their daily caps' });
    for (const a of expected.linkedin.accounts) {
      const row = accounts.locator(`tr[data-account="${a.id}"]`);
      expect(num(await row.locator('td[data-metric=invitations]').textContent())).toBe(a.sends.invitation);
      expect(num(await row.locator('td[data-metric=profileVisits]').textContent())).toBe(
        a.sends.profile_visit,
      );
      expect(num(await row.locator('td[data-cap=invitationsPerDay]').textContent())).toBe(
        a.invitationsPerDay,
      );
    }
    await section.getByText('LinkedIn actions per day as a table').click();
    const perDay = section.getByRole('table', { name: 'LinkedIn actions per day and account' });
    const shown: Record<string, Record<string, number>> = {};
    for (const row of await perDay.locator('tbody tr[data-day]').all()) {
      const day = (await row.getAttribute('data-day')) as string;
      shown[day] = {};
      for (const cell of await row.locator('td[data-account]').all())
        shown[day][(await cell.getAttribute('data-account')) as string] = num(await cell.textContent());
    }
    expect(shown).toEqual(
      Object.fromEntries(
        expected.days.map((d: { date: string; byLinkedInAccount: Record<string, number> }) => [
          d.date,
          d.byLinkedInAccount,
        ]),
      ),
    );
    expect(Object.values(shown).some((d) => d['Grace (SDR)']! > 0 && d['Hugo (AE)']! > 0)).toBe(true);
    expect(await unnamed()).toEqual([]);
  });

  it('finds a person, reads why their enrollment waits, pauses and resumes it', async () => {
    await nav('People').click();
    await page.getByLabel('Search by address, name or company').fill('wendy waite');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'wendy@patience.example' }).click();
    await page.getByRole('link', { name: `Enrollment ${ids.waiting.slice(0, 8)}` }).click();

    const expected = (await api('GET', `/v1/enrollments/${ids.waiting}/waiting`)).waiting;
    expect(expected.reason).not.toBe('due');
    const why = page.locator('[data-field=waiting]');
    await why.waitFor();
    expect(await why.getAttribute('data-reason')).toBe(expected.reason);
    expect(await why.textContent()).toMatch(expected.until ? /until \d/ : /until someone acts/);

    expect(await unnamed()).toEqual([]);
    // A confirmation closed with Escape (the keyboard's way out) changes nothing.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel this enrollment' });
    await cancel.waitFor();
    await expect
      .poll(() => cancel.getByLabel('Reason').evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    await page.keyboard.press('Escape');
    await cancel.waitFor({ state: 'hidden' });
    expect((await api('GET', `/v1/enrollments/${ids.waiting}`)).status).toBe('active');

    await page.getByRole('button', { name: 'Pause' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause this enrollment' });
    await dialog.getByLabel('Reason').fill('asked to wait a month');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field=status]').textContent()).toBe('paused');
    expect(await why.getAttribute('data-reason')).toBe('paused');
    expect((await api('GET', `/v1/enrollments/${ids.waiting}`)).status).toBe('paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    const resume = page.getByRole('dialog', { name: 'Resume this enrollment' });
    await resume.getByLabel('Reason').fill('the month is over');
    await resume.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field=status]').textContent()).toBe('active');
    expect((await api('GET', `/v1/enrollments/${ids.waiting}`)).status).toBe('active');
    // The timeline shows both actions with their reasons, from the audit log.
    await expect
      .poll(() => page.getByRole('table', { name: /Touches, events and audit/ }).textContent())
      .toContain('the month is over');
    const audit = await api('GET', `/v1/audit?entityType=enrollment&entityId=${ids.waiting}`);
    expect(audit.items.map((a: { actor: string }) => a.actor)).toEqual(['ops-console', 'ops-console']);
  });

  it('cancels the enrollment, suppresses the address and erases the person, each confirmed', async () => {
    const confirm = async (button: string, title: string, label: string) => {
      await page.getByRole('button', { name: button, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await dialog.getByLabel('Reason').fill('asked to be left alone');
      await dialog.getByRole('button', { name: label }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    await confirm('Cancel', 'Cancel this enrollment', 'Cancel the enrollment');
    await expect.poll(() => page.locator('[data-field=status]').textContent()).toBe('cancelled');
    expect((await api('GET', `/v1/enrollments/${ids.waiting}`)).status).toBe('cancelled');
    await confirm('Suppress address', 'Suppress wendy@patience.example', 'Suppress');
    expect((await api('GET', '/v1/suppressions/check?email=wendy@patience.example')).suppressed).toBe(true);
    const { prospectId } = await api('GET', `/v1/enrollments/${ids.waiting}`);
    await confirm('Erase person', 'Erase this person (GDPR)', 'Erase');
    await page.waitForURL(`${sys.apiUrl}/console/people`);
    const gone = await fetch(`${sys.apiUrl}/v1/prospects/${prospectId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(gone.status).toBe(404);
  });

  it('resumes a paused sending domain with a name and a reason', async () => {
    await nav('Domains and mailboxes').click();
    await page.getByRole('link', { name: ids.domainName }).click();
    await page.getByRole('heading', { level: 1, name: ids.domainName }).waitFor();
    expect(await page.locator('[data-field=status]').textContent()).toBe('paused');
    await page.getByRole('button', { name: 'Resume domain' }).click();
    const dialog = page.getByRole('dialog', { name: `Resume ${ids.domainName}` });
    await dialog.getByLabel('Your name').fill('Olivia Ops');
    await dialog.getByLabel('Reason').fill('list cleaned');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field=status]').textContent()).toBe('active');
    expect((await api('GET', `/v1/domains/${ids.domain}`)).status).toBe('active');
  });

  it('resumes a paused mailbox, read with its cap usage and why it was paused', async () => {
    await nav('Domains and mailboxes').click();
    const row = page.locator('tr[data-mailbox="sdr@spare-sender.example"]');
    await expect.poll(() => row.textContent()).toContain('SPF record being fixed');
    expect(await unnamed()).toEqual([]);
    // Today's sends of the campaign's mailbox, as the API counts them.
    const usage = await api('GET', '/v1/mailboxes/usage');
    const busy = usage.items.find((m: { address: string }) => m.address === 'sdr@outreach-sender.example');
    expect(busy.sentToday).toBeGreaterThan(0);
    expect(
      await page.locator('tr[data-mailbox="sdr@outreach-sender.example"] [data-field=today]').textContent(),
    ).toContain(`${busy.sentToday} / ${busy.caps.perDay}`);
    await row.getByRole('button', { name: 'Resume sdr@spare-sender.example' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resume sdr@spare-sender.example' });
    await dialog.getByLabel('Reason').fill('SPF fixed');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => row.textContent()).not.toContain('paused');
    expect((await api('GET', `/v1/mailboxes/${ids.spareMailbox}`)).status).toBe('active');
  });

  it('tells in words why a LinkedIn action waits when no LinkedIn account can act for it', async () => {
    // A LinkedIn campaign whose pool's only LinkedIn account the provider restricted (the
    // sender paused it) before anyone was enrolled: the sender has no account to choose.
    const pool = await api('POST', '/v1/mailbox-pools', {
      name: 'linkedin-restricted',
      mailboxIds: [ids.patientMailbox],
    });
    const account = await api('POST', '/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: 'acc_console_restricted',
      name: 'SDR Restricted',
      poolIds: [pool.id],
    });
    const seq = await api('POST', '/v1/sequences', {
      name: 'LinkedIn hello',
      graph: {
        nodes: [
          { id: 'visit', action: 'linkedin_visit' },
          { id: 'end', action: 'end' },
        ],
        edges: [{ from: 'visit', to: 'end', trigger: 'always', wait: '1d' }],
      },
      mailboxPoolId: pool.id,
    });
    expect(await sys.rt.repos.linkedinAccounts.pause(account.id, 'restricted: checkpoint')).toBe(true);
    const kai = await api('POST', '/v1/prospects', {
      prospects: [
        { email: 'kai@linkedin-lead.example', linkedinUrl: 'https://www.linkedin.com/in/kai-console/' },
      ],
    });
    const enrolled = await api('POST', '/v1/enrollments', {
      sequenceId: seq.id,
      mailboxId: ids.patientMailbox,
      prospectIds: [kai.prospects[0].id],
    });
    const id = enrolled.enrolled[0].id;
    expect((await api('GET', `/v1/enrollments/${id}/waiting`)).waiting).toEqual({
      reason: 'no_linkedin_account',
      until: null,
    });

    await page.goto(`${sys.apiUrl}/console/enrollments/${id}`);
    const why = page.locator('[data-field=waiting]');
    await why.waitFor();
    expect(await why.getAttribute('data-reason')).toBe('no_linkedin_account');
    expect(await why.textContent()).toBe(
      'No LinkedIn account can act for it: none is chosen yet, and the campaign’s pool has no active LinkedIn account, until someone acts.',
    );
    expect(await unnamed()).toEqual([]);
  });

  it('lists the alerts and resolves an unmatched reply', async () => {
    await nav('Alerts and triage').click();
    await expect
      .poll(() => page.getByRole('table', { name: /alerts, newest first/ }).textContent())
      .toContain('domain.resumed');
    const triage = page.getByRole('table', { name: /Replies from unknown senders/ });
    const item = triage.locator('tr', { hasText: 'stranger@elsewhere.example' });
    await item.getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('dialog', { name: 'Mark this reply handled' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.getByText('Nothing to triage.').waitFor();
    expect(await unnamed()).toEqual([]);
    expect((await api('GET', '/v1/triage')).items).toEqual([]);
    expect(errors).toEqual([]);
  });
});
