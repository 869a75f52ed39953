import { bandOf, figuresOf, type HealthBand } from '@touchbase/core';
import { round } from './delay-figures.js';
import type { CampaignRun } from './run-campaign.js';
import type { SimulationSettings } from './simulation.schemas.js';
import type { DomainRow } from './simulation-report.types.js';

const DAY = 86_400_000;

/**
 * Each domain under the guard's rule (core's `figuresOf` and `bandOf`), checked
 * once a UTC day over the rolling window of `windowDays` days, today included:
 * the first day it would warn and the first day it would pause.
 */
export function domainRows(settings: SimulationSettings, run: CampaignRun): DomainRow[] {
  const guard = settings.domainGuard;
  const startDay = Math.floor(run.start / DAY);
  const rows: DomainRow[] = [];
  const names = [...run.domainDays.keys()].sort();
  for (const domain of names) {
    const { sends, bounces } = run.domainDays.get(domain)!;
    const total = (list: number[]) => list.reduce((s, n) => s + n, 0);
    let previous: HealthBand = 'ok';
    let warnsOn: number | null = null;
    let crossesOn: number | null = null;
    const lastDay = Math.max(sends.length, bounces.length);
    for (let d = 0; d < lastDay && crossesOn === null; d++) {
      let s = 0;
      let b = 0;
      for (let k = Math.max(0, d - guard.windowDays + 1); k <= d; k++) {
        s += sends[k] ?? 0;
        b += bounces[k] ?? 0;
      }
      const figures = figuresOf(
        { sends: s, bounces: b, complaints: 0, replies: 0, ended: 0, completed: 0 },
        guard.windowDays,
      );
      const { band } = bandOf(previous, figures, {
        bounceThreshold: guard.bounceThreshold,
        bounceWarnRatio: guard.bounceWarnRatio,
        minSends: guard.minSends,
        // Complaints are not simulated: their thresholds never trigger.
        complaintAlert: 1,
        complaintPause: 1,
        complaintMinSends: Number.MAX_SAFE_INTEGER,
        windowDays: guard.windowDays,
      });
      if (band !== 'ok' && warnsOn === null) warnsOn = d;
      if (band === 'over') crossesOn = d;
      previous = band;
    }
    const s = total(sends);
    const b = total(bounces);
    const iso = (d: number | null) =>
      d === null ? null : new Date((startDay + d) * DAY).toISOString().slice(0, 10);
    rows.push({
      domain,
      sends: s,
      bounces: b,
      bounceRate: s > 0 ? round(b / s, 4) : 0,
      warnsOn: iso(warnsOn),
      crossesOn: iso(crossesOn),
      crossesOnDay: crossesOn,
    });
  }
  return rows;
}
