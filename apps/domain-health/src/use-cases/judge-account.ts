import {
  accountPauseReason,
  alertFigures,
  approachMessage,
  type HealthBand,
  type HealthCause,
  type HealthFigures,
} from '@touchbase/core';
import {
  type DomainFigures,
  GUARD_ACTOR,
  type GuardClient,
  type TickContext,
} from './domain-health-tick.types.js';

/** The account-wide guard's judgement of this tick (core's bandOf over every domain's window). */
export type AccountJudgement = {
  /** The level saved last tick. */
  previous: HealthBand;
  band: HealthBand;
  cause: HealthCause | null;
  figures: HealthFigures;
};

/**
 * Carries out the account-wide guard's judgement in the tick's transaction, with one
 * alert for the account, never one per domain: over the threshold, every domain is
 * paused; reaching the warning level, ops are warned; domains the guard resumed from
 * its own pause are announced together. Saves the account's level and figures.
 * @param after the domains' figures after the tick; the ones paused here are marked so.
 */
export async function judgeAccount(
  ctx: TickContext,
  client: GuardClient,
  account: AccountJudgement,
  resumedFromAccount: string[],
  after: DomainFigures[],
): Promise<void> {
  const { deps, now, thresholds, result } = ctx;
  const { settings } = deps;
  const sd = deps.repos.sendingDomains;
  const accountFigures = account.figures;
  const accountData = { figures: alertFigures(accountFigures), thresholds };
  if (account.band === 'over' && account.previous !== 'over' && account.cause) {
    const reason = accountPauseReason(account.cause, accountFigures, settings);
    const paused = await sd.pauseAll(client, {
      actor: GUARD_ACTOR,
      reason,
      holdTouches: deps.holdInFlight,
      figures: accountFigures,
      at: now,
    });
    for (const p of paused) {
      result.paused.push(p.domain);
      const row = after.find((x) => x.domainId === p.id);
      if (row) row.status = 'paused';
    }
    await sd.audit(client, GUARD_ACTOR, 'account.paused', 'account', {
      reason,
      figures: accountFigures,
      domains: paused.length,
    });
    ctx.raised(
      await sd.raiseAlert(client, {
        kind: 'account.paused',
        domainId: null,
        message: `${reason}; ${paused.length} domain${paused.length === 1 ? '' : 's'} paused`,
        data: accountData,
      }),
      'account.paused',
    );
    deps.logger.warn({ domains: paused.length, cause: account.cause }, 'Every sending domain paused');
  } else if (account.band === 'approaching' && account.previous === 'ok' && account.cause) {
    ctx.raised(
      await sd.raiseAlert(client, {
        kind: 'account.threshold_approached',
        domainId: null,
        message: approachMessage(account.cause, accountFigures, settings, ' across all domains'),
        data: accountData,
      }),
      'account.threshold_approached',
    );
  }
  if (resumedFromAccount.length > 0) {
    ctx.raised(
      await sd.raiseAlert(client, {
        kind: 'account.resumed',
        domainId: null,
        message: `resumed automatically after the account-wide pause: ${resumedFromAccount.join(', ')}`,
        data: accountData,
      }),
      'account.resumed',
    );
  }
  await deps.repos.domainHealth.saveAccount(client, {
    level: account.band,
    figures: { ...accountFigures, checkedAt: now.toISOString() },
    settings: { ...settings, accountGuard: deps.accountGuard, autoResumeAfterMs: deps.autoResumeAfterMs },
    checkedAt: now,
  });
  result.account = {
    level: account.band,
    sends: accountFigures.sends,
    bounces: accountFigures.bounces,
    bounceRate: accountFigures.bounceRate,
    complaintRate: accountFigures.complaintRate,
  };
}
