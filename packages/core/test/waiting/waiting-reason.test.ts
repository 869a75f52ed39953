import { describe, expect, it } from 'vitest';
import {
  capFullUntil,
  DEFAULT_LINKEDIN_CAPS,
  missingEmailVariables,
  missingNodeTextVariables,
  missingTemplateVariables,
  type WaitingInput,
  waitingReason,
} from '../../src/index.js';

// Wednesday 2026-11-25 12:00 UTC.
const NOW = new Date('2026-11-25T12:00:00Z');
const mailbox = {
  id: 'm1',
  status: 'active',
  statusReason: null,
  timezone: 'UTC',
  windowDays: [1, 2, 3, 4, 5],
  windowStart: '09:00',
  windowEnd: '17:00',
  holidays: [],
  perMinute: 5,
  perHour: 60,
  perDay: 300,
  recentSends: [] as Date[],
};
const base: WaitingInput = {
  status: 'active',
  stopReason: null,
  nextTouchAt: new Date(NOW.getTime() - 1000),
  touchInProgress: false,
  prospectTimezone: null,
  mailbox,
  domain: { status: 'active', holdTouches: true, reason: null },
  sequenceWindow: null,
  poolMembers: null,
  missingVariables: [],
};

describe('waitingReason', () => {
  it('is due when nothing holds a touch whose time has come', () => {
    expect(waitingReason(base, NOW)).toEqual({ reason: 'due', until: null });
  });

  it('says nothing for an ended enrollment', () => {
    expect(waitingReason({ ...base, status: 'replied' }, NOW)).toBeNull();
  });

  it('waits for the due time, naming it', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    expect(waitingReason({ ...base, nextTouchAt: at }, NOW)).toEqual({
      reason: 'waiting_for_due_time',
      until: at,
    });
  });

  it('names the contact policy the sender held the touch for, while the due time is still the hold', () => {
    const until = new Date('2026-11-26T00:00:00Z');
    for (const reason of ['cooldown', 'new_people_cap', 'recipient_domain_cap'] as const) {
      expect(waitingReason({ ...base, nextTouchAt: until, policyHold: { reason, until } }, NOW)).toEqual({
        reason,
        until,
      });
    }
    // Rescheduled since (a pause and resume, a new step): the hold no longer explains the wait.
    const later = new Date('2026-11-27T00:00:00Z');
    expect(
      waitingReason({ ...base, nextTouchAt: later, policyHold: { reason: 'cooldown', until } }, NOW),
    ).toEqual({ reason: 'waiting_for_due_time', until: later });
    // Its time has come: the window and the caps speak, as for any due touch.
    const past = new Date(NOW.getTime() - 1000);
    expect(
      waitingReason({ ...base, nextTouchAt: past, policyHold: { reason: 'cooldown', until: past } }, NOW),
    ).toEqual({ reason: 'due', until: null });
  });

  it('tells the domain pause of a held (queued) enrollment and of a held touch', () => {
    const domain = { status: 'paused', holdTouches: true, reason: 'bounce rate 4%' };
    expect(waitingReason({ ...base, status: 'queued', domain }, NOW)).toMatchObject({
      reason: 'domain_paused',
    });
    expect(waitingReason({ ...base, domain }, NOW)).toEqual({
      reason: 'domain_paused',
      until: null,
      detail: 'bounce rate 4%',
    });
    // A pause that lets running sequences go on holds nothing.
    expect(waitingReason({ ...base, domain: { ...domain, holdTouches: false } }, NOW)?.reason).toBe('due');
  });

  it('tells a paused mailbox with its reason', () => {
    const w = waitingReason(
      { ...base, mailbox: { ...mailbox, status: 'paused', statusReason: 'dmarc' } },
      NOW,
    );
    expect(w).toEqual({ reason: 'mailbox_paused', until: null, detail: 'dmarc' });
  });

  it('tells when the window opens', () => {
    const w = waitingReason(
      { ...base, mailbox: { ...mailbox, windowStart: '14:00', windowEnd: '17:00' } },
      NOW,
    );
    expect(w).toEqual({ reason: 'window_closed', until: new Date('2026-11-25T14:00:00Z') });
    // TIME_SCALE above 1: the sender ignores windows, so does the answer.
    expect(
      waitingReason({ ...base, timeScale: 60, mailbox: { ...mailbox, windowStart: '14:00' } }, NOW)?.reason,
    ).toBe('due');
  });

  it('tells a full day cap and when a slot frees', () => {
    const sends = [1, 2, 3].map((h) => new Date(NOW.getTime() - h * 3_600_000));
    const w = waitingReason({ ...base, mailbox: { ...mailbox, perDay: 3, recentSends: sends } }, NOW);
    // The third most recent send (3 h ago) leaves the 24 h window in 21 h.
    expect(w).toEqual({ reason: 'mailbox_cap_reached', until: new Date('2026-11-26T09:00:00Z'), cap: 'day' });
  });

  it('takes the latest freeing of several full caps', () => {
    const sends = [1, 2].map((s) => new Date(NOW.getTime() - s * 1000));
    expect(capFullUntil({ perMinute: 2, perHour: 2, perDay: 10, recentSends: sends }, NOW)).toEqual({
      cap: 'hour',
      until: new Date(NOW.getTime() - 2000 + 3_600_000),
    });
    expect(capFullUntil({ perMinute: 5, perHour: 60, perDay: 300, recentSends: sends }, NOW)).toBeNull();
  });

  it('tells a pool without a usable member, and judges a pool by the member with most room', () => {
    expect(waitingReason({ ...base, poolMembers: [] }, NOW)).toEqual({
      reason: 'pool_no_usable_mailbox',
      until: null,
    });
    const full = { ...mailbox, id: 'full', perDay: 1, recentSends: [new Date(NOW.getTime() - 60_000)] };
    expect(waitingReason({ ...base, poolMembers: [full, { ...mailbox, id: 'free' }] }, NOW)?.reason).toBe(
      'due',
    );
    expect(waitingReason({ ...base, poolMembers: [full] }, NOW)?.reason).toBe('mailbox_cap_reached');
  });

  it('tells an out-of-office pause until its date, a missing variable and a manual pause', () => {
    const back = new Date('2026-12-01T09:00:00Z');
    expect(
      waitingReason({ ...base, status: 'paused', stopReason: 'out_of_office', nextTouchAt: back }, NOW),
    ).toEqual({ reason: 'out_of_office', until: back });
    expect(
      waitingReason(
        { ...base, status: 'paused', stopReason: 'missing_variable:company,title', nextTouchAt: null },
        NOW,
      ),
    ).toEqual({ reason: 'missing_variable', until: null, variables: ['company', 'title'] });
    expect(
      waitingReason({ ...base, status: 'paused', stopReason: 'manual', nextTouchAt: back }, NOW),
    ).toEqual({
      reason: 'paused',
      until: back,
      detail: 'manual',
    });
  });

  it('tells a missing variable of an active enrollment before its due time', () => {
    const w = waitingReason(
      { ...base, nextTouchAt: new Date('2026-11-30T10:00:00Z'), missingVariables: ['company'] },
      NOW,
    );
    expect(w).toEqual({ reason: 'missing_variable', until: null, variables: ['company'] });
  });

  it('tells a touch on its way', () => {
    expect(waitingReason({ ...base, touchInProgress: true }, NOW)?.reason).toBe('touch_in_progress');
  });
});

describe('missingTemplateVariables', () => {
  const steps = [
    { channel: 'email' as const, subject: 'Hi {{firstName}}', body: 'At {{company}}', wait: '0s' },
  ];
  const prospect = {
    id: 'p',
    email: 'a@b.c',
    firstName: 'Ada',
    lastName: null,
    company: null,
    attributes: {},
  };
  it('names what the copy lacks, and nothing past the last step', () => {
    expect(missingTemplateVariables(steps, 1, prospect, 's')).toEqual(['company']);
    expect(missingTemplateVariables(steps, 2, prospect, 's')).toEqual([]);
    expect(missingTemplateVariables(steps, 1, { ...prospect, company: 'Acme' }, 's')).toEqual([]);
  });

  it("names what a manual task's instructions lack, as the sender renders them, and nothing for an end", () => {
    const graph = {
      nodes: [
        {
          id: 'call',
          action: 'manual_task' as const,
          title: 'Call',
          instructions: 'Ask {{company}} about {{plan}}',
        },
        { id: 'end', action: 'end' as const },
      ],
      edges: [{ from: 'call', to: 'end', trigger: 'always' as const, wait: '1d' }],
    };
    expect(missingNodeTextVariables(graph, 1, prospect)).toEqual(['company', 'plan']);
    expect(
      missingNodeTextVariables(graph, 1, { ...prospect, company: 'Acme', attributes: { plan: 'Pro' } }),
    ).toEqual([]);
    expect(missingNodeTextVariables(graph, 2, prospect)).toEqual([]);
  });

  it("names what a graph's e-mail node lacks, its subject the first e-mail's when it replies in the thread", () => {
    const graph = {
      nodes: [
        { id: 'visit', action: 'linkedin_visit' as const },
        { id: 'intro', action: 'email' as const, subject: 'For {{company}}', body: 'Hi {{firstName}}' },
        { id: 'bump', action: 'email' as const, subject: 'About {{plan}}', body: 'Still {{role}}?' },
        { id: 'end', action: 'end' as const },
      ],
      edges: [
        { from: 'visit', to: 'intro', trigger: 'always' as const, wait: '1d' },
        { from: 'intro', to: 'bump', trigger: 'no_reply' as const, wait: '3d' },
        { from: 'bump', to: 'end', trigger: 'no_reply' as const, wait: '3d' },
      ],
    };
    const version = { steps: [], graph };
    expect(missingEmailVariables(version, 2, prospect, 's', false)).toEqual(['company']);
    // A reply in the thread takes the first e-mail's subject; its body is its own.
    expect(missingEmailVariables(version, 3, prospect, 's', true)).toEqual(['company', 'role']);
    // No first message (the walk passed the first e-mail by): its own subject.
    expect(missingEmailVariables(version, 3, prospect, 's', false)).toEqual(['plan', 'role']);
    // Not an e-mail node: nothing of an e-mail to render.
    expect(missingEmailVariables(version, 1, prospect, 's', false)).toEqual([]);
    // A chain given as steps renders as before (`renderTouch`).
    expect(missingEmailVariables({ steps, graph }, 1, prospect, 's', false)).toEqual(['company']);
  });
});

describe('waitingReason for a LinkedIn node: the account holds it, not the mailbox', () => {
  // The mailbox sends at any hour; the account only on Mondays 09:00-10:00 in Tokyo.
  const openMailbox = { ...mailbox, windowDays: [] as number[] };
  const account = {
    id: 'a1',
    name: 'SDR Tokyo',
    status: 'active',
    statusReason: null,
    windowDays: [] as number[],
    windowStart: '09:00',
    windowEnd: '17:00',
    holidays: [] as string[],
    timezone: 'Asia/Tokyo',
    ...DEFAULT_LINKEDIN_CAPS,
    recentActions: [] as Date[],
  };
  const tokyoMondays = { ...account, windowDays: [1], windowStart: '09:00', windowEnd: '10:00' };
  const onLinkedIn = (li: Partial<NonNullable<WaitingInput['linkedin']>>): WaitingInput => ({
    ...base,
    mailbox: openMailbox,
    linkedin: { action: 'linkedin_connect', account, poolAccounts: [], ...li },
  });
  const kept = { id: 'a1', name: 'SDR Tokyo', chosen: true };

  it("names the account's window and its next opening, in the account's zone", () => {
    // Wednesday noon UTC; the mailbox is open, the account opens Monday 09:00 Tokyo = Monday 00:00Z.
    expect(waitingReason({ ...base, mailbox: openMailbox }, NOW)?.reason).toBe('due');
    expect(waitingReason(onLinkedIn({ account: tokyoMondays }), NOW)).toEqual({
      reason: 'linkedin_window_closed',
      until: new Date('2026-11-30T00:00:00Z'),
      window: { days: [1], start: '09:00', end: '10:00', timeZone: 'Asia/Tokyo' },
      linkedinAccount: kept,
    });
    // The prospect's own zone reads the account's hours, as the sender's timingSourceFor does.
    expect(
      waitingReason({ ...onLinkedIn({ account: tokyoMondays }), prospectTimezone: 'Europe/Berlin' }, NOW),
    ).toMatchObject({
      until: new Date('2026-11-30T08:00:00Z'),
      window: { timeZone: 'Europe/Berlin' },
    });
  });

  it("is due in the account's window though the mailbox's is shut", () => {
    const shut = { ...mailbox, windowStart: '14:00', windowEnd: '17:00' };
    expect(waitingReason({ ...base, mailbox: shut }, NOW)?.reason).toBe('window_closed');
    expect(waitingReason({ ...onLinkedIn({}), mailbox: shut }, NOW)).toEqual({
      reason: 'due',
      until: null,
      linkedinAccount: kept,
    });
  });

  it("tells the account's full cap for the node's action, not the mailbox's", () => {
    const sentToday = [1, 2].map((h) => new Date(NOW.getTime() - h * 3_600_000));
    const capped = { ...account, invitationsPerDay: 2, recentActions: sentToday };
    expect(waitingReason(onLinkedIn({ account: capped }), NOW)).toEqual({
      reason: 'linkedin_cap_reached',
      until: new Date(NOW.getTime() - 2 * 3_600_000 + 86_400_000),
      cap: 'day',
      action: 'invitation',
      linkedinAccount: kept,
    });
    // A full mailbox holds no LinkedIn action.
    const fullMailbox = { ...openMailbox, perDay: 1, recentSends: [new Date(NOW.getTime() - 60_000)] };
    expect(waitingReason({ ...onLinkedIn({}), mailbox: fullMailbox }, NOW)?.reason).toBe('due');
    // The weekly invitation cap, and a cap of 0 that never grants.
    const week = [1, 2, 3].map((d) => new Date(NOW.getTime() - d * 86_400_000));
    expect(
      waitingReason(onLinkedIn({ account: { ...account, invitationsPerWeek: 3, recentActions: week } }), NOW),
    ).toMatchObject({ reason: 'linkedin_cap_reached', cap: 'week', until: new Date('2026-11-29T12:00:00Z') });
    expect(
      waitingReason(
        onLinkedIn({ action: 'linkedin_visit', account: { ...account, profileVisitsPerDay: 0 } }),
        NOW,
      ),
    ).toMatchObject({ reason: 'linkedin_cap_reached', until: null, action: 'profile_visit' });
  });

  it('tells a paused account, and neither a paused mailbox nor its domain holds the action', () => {
    const paused = { ...account, status: 'paused', statusReason: 'restricted: checkpoint' };
    expect(waitingReason(onLinkedIn({ account: paused }), NOW)).toEqual({
      reason: 'linkedin_account_paused',
      until: null,
      detail: 'restricted: checkpoint',
      linkedinAccount: kept,
    });
    const held = {
      ...onLinkedIn({}),
      mailbox: { ...openMailbox, status: 'paused', statusReason: 'dmarc' },
      domain: { status: 'paused', holdTouches: true, reason: 'bounces' },
    };
    expect(waitingReason(held, NOW)?.reason).toBe('due');
  });

  it('with no account chosen yet: none to choose, or the one the pool would choose', () => {
    expect(waitingReason(onLinkedIn({ account: null, poolAccounts: [] }), NOW)).toEqual({
      reason: 'no_linkedin_account',
      until: null,
    });
    const busy = { ...account, id: 'busy', name: 'Busy', recentActions: [new Date(NOW.getTime() - 60_000)] };
    const idle = { ...tokyoMondays, id: 'idle', name: 'Idle' };
    expect(waitingReason(onLinkedIn({ account: null, poolAccounts: [busy, idle] }), NOW)).toMatchObject({
      reason: 'linkedin_window_closed',
      linkedinAccount: { id: 'idle', name: 'Idle', chosen: false },
    });
  });

  it("tells the text's missing variable before a paused or missing account, as the sender renders it first", () => {
    const missing = { reason: 'missing_variable', until: null, variables: ['company'] };
    const paused = { ...account, status: 'paused', statusReason: 'restricted: checkpoint' };
    expect(waitingReason({ ...onLinkedIn({ account: paused }), missingVariables: ['company'] }, NOW)).toEqual(
      missing,
    );
    expect(
      waitingReason(
        { ...onLinkedIn({ account: null, poolAccounts: [] }), missingVariables: ['company'] },
        NOW,
      ),
    ).toEqual(missing);
  });

  it('waits for its due time first, naming the account', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    expect(waitingReason({ ...onLinkedIn({ account: tokyoMondays }), nextTouchAt: at }, NOW)).toEqual({
      reason: 'waiting_for_due_time',
      until: at,
      linkedinAccount: kept,
    });
  });
});

describe('waitingReason for a manual task: the sender holds it by nothing but its due time and copy', () => {
  const task: WaitingInput = { ...base, nodeAction: 'manual_task' };
  const shut = { ...mailbox, windowStart: '14:00', windowEnd: '17:00' };
  const spent = {
    ...mailbox,
    perDay: 3,
    recentSends: [1, 2, 3].map((h) => new Date(NOW.getTime() - h * 3_600_000)),
  };

  it('is due though the mailbox is out of its window, out of room, or paused, or its domain is', () => {
    // The same mailbox holds an e-mail node.
    expect(waitingReason({ ...base, mailbox: shut }, NOW)?.reason).toBe('window_closed');
    expect(waitingReason({ ...base, mailbox: spent }, NOW)?.reason).toBe('mailbox_cap_reached');
    const due = { reason: 'task_due', until: null };
    expect(waitingReason({ ...task, mailbox: shut }, NOW)).toEqual(due);
    expect(waitingReason({ ...task, mailbox: spent }, NOW)).toEqual(due);
    expect(
      waitingReason({ ...task, mailbox: { ...mailbox, status: 'paused', statusReason: 'x' } }, NOW),
    ).toEqual(due);
    expect(
      waitingReason({ ...task, domain: { status: 'paused', holdTouches: true, reason: 'x' } }, NOW),
    ).toEqual(due);
    // Nor does a pool's lack of a usable mailbox: a task picks none.
    expect(waitingReason({ ...task, poolMembers: [] }, NOW)).toEqual(due);
  });

  it('waits for its due time and its copy, and for no contact policy', () => {
    const later = new Date(NOW.getTime() + 3_600_000);
    expect(waitingReason({ ...task, nextTouchAt: later }, NOW)).toEqual({
      reason: 'waiting_for_due_time',
      until: later,
    });
    // The sender does not hold a task for a contact policy, so a recorded hold explains nothing.
    expect(
      waitingReason({ ...task, nextTouchAt: later, policyHold: { reason: 'cooldown', until: later } }, NOW),
    ).toEqual({ reason: 'waiting_for_due_time', until: later });
    expect(waitingReason({ ...task, missingVariables: ['company'] }, NOW)).toEqual({
      reason: 'missing_variable',
      until: null,
      variables: ['company'],
    });
    expect(waitingReason({ ...task, touchInProgress: true }, NOW)?.reason).toBe('touch_in_progress');
    expect(waitingReason({ ...task, status: 'exhausted' }, NOW)).toBeNull();
  });
});
