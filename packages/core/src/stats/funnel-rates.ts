/** The counts of one funnel row (a sequence, step, variant, mailbox or domain), each of distinct enrollments. */
export type FunnelCounts = {
  /** Enrollments in the row; absent where it means nothing (a step, a variant). */
  enrolled?: number;
  /** Enrollments the row's touches reached (a step resent after a soft bounce counts once). */
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  replied: number;
  positiveReplies: number;
  bounced: number;
  unsubscribed: number;
  exhausted: number;
};

/** Which engagement events the provider reports at all: without any, a count is unknown, not zero. */
export type FunnelTracking = { delivered: boolean; opened: boolean; clicked: boolean };

/** A funnel row as the API shows it: unknown counts null, rates over `sent` (null with nothing sent). */
export type FunnelRow = Omit<FunnelCounts, 'delivered' | 'opened' | 'clicked'> & {
  delivered: number | null;
  opened: number | null;
  clicked: number | null;
  replyRate: number | null;
  positiveReplyRate: number | null;
  bounceRate: number | null;
  unsubscribeRate: number | null;
  openRate: number | null;
  clickRate: number | null;
};

/** `part / whole` to 4 decimals; null when nothing was sent. */
export function rate(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.round((part / whole) * 10_000) / 10_000;
}

/** Whether the rows show any delivery, open or click at all (the provider tracks them). */
export function funnelTracking(rows: readonly FunnelCounts[]): FunnelTracking {
  return {
    delivered: rows.some((r) => r.delivered > 0),
    opened: rows.some((r) => r.opened > 0),
    clicked: rows.some((r) => r.clicked > 0),
  };
}

/** Rates of one row; opens, clicks and deliveries the provider does not report stay null. */
export function funnelRow(counts: FunnelCounts, tracking: FunnelTracking): FunnelRow {
  const known = (n: number, k: boolean) => (k ? n : null);
  return {
    ...counts,
    delivered: known(counts.delivered, tracking.delivered),
    opened: known(counts.opened, tracking.opened),
    clicked: known(counts.clicked, tracking.clicked),
    replyRate: rate(counts.replied, counts.sent),
    positiveReplyRate: rate(counts.positiveReplies, counts.sent),
    bounceRate: rate(counts.bounced, counts.sent),
    unsubscribeRate: rate(counts.unsubscribed, counts.sent),
    openRate: tracking.opened ? rate(counts.opened, counts.sent) : null,
    clickRate: tracking.clicked ? rate(counts.clicked, counts.sent) : null,
  };
}
