import { type FunnelRow, funnelRow, funnelTracking } from '@touchbase/core';
import type { FunnelCountsRow, FunnelFilter, FunnelView, ReadRepositories } from '@touchbase/db';

/** A view's rows: their keys with counts and rates. */
export type FunnelViewRows = (Omit<FunnelCountsRow, keyof FunnelRow> & FunnelRow)[];

/**
 * Reads funnel views (one statement each, in parallel) and adds core's rates. Opens,
 * clicks and deliveries are known or not for all the views together: a provider
 * that reports none leaves them null everywhere rather than zero.
 */
export async function readFunnel<V extends FunnelView>(
  repos: Pick<ReadRepositories, 'funnel'>,
  views: readonly V[],
  filter: FunnelFilter,
): Promise<Record<V, FunnelViewRows>> {
  const read = await Promise.all(views.map((v) => repos.funnel.view(v, filter)));
  const tracking = funnelTracking(read.flat());
  const out = {} as Record<V, FunnelViewRows>;
  views.forEach((v, i) => {
    out[v] = (read[i] ?? []).map((row) => ({ ...row, ...funnelRow(row, tracking) }));
  });
  return out;
}
