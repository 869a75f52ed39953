import { describe, expect, it } from 'vitest';
import {
  addressChangeOf,
  addressHash,
  auditsStop,
  breaksSoftBounceStreak,
  type CanonicalEvent,
  effectOf,
  eventPathOf,
  isPausedByOutOfOffice,
  isSuppressed,
  noEffectOutcome,
  redactedEvent,
  resendOf,
  softBounceEffect,
  stopActionOf,
  suppressionKeysOf,
  triageOf,
} from '../../src/index.js';

const event = (over: Partial<CanonicalEvent> & Pick<CanonicalEvent, 'type'>): CanonicalEvent => ({
  source: 'test',
  externalId: 'e1',
  occurredAt: new Date('2026-01-01T00:00:00Z'),
  channel: 'email',
  data: {},
  ...over,
});

describe('what each canonical event does', () => {
  it('stops on a reply, a hard bounce (suppressed, address dead), an unsubscribe, a complaint and a CRM deal', () => {
    expect(effectOf(event({ type: 'reply', classification: 'not_interested' }))).toEqual({
      kind: 'stop',
      status: 'replied',
      reason: 'reply:not_interested',
      suppress: false,
      invalidateEmail: false,
    });
    expect(effectOf(event({ type: 'bounce', bounce: { hard: true, status: '5.1.1' } }))).toMatchObject({
      kind: 'stop',
      status: 'bounced',
      reason: 'bounce:5.1.1',
      suppress: true,
      invalidateEmail: true,
    });
    expect(effectOf(event({ type: 'unsubscribe' }))).toMatchObject({
      status: 'unsubscribed',
      suppress: true,
    });
    expect(effectOf(event({ type: 'complaint' }))).toMatchObject({ reason: 'complaint', suppress: true });
    expect(effectOf(event({ type: 'crm.deal_won' }))).toMatchObject({ status: 'cancelled', suppress: false });
  });

  it('pauses on an out-of-office, erases on request, and does nothing on a delivery', () => {
    expect(effectOf(event({ type: 'out_of_office', returnDate: '2026-02-01' }))).toEqual({
      kind: 'pause',
      reason: 'out_of_office',
      returnDate: '2026-02-01',
    });
    expect(effectOf(event({ type: 'erasure_request' }))).toEqual({ kind: 'erase' });
    expect(effectOf(event({ type: 'delivered' }))).toEqual({ kind: 'none', reason: 'informational' });
  });

  it('refuses an address change proved only by a token, and one without a new address', () => {
    expect(effectOf(event({ type: 'email_changed', newEmail: 'b@x.example', auth: 'token' }))).toEqual({
      kind: 'none',
      reason: 'refused_unsigned',
    });
    expect(effectOf(event({ type: 'email_changed' }))).toEqual({ kind: 'none', reason: 'no_new_address' });
    expect(effectOf(event({ type: 'email_changed', newEmail: 'b@x.example' }))).toEqual({
      kind: 'email_changed',
      newEmail: 'b@x.example',
    });
    expect(noEffectOutcome('refused_unsigned')).toBe('refused_unsigned');
    expect(noEffectOutcome('informational')).toBe('no_effect');
  });

  it('resends after a soft bounce until the third in a row, which counts as hard', () => {
    const soft = event({ type: 'bounce', bounce: { hard: false, status: '4.2.2' } });
    expect(softBounceEffect(soft, 2)).toMatchObject({ kind: 'soft_bounce', status: '4.2.2' });
    expect(softBounceEffect(soft, 3)).toMatchObject({
      kind: 'stop',
      reason: 'bounce:soft_x3',
      suppress: true,
    });
    expect(breaksSoftBounceStreak({ type: 'opened' })).toBe(true);
    expect(breaksSoftBounceStreak({ type: 'bounce', bounce: { hard: true } })).toBe(true);
    expect(breaksSoftBounceStreak({ type: 'bounce', bounce: { hard: false } })).toBe(false);
    expect(breaksSoftBounceStreak({ type: 'sent' })).toBe(false);
  });

  it('sends a soft-bounced touch again only while it is still the current one', () => {
    const touch = { step: 1, attempt: 1, status: 'sent' };
    expect(resendOf(touch, { status: 'active', currentStep: 1, currentAttempt: 1 })).toEqual({
      step: 1,
      attempt: 2,
      replaces: null,
    });
    expect(resendOf(touch, { status: 'active', currentStep: 2, currentAttempt: 1 })).toEqual({
      step: 1,
      attempt: 2,
      replaces: { step: 2, attempt: 1 },
    });
    expect(resendOf(touch, { status: 'active', currentStep: 2, currentAttempt: 1 }, true)).toBeNull();
    expect(resendOf(touch, { status: 'paused', currentStep: 1, currentAttempt: 1 })).toBeNull();
    expect(resendOf(touch, { status: 'active', currentStep: 3, currentAttempt: 1 })).toBeNull();
    expect(
      resendOf({ ...touch, attempt: 3 }, { status: 'active', currentStep: 1, currentAttempt: 3 }),
    ).toBeNull();
    expect(
      resendOf({ ...touch, status: 'failed' }, { status: 'active', currentStep: 1, currentAttempt: 1 }),
    ).toBeNull();
  });
});

describe('scope of an event', () => {
  it('pauses active enrollments and re-dates out-of-office pauses only', () => {
    expect(isPausedByOutOfOffice({ status: 'active', stopReason: null })).toBe(true);
    expect(isPausedByOutOfOffice({ status: 'paused', stopReason: 'out_of_office' })).toBe(true);
    expect(isPausedByOutOfOffice({ status: 'paused', stopReason: 'manual' })).toBe(false);
    expect(isPausedByOutOfOffice({ status: 'replied', stopReason: 'reply' })).toBe(false);
  });

  it('sends person-written messages from strangers to triage', () => {
    expect(triageOf(event({ type: 'reply', email: ' Who@X.example ' }))).toEqual({
      kind: 'unknown_sender',
      from: 'who@x.example',
    });
    expect(triageOf(event({ type: 'reply', email: 'a@x.example', inReply: false }))?.kind).toBe(
      'cold_inbound',
    );
    expect(triageOf(event({ type: 'reply' }))).toBeNull();
    expect(triageOf(event({ type: 'bounce', email: 'a@x.example' }))).toBeNull();
  });

  it('audits unsubscribes and picks the execution of each event', () => {
    expect(auditsStop(event({ type: 'unsubscribe' }))).toBe(true);
    expect(auditsStop(event({ type: 'reply' }))).toBe(false);
    const named = { enrollmentId: '00000000-0000-4000-8000-000000000001' };
    const reply = event({ type: 'reply', ...named });
    const hard = event({ type: 'bounce', bounce: { hard: true }, ...named });
    const unsubscribe = event({ type: 'unsubscribe', ...named });
    const opened = event({ type: 'opened', ...named });
    expect(eventPathOf(reply, effectOf(reply), { notifyCrm: true })).toBe('batched_stop');
    expect(eventPathOf(hard, effectOf(hard), { notifyCrm: false })).toBe('batched_stop');
    expect(eventPathOf(hard, effectOf(hard), { notifyCrm: true })).toBe('general');
    expect(eventPathOf(unsubscribe, effectOf(unsubscribe), { notifyCrm: false })).toBe('general');
    expect(eventPathOf(opened, effectOf(opened), { notifyCrm: false })).toBe('informational');
    const unnamed = event({ type: 'reply' });
    expect(eventPathOf(unnamed, effectOf(unnamed), { notifyCrm: false })).toBe('general');
  });

  it('changes an address only to a different one', () => {
    expect(addressChangeOf('a@x.example', ' A@X.example')).toBeNull();
    expect(addressChangeOf('a@x.example', 'B@x.example')).toBe('b@x.example');
  });
});

describe('the out-of-order rule: the earliest stopping event decides', () => {
  const t = (iso: string) => new Date(`2026-01-0${iso}T00:00:00Z`);
  it('stops a live enrollment', () => {
    for (const status of ['queued', 'active', 'paused'] as const)
      expect(
        stopActionOf(
          { status, stoppedByEventAt: null, updatedAt: t('1') },
          { status: 'replied', at: t('2') },
        ),
      ).toBe('stop');
  });

  it('restates an end set by a later event, and an exhaustion after the event', () => {
    const bouncedLater = { status: 'bounced' as const, stoppedByEventAt: t('3'), updatedAt: t('3') };
    expect(stopActionOf(bouncedLater, { status: 'replied', at: t('2') })).toBe('restate');
    expect(stopActionOf(bouncedLater, { status: 'replied', at: t('4') })).toBe('keep');
    expect(stopActionOf(bouncedLater, { status: 'bounced', at: t('2') })).toBe('keep');
    expect(stopActionOf(bouncedLater, { status: 'replied', at: null })).toBe('keep');
    const exhausted = { status: 'exhausted' as const, stoppedByEventAt: null, updatedAt: t('3') };
    expect(stopActionOf(exhausted, { status: 'replied', at: t('2') })).toBe('restate');
    expect(stopActionOf(exhausted, { status: 'replied', at: t('4') })).toBe('keep');
  });

  it('never restates a manual cancel or a failure', () => {
    expect(
      stopActionOf(
        { status: 'cancelled', stoppedByEventAt: null, updatedAt: t('3') },
        { status: 'replied', at: t('2') },
      ),
    ).toBe('keep');
    expect(
      stopActionOf(
        { status: 'failed', stoppedByEventAt: t('3'), updatedAt: t('3') },
        { status: 'replied', at: t('2') },
      ),
    ).toBe('keep');
  });
});

describe('suppression matching', () => {
  it('matches an address by itself, its domain and its hash', () => {
    const keys = suppressionKeysOf(' Jane@Corp.example ');
    expect(keys).toEqual({
      email: 'jane@corp.example',
      domain: 'corp.example',
      hash: addressHash('jane@corp.example'),
    });
    expect(keys.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(isSuppressed('jane@corp.example', [{ kind: 'domain', value: 'corp.example' }])).toBe(true);
    expect(isSuppressed('jane@corp.example', [{ kind: 'hash', value: keys.hash }])).toBe(true);
    expect(isSuppressed('jane@corp.example', [{ kind: 'email', value: 'corp.example' }])).toBe(false);
  });

  it('logs no address: addresses and profile URLs become their hash', () => {
    const logged = redactedEvent(
      event({ type: 'reply', email: 'a@x.example', linkedinUrl: 'https://l.example/in/a' }),
    );
    expect(logged.email).toBe(`sha256:${addressHash('a@x.example')}`);
    expect(logged.linkedinUrl).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
