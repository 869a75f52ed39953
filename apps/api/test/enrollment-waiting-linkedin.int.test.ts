import { touchKey } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';
import { CONSOLE_DIR, consoleCheckable, inConsole } from './support/console-page.js';

const TOKEN = 'waiting-li-admin-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const DAY_MS = 86_400_000;
const hasBrowser = consoleCheckable('enrollment-waiting-linkedin.int.test.ts');

/** A graph of one LinkedIn action, then the end. */
const oneAction = (action: 'linkedin_connect' | 'linkedin_visit') => ({
  nodes: [
    { id: 'act', action },
    { id: 'end', action: 'end' as const },
  ],
  edges: [{ from: 'act', to: 'end', trigger: 'always' as const, wait: '1d' }],
});

/** Today's ISO weekday (1 = Monday) in a zone. */
function weekdayIn(timeZone: string, at = new Date()): number {
  const name = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short' }).format(at);
  return ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(name) + 1;
}

/**
 * "Why isn't it sending?" at a LinkedIn node: the LinkedIn account holds the action
 * (its window in its zone by core's timingSourceFor, its caps per action), as the
 * sender does; the mailbox sends at any hour and has room, so it holds nothing.
 */
describe('GET /v1/enrollments/:id/waiting at a LinkedIn node (real PostgreSQL)', () => {
  let f: ApiFixture;
  let n = 0;
  const ids: Record<string, string> = {};
  // The account opens tomorrow (in Tokyo) only, 09:00-10:00 Tokyo time: 00:00-01:00 UTC.
  const tomorrowInTokyo = (weekdayIn('Asia/Tokyo') % 7) + 1;

  async function mailbox(perDay = 300) {
    return f.repos.mailboxes.create({
      provider: 'sandbox',
      address: `li@d${++n}.example`,
      windowDays: [],
      perDay,
    });
  }
  async function account(poolId: string, opts: Record<string, unknown> = {}) {
    return f.repos.linkedinAccounts.create({
      provider: 'sandbox',
      providerAccountId: `acc-${++n}`,
      name: `SDR ${n}`,
      windowDays: [],
      poolIds: [poolId],
      ...opts,
    });
  }
  /** A sequence of one LinkedIn action on a pool of one mailbox, and a way to enroll people (in it, or another sequence). */
  async function campaign(action: 'linkedin_connect' | 'linkedin_visit', perDay = 300) {
    const mb = await mailbox(perDay);
    const pool = await f.repos.mailboxes.createPool(`li-pool-${++n}`, [mb.id]);
    const seq = await f.repos.sequences.create({ name: `li-${n}`, graph: oneAction(action) });
    await f.repos.mailboxes.setSequencePool(seq.id, pool.id);
    const enroll = async (sequenceId = seq.id) => {
      const [p] = await f.repos.prospects.upsertMany([{ email: `p${++n}@people.example`, firstName: 'Ada' }]);
      const res = await f.app.inject({
        method: 'POST',
        url: '/v1/enrollments',
        headers: auth,
        payload: { sequenceId, mailboxId: mb.id, prospectIds: [p!.id] },
      });
      expect(res.statusCode).toBe(201);
      return (res.json() as { enrolled: { id: string }[] }).enrolled[0]!.id;
    };
    return { poolId: pool.id, enroll };
  }
  async function waiting(id: string) {
    const res = await f.app.inject({ url: `/v1/enrollments/${id}/waiting`, headers: auth });
    expect(res.statusCode).toBe(200);
    return (res.json() as { waiting: Record<string, unknown> | null }).waiting;
  }

  beforeAll(async () => {
    f = await apiFixture('api-waiting-li', { adminToken: TOKEN, consoleDir: CONSOLE_DIR });

    // The mailbox is open at any hour; the account kept by the enrollment is shut until tomorrow in Tokyo.
    const shut = await campaign('linkedin_visit');
    const tokyo = await account(shut.poolId, {
      name: 'SDR Tokyo',
      windowDays: [tomorrowInTokyo],
      windowStart: '09:00',
      windowEnd: '10:00',
      timezone: 'Asia/Tokyo',
    });
    ids.tokyo = tokyo.id;
    ids.window = await shut.enroll();
    await f.repos.linkedinAccounts.assignToEnrollment(ids.window, tokyo.id);

    // An account of one invitation a day, spent on an earlier enrollment's invitation (claimed),
    // from a mailbox of one e-mail a day: the invitation is not the mailbox's send.
    const capped = await campaign('linkedin_connect', 1);
    const oneADay = await account(capped.poolId, { name: 'SDR One', invitationsPerDay: 1 });
    const earlier = await capped.enroll();
    ids.cap = await capped.enroll();
    for (const e of [earlier, ids.cap]) await f.repos.linkedinAccounts.assignToEnrollment(e, oneADay.id);
    expect((await f.repos.touches.claim(earlier, 1, touchKey(earlier, 1), 'x@y.z')).kind).toBe('claimed');
    const emails = await f.repos.sequences.create({
      name: 'e-mails',
      steps: [{ channel: 'email', subject: 'Hi', body: 'One', wait: '1d' }],
    });
    ids.email = await capped.enroll(emails.id);

    // No account kept yet: a pool without one, and a pool whose account the sender would choose.
    ids.none = await (await campaign('linkedin_visit')).enroll();
    const choosing = await campaign('linkedin_visit');
    ids.choosable = (await account(choosing.poolId, { name: 'SDR Spare' })).id;
    ids.unchosen = await choosing.enroll();

    // The kept account was paused (the provider blamed it).
    const restricted = await campaign('linkedin_visit');
    const blamed = await account(restricted.poolId);
    ids.paused = await restricted.enroll();
    await f.repos.linkedinAccounts.assignToEnrollment(ids.paused, blamed.id);
    await f.repos.linkedinAccounts.pause(blamed.id, 'restricted: checkpoint');
  });
  afterAll(async () => {
    await f?.close();
  });

  it("names the account's window and its next opening in the account's zone, though the mailbox is open", async () => {
    const w = await waiting(ids.window!);
    expect(w).toMatchObject({
      reason: 'linkedin_window_closed',
      linkedinAccount: { id: ids.tokyo, name: 'SDR Tokyo', chosen: true },
      window: { days: [tomorrowInTokyo], start: '09:00', end: '10:00', timeZone: 'Asia/Tokyo' },
    });
    // Tomorrow 09:00 in Tokyo is 00:00 UTC, within the next two days.
    const until = new Date(w?.until as string);
    expect(until.toISOString().slice(11)).toBe('00:00:00.000Z');
    expect(weekdayIn('Asia/Tokyo', until)).toBe(tomorrowInTokyo);
    expect(until.getTime()).toBeGreaterThan(Date.now());
    expect(until.getTime()).toBeLessThan(Date.now() + 2 * DAY_MS);
  });

  it("tells the account's spent daily invitations, not the mailbox's caps", async () => {
    const w = await waiting(ids.cap!);
    expect(w).toMatchObject({
      reason: 'linkedin_cap_reached',
      cap: 'day',
      action: 'invitation',
      linkedinAccount: { name: 'SDR One', chosen: true },
    });
    const hours = (new Date(w?.until as string).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('says when no LinkedIn account can act, and names the one the pool would choose', async () => {
    expect(await waiting(ids.none!)).toEqual({ reason: 'no_linkedin_account', until: null });
    expect(await waiting(ids.unchosen!)).toEqual({
      reason: 'due',
      until: null,
      linkedinAccount: { id: ids.choosable, name: 'SDR Spare', chosen: false },
    });
  });

  it("counts no LinkedIn action against the mailbox's e-mail caps", async () => {
    expect(await waiting(ids.email!)).toEqual({ reason: 'due', until: null });
  });

  it('says the kept account is paused, with its reason', async () => {
    expect(await waiting(ids.paused!)).toMatchObject({
      reason: 'linkedin_account_paused',
      until: null,
      detail: 'restricted: checkpoint',
    });
  });

  it('finds each LinkedIn reason through the filter, and counts them', async () => {
    const expected: Record<string, string[]> = {
      linkedin_window_closed: [ids.window!],
      linkedin_cap_reached: [ids.cap!],
      no_linkedin_account: [ids.none!],
      linkedin_account_paused: [ids.paused!],
      due: [ids.email!, ids.unchosen!].sort(),
    };
    for (const [reason, want] of Object.entries(expected)) {
      const res = await f.app.inject({ url: `/v1/enrollments?waiting=${reason}`, headers: auth });
      expect(res.statusCode).toBe(200);
      const got = (res.json() as { items: { id: string }[] }).items.map((e) => e.id).sort();
      expect({ reason, got }).toEqual({ reason, got: want });
    }
    const summary = await f.app.inject({ url: '/v1/enrollments/waiting/summary', headers: auth });
    expect((summary.json() as { byReason: Record<string, number> }).byReason).toEqual({
      linkedin_window_closed: 1,
      linkedin_cap_reached: 1,
      no_linkedin_account: 1,
      linkedin_account_paused: 1,
      due: 2,
      touch_in_progress: 1,
    });
  });

  // The operator console (the real bundle, in Debian's Chromium) says the same in words, the opening in the account's zone.
  it.skipIf(!hasBrowser)(
    "shows the account's window and the opening in its zone in the console",
    () =>
      inConsole(f, `/console/enrollments/${ids.window}`, 'ops-linkedin', async (page) => {
        const why = page.locator('[data-field=waiting]');
        await why.waitFor();
        expect(await why.getAttribute('data-reason')).toBe('linkedin_window_closed');
        expect(await why.locator('strong').textContent()).toBe(
          'Its LinkedIn account’s sending window is closed',
        );
        expect(await why.locator('[data-field=linkedin-account]').textContent()).toBe(
          'LinkedIn account SDR Tokyo',
        );
        const window = await why.locator('[data-field=linkedin-window]').textContent();
        const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][tomorrowInTokyo - 1];
        expect(window).toContain(`its window ${day} 09:00–10:00 in Asia/Tokyo`);
        expect(window).toMatch(/next open \d{1,2} \w{3} \d{4}, 09:00 Asia\/Tokyo time/);
      }),
    120_000,
  );
});
