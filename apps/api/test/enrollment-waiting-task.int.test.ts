import { touchKey } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';
import { CONSOLE_DIR, consoleCheckable, inConsole } from './support/console-page.js';

const TOKEN = 'waiting-task-admin-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const hasBrowser = consoleCheckable('enrollment-waiting-task.int.test.ts');

/** A graph whose first node is a call for a person to make, then the end. */
const callFirst = {
  nodes: [
    { id: 'call', action: 'manual_task' as const, title: 'Call the prospect' },
    { id: 'end', action: 'end' as const },
  ],
  edges: [{ from: 'call', to: 'end', trigger: 'always' as const, wait: '1d' }],
};

/**
 * "Why isn't it sending?" at a manual task: the sender records a due task for a
 * person at once (no window, contact policy or cap holds it), so a mailbox out of
 * room, or paused, explains nothing, as it does for an e-mail of the same mailbox.
 */
describe('GET /v1/enrollments/:id/waiting at a manual task (real PostgreSQL)', () => {
  let f: ApiFixture;
  let n = 0;
  const ids: Record<string, string> = {};

  async function enroll(sequenceId: string, mailboxId: string) {
    const [p] = await f.repos.prospects.upsertMany([{ email: `p${++n}@people.example`, firstName: 'Ada' }]);
    const res = await f.app.inject({
      method: 'POST',
      url: '/v1/enrollments',
      headers: auth,
      payload: { sequenceId, mailboxId, prospectIds: [p!.id] },
    });
    expect(res.statusCode).toBe(201);
    return (res.json() as { enrolled: { id: string }[] }).enrolled[0]!.id;
  }
  async function waiting(id: string) {
    const res = await f.app.inject({ url: `/v1/enrollments/${id}/waiting`, headers: auth });
    expect(res.statusCode).toBe(200);
    return (res.json() as { waiting: Record<string, unknown> | null }).waiting;
  }

  beforeAll(async () => {
    f = await apiFixture('api-waiting-task', { adminToken: TOKEN, consoleDir: CONSOLE_DIR });
    const tasks = await f.repos.sequences.create({ name: 'calls', graph: callFirst });
    const emails = await f.repos.sequences.create({
      name: 'e-mails',
      steps: [{ channel: 'email', subject: 'Hi', body: 'One', wait: '1d' }],
    });

    // A mailbox of one e-mail a day, spent on an earlier e-mail (claimed): it holds the next e-mail, not the task.
    const spent = await f.repos.mailboxes.create({
      provider: 'sandbox',
      address: 'one@spent.example',
      windowDays: [],
      perDay: 1,
    });
    const earlier = await enroll(emails.id, spent.id);
    expect((await f.repos.touches.claim(earlier, 1, touchKey(earlier, 1), 'x@y.z')).kind).toBe('claimed');
    ids.email = await enroll(emails.id, spent.id);
    ids.spent = await enroll(tasks.id, spent.id);

    // A paused mailbox holds no task either.
    const paused = await f.repos.mailboxes.create({
      provider: 'sandbox',
      address: 'any@paused.example',
      windowDays: [],
    });
    ids.paused = await enroll(tasks.id, paused.id);
    // A task whose instructions name a variable the person lacks: the sender pauses it at its due time.
    const briefed = await f.repos.sequences.create({
      name: 'briefed calls',
      graph: {
        ...callFirst,
        nodes: [
          { id: 'call', action: 'manual_task' as const, title: 'Call', instructions: 'Ask about {{plan}}' },
          { id: 'end', action: 'end' as const },
        ],
      },
    });
    ids.lacking = await enroll(briefed.id, spent.id);
    // A graph's e-mail node whose body names a variable the person lacks (rendered as `renderEmailNode`).
    const mailed = await f.repos.sequences.create({
      name: 'graph e-mails',
      graph: {
        nodes: [
          { id: 'mail', action: 'email' as const, subject: 'Hi {{firstName}}', body: 'On {{plan}}?' },
          { id: 'end', action: 'end' as const },
        ],
        edges: [{ from: 'mail', to: 'end', trigger: 'no_reply' as const, wait: '1d' }],
      },
    });
    ids.mailLacking = await enroll(mailed.id, spent.id);
    expect(await f.repos.mailboxSettings.pause(paused.id, 'warming down')).toBe(true);

    // An e-mail the sender held for the sequence's cooldown (as its contact policy records it), shown in words.
    ids.cooldown = await enroll(emails.id, spent.id);
    await f.db.prisma.$executeRaw`UPDATE enrollment SET next_touch_at = now() + interval '2 days',
      policy_hold = 'cooldown', policy_hold_until = now() + interval '2 days' WHERE id = ${ids.cooldown}::uuid`;
  });
  afterAll(async () => {
    await f?.close();
  });

  it("tells a due task as due, though its mailbox's caps are spent", async () => {
    expect(await waiting(ids.email!)).toMatchObject({ reason: 'mailbox_cap_reached', cap: 'day' });
    expect(await waiting(ids.spent!)).toEqual({ reason: 'task_due', until: null });
  });

  it('tells a due task as due, though its mailbox is paused', async () => {
    expect(await waiting(ids.paused!)).toEqual({ reason: 'task_due', until: null });
  });

  it("names the variable a task's instructions lack", async () => {
    expect(await waiting(ids.lacking!)).toEqual({
      reason: 'missing_variable',
      until: null,
      variables: ['plan'],
    });
  });

  it("names the variable a graph's e-mail node lacks, before its mailbox's spent cap", async () => {
    expect(await waiting(ids.mailLacking!)).toEqual({
      reason: 'missing_variable',
      until: null,
      variables: ['plan'],
    });
  });

  it('tells the cooldown the sender held an e-mail for', async () => {
    expect(await waiting(ids.cooldown!)).toMatchObject({ reason: 'cooldown' });
  });

  it('finds due tasks through the filter, and counts them', async () => {
    const res = await f.app.inject({ url: '/v1/enrollments?waiting=task_due', headers: auth });
    expect(res.statusCode).toBe(200);
    const got = (res.json() as { items: { id: string }[] }).items.map((e) => e.id).sort();
    expect(got).toEqual([ids.spent!, ids.paused!].sort());
    const summary = await f.app.inject({ url: '/v1/enrollments/waiting/summary', headers: auth });
    expect((summary.json() as { byReason: Record<string, number> }).byReason).toMatchObject({
      task_due: 2,
      mailbox_cap_reached: 1,
    });
  });

  // The operator console (the real bundle, in Debian's Chromium) says it in words.
  it.skipIf(!hasBrowser)(
    'shows a due task in words in the console',
    () =>
      inConsole(f, `/console/enrollments/${ids.spent}`, 'ops-task', async (page, base) => {
        const why = page.locator('[data-field=waiting]');
        await why.waitFor();
        expect(await why.getAttribute('data-reason')).toBe('task_due');
        expect(await why.locator('strong').textContent()).toBe(
          'Due now: its manual task is handed to a person next (no sending window or cap holds a task)',
        );
        // A contact policy's hold is said in words too, not by its name.
        await page.goto(`${base}/console/enrollments/${ids.cooldown}`);
        await why.waitFor();
        expect(await why.getAttribute('data-reason')).toBe('cooldown');
        expect(await why.locator('strong').textContent()).toBe(
          'Waiting out the cooldown since the person was last contacted',
        );
      }),
    120_000,
  );
});
