import { describe, expect, it } from 'vitest';
import {
  approachMessage,
  bandOf,
  type DomainState,
  decideDomain,
  figuresOf,
  type HealthSettings,
  pauseReason,
  percent,
  thresholdPercent,
} from '../../src/index.js';

const settings: HealthSettings = {
  bounceThreshold: 0.03,
  bounceWarnRatio: 0.8,
  minSends: 50,
  complaintAlert: 0.001,
  complaintPause: 0.003,
  complaintMinSends: 1000,
  windowDays: 7,
};
const counts = (sends: number, bounces: number, complaints = 0) =>
  figuresOf({ sends, bounces, complaints, replies: 0, ended: 0, completed: 0 }, 7);
const active: DomainState = { status: 'active', pauseKind: null, healthLevel: 'ok', healthySince: null };
const ctx = { now: new Date('2026-11-20T12:00:00Z'), autoResumeAfterMs: 0, accountOver: false };

describe('the bounce and complaint rules', () => {
  it('3.1% with enough sends is over; 2.9% is only approaching; exactly 3% is not over', () => {
    expect(bandOf('ok', counts(1000, 31), settings)).toEqual({ band: 'over', cause: 'bounce' });
    expect(bandOf('ok', counts(1000, 29), settings)).toEqual({ band: 'approaching', cause: 'bounce' });
    expect(bandOf('ok', counts(1000, 30), settings).band).toBe('approaching');
  });

  it('below the minimum sample nothing is judged (two bounces in ten sends)', () => {
    expect(bandOf('ok', counts(10, 2), settings)).toEqual({ band: 'ok', cause: null });
    expect(bandOf('ok', counts(49, 10), settings).band).toBe('ok');
    expect(bandOf('ok', counts(50, 10), settings).band).toBe('over');
  });

  it('warns at 80% of the threshold and clears only below 90% of that (no alert at every crossing)', () => {
    expect(bandOf('ok', counts(1000, 24), settings).band).toBe('approaching');
    expect(bandOf('ok', counts(1000, 23), settings).band).toBe('ok');
    expect(bandOf('approaching', counts(1000, 22), settings).band).toBe('approaching');
    expect(bandOf('approaching', counts(1000, 21), settings).band).toBe('ok');
  });

  it('complaints: alert at 0.1%, pause above 0.3%, with their own minimum sample', () => {
    expect(bandOf('ok', counts(2000, 0, 7), settings)).toEqual({ band: 'over', cause: 'complaint' });
    expect(bandOf('ok', counts(2000, 0, 6), settings)).toEqual({ band: 'approaching', cause: 'complaint' });
    expect(bandOf('ok', counts(2000, 0, 1), settings).band).toBe('ok');
    expect(bandOf('ok', counts(500, 0, 5), settings).band).toBe('ok');
  });

  it('an active domain over the threshold is paused; a warning is raised once, from ok only', () => {
    expect(decideDomain(active, counts(1000, 31), settings, ctx).action).toBe('pause');
    expect(decideDomain(active, counts(1000, 29), settings, ctx)).toMatchObject({
      action: 'approach',
      level: 'approaching',
    });
    const warned = { ...active, healthLevel: 'approaching' as const };
    expect(decideDomain(warned, counts(1000, 29), settings, ctx).action).toBe('none');
  });

  it('a paused domain cools off under its thresholds and resumes by itself only when the guard paused it', () => {
    const paused: DomainState = {
      status: 'paused',
      pauseKind: 'bounce',
      healthLevel: 'over',
      healthySince: null,
    };
    const hour = 3_600_000;
    const first = decideDomain(paused, counts(1000, 5), settings, { ...ctx, autoResumeAfterMs: 6 * hour });
    expect(first).toMatchObject({ action: 'none', healthySince: ctx.now });
    const later = { ...ctx, now: new Date(ctx.now.getTime() + 6 * hour), autoResumeAfterMs: 6 * hour };
    expect(decideDomain({ ...paused, healthySince: ctx.now }, counts(1000, 5), settings, later).action).toBe(
      'resume',
    );
    expect(
      decideDomain(
        { ...paused, pauseKind: 'manual', healthySince: ctx.now },
        counts(1000, 5),
        settings,
        later,
      ).action,
    ).toBe('none');
    // Over again: the cooling-off starts over.
    expect(
      decideDomain({ ...paused, healthySince: ctx.now }, counts(1000, 40), settings, later),
    ).toMatchObject({
      action: 'none',
      healthySince: null,
    });
    // Paused by the account-wide guard: the account must be under too.
    const byAccount = { ...paused, pauseKind: 'account', healthySince: ctx.now };
    expect(decideDomain(byAccount, counts(1000, 5), settings, { ...later, accountOver: true }).action).toBe(
      'none',
    );
  });

  it('writes the reason in plain words with the figures', () => {
    expect(pauseReason('bounce', counts(402, 17), settings)).toBe(
      'paused because 17 of 402 sends bounced, 4.2% over 7 days, above 3%',
    );
    expect(pauseReason('complaint', counts(1200, 0, 4), settings)).toBe(
      'paused because 4 of 1,200 sends drew a spam complaint, 0.33% over 7 days, above 0.3%',
    );
    expect(approachMessage('bounce', counts(1000, 25), settings)).toContain(
      'warning at 2.4%, pause above 3%',
    );
    expect(percent(0)).toBe('0.0%');
    expect(thresholdPercent(0.001)).toBe('0.1%');
  });
});
