import {
  channelOf,
  type DoNotContactTable,
  doNotContactRuleOf,
  missingEmailVariables,
  missingNodeTextVariables,
  recipientCountryOf,
  type SequenceGraph,
  type SequenceStep,
  type Waiting,
  type WaitingLinkedIn,
  type WaitingMailbox,
  type WaitingReason,
  waitingReason,
} from '@touchbase/core';
import type {
  EnrollmentRow,
  ReadRepositories,
  WaitingLinkedInAccountRow,
  WaitingStateRow,
} from '@touchbase/db';

export type ExplainWaitingDeps = {
  /** The runtime's `reads` (a replica when set) or the primary's repositories. */
  repos: Pick<ReadRepositories, 'waiting' | 'enrollments'>;
  clock: () => Date;
  /** TIME_SCALE: above 1 the sender ignores windows, and so does the answer. */
  timeScale: number;
  /** Do-not-contact hours and days per recipient country, on top of every window (as the sender applies them). */
  doNotContact?: DoNotContactTable;
};

/** One enrollment and why it is not being sent (null: it has ended). */
export type EnrollmentWaiting = EnrollmentRow & { waiting: Waiting | null };

/** A node of a graph sequence whose action failed for good and was passed over (a LinkedIn profile not found). */
export type NodeFailure = { step: number; reason: string; at: Date };

/** Rows read per statement while a filter or a summary walks the live enrollments. */
const CHUNK = 1_000;
/** A filtered page stops after reading this many rows and hands back its cursor, so no request walks the whole table. */
const SCAN_LIMIT = 20_000;

/** Why one enrollment is not being sent right now. @throws DomainError not_found */
export async function explainWaiting(
  deps: ExplainWaitingDeps,
  id: string,
): Promise<EnrollmentWaiting & { lastFailure: NodeFailure | null }> {
  const now = deps.clock();
  const [row] = await deps.repos.waiting.states({ id }, 1, now);
  // The walk may have passed over a node whose action failed for good: say which and why.
  const lastFailure = await deps.repos.waiting.lastFailure(id);
  if (!row) {
    // Not live (ended), or not there at all: get() throws not_found for the latter.
    const e = await deps.repos.enrollments.get(id);
    return { ...e, waiting: null, lastFailure };
  }
  const [explained] = await explainRows(deps, [row], now);
  return { ...(explained as EnrollmentWaiting), lastFailure };
}

/**
 * The live enrollments waiting for `reason`, in id order after `after`. SQL narrows
 * the rows to those that can have the reason; core decides. A page may come back
 * short (or empty) with a cursor when the scan bound is reached first: follow `next`.
 */
export async function listWaiting(
  deps: ExplainWaitingDeps,
  q: { reason: WaitingReason; sequenceId?: string | undefined; limit: number; after?: string | undefined },
): Promise<{ items: EnrollmentWaiting[]; next: string | null }> {
  const now = deps.clock();
  const items: EnrollmentWaiting[] = [];
  let after = q.after;
  let scanned = 0;
  for (;;) {
    const rows = await deps.repos.waiting.states(
      { reason: q.reason, sequenceId: q.sequenceId, after },
      CHUNK,
      now,
    );
    scanned += rows.length;
    for (const e of await explainRows(deps, rows, now)) {
      after = e.id;
      if (e.waiting?.reason !== q.reason) continue;
      items.push(e);
      if (items.length === q.limit) return { items, next: e.id };
    }
    if (rows.length < CHUNK) return { items, next: null };
    if (scanned >= SCAN_LIMIT) return { items, next: after ?? null };
  }
}

/** How many live enrollments wait for each reason (every reason listed, zeros included). */
export async function waitingSummary(
  deps: ExplainWaitingDeps,
  q: { sequenceId?: string | undefined },
): Promise<{ total: number; byReason: Record<WaitingReason, number> }> {
  const now = deps.clock();
  const byReason = {} as Record<WaitingReason, number>;
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const rows = await deps.repos.waiting.states({ sequenceId: q.sequenceId, after }, CHUNK, now);
    for (const e of await explainRows(deps, rows, now)) {
      if (!e.waiting) continue;
      byReason[e.waiting.reason] = (byReason[e.waiting.reason] ?? 0) + 1;
      total++;
    }
    if (rows.length < CHUNK) break;
    after = rows[rows.length - 1]?.id;
  }
  return { total, byReason };
}

async function explainRows(
  deps: ExplainWaitingDeps,
  rows: WaitingStateRow[],
  now: Date,
): Promise<EnrollmentWaiting[]> {
  if (rows.length === 0) return [];
  const onLinkedIn = (r: WaitingStateRow) => channelOf(r.nodeAction) === 'linkedin';
  // Only an e-mail node picks from the mailbox pool (a LinkedIn node is its account's, a task is no one's).
  const pooled = (r: WaitingStateRow) =>
    r.mailboxPoolId !== null &&
    r.currentStep === 1 &&
    r.conversationId === null &&
    channelOf(r.nodeAction) === 'email';
  const poolIds = [...new Set(rows.filter(pooled).map((r) => r.mailboxPoolId as string))];
  const [members, versions, linkedin] = await Promise.all([
    deps.repos.waiting.usablePoolMembers(poolIds),
    deps.repos.waiting.versions([...new Set(rows.map((r) => r.sequenceVersionId))]),
    linkedInOf(deps, rows.filter(onLinkedIn), now),
  ]);
  const mailboxIds = new Set(rows.map((r) => r.mailbox.id));
  for (const list of members.values()) for (const m of list) mailboxIds.add(m.id);
  const sends = await deps.repos.waiting.recentSends([...mailboxIds], now);
  const withSends = (m: Omit<WaitingMailbox, 'recentSends'>): WaitingMailbox => ({
    ...m,
    holidays: m.holidays ?? [],
    recentSends: (sends.get(m.id) ?? []).map((d) => new Date(d)),
  });
  return rows.map((r) => {
    const waiting = waitingReason(
      {
        status: r.status,
        stopReason: r.stopReason,
        nextTouchAt: r.nextTouchAt,
        touchInProgress: r.touchInProgress,
        prospectTimezone: r.prospect.timezone,
        mailbox: withSends(r.mailbox),
        domain: r.domain,
        sequenceWindow: r.sequenceWindow,
        poolMembers: pooled(r) ? (members.get(r.mailboxPoolId as string) ?? []).map(withSends) : null,
        missingVariables: missingVariablesOf(r, versions.get(r.sequenceVersionId)),
        timeScale: deps.timeScale,
        policyHold: r.policyHold
          ? { reason: r.policyHold.reason, until: new Date(r.policyHold.until) }
          : null,
        nextTouchUnfittedAt: r.nextTouchUnfittedAt,
        recipientCountry: recipientCountryOf(r.prospect.attributes),
        doNotContact: doNotContactRuleOf(deps.doNotContact, recipientCountryOf(r.prospect.attributes)),
        linkedin: linkedin.get(r.id) ?? null,
        nodeAction: r.nodeAction,
      },
      now,
    );
    const {
      touchInProgress: _t,
      prospect: _p,
      mailbox: _m,
      domain: _d,
      sequenceWindow: _w,
      mailboxPoolId: _pool,
      policyHold: _hold,
      nextTouchUnfittedAt: _raw,
      nodeAction: _node,
      linkedinAccount: _account,
      ...enrollment
    } = r;
    return { ...enrollment, waiting };
  });
}

/**
 * The variables the current node's copy lacks, as the sender renders it: an e-mail's
 * copy (a chain's step, or a graph's e-mail node, its subject by the thread), or a LinkedIn action's or a manual task's text (core's `renderNodeText`).
 */
function missingVariablesOf(
  r: WaitingStateRow,
  version: { steps: SequenceStep[]; graph: SequenceGraph } | undefined,
): string[] {
  if (!version) return [];
  const prospect = { ...r.prospect, attributes: r.prospect.attributes ?? {} };
  return channelOf(r.nodeAction) === 'email'
    ? missingEmailVariables(version, r.currentStep, prospect, r.sequenceId, r.firstMessageId !== null)
    : missingNodeTextVariables(version.graph, r.currentStep, prospect);
}

/**
 * What core's rule needs of each row at a LinkedIn node: the account it keeps, else
 * its pool's active accounts (the sender chooses among them), each with its recent
 * actions of the node's kind.
 */
async function linkedInOf(
  deps: ExplainWaitingDeps,
  rows: WaitingStateRow[],
  now: Date,
): Promise<Map<string, WaitingLinkedIn>> {
  if (rows.length === 0) return new Map();
  const choosing = rows.filter((r) => !r.linkedinAccount && r.mailboxPoolId !== null);
  const pools = await deps.repos.waiting.linkedInPoolAccounts([
    ...new Set(choosing.map((r) => r.mailboxPoolId as string)),
  ]);
  const candidates = (r: WaitingStateRow) =>
    r.linkedinAccount ? [] : r.mailboxPoolId ? (pools.get(r.mailboxPoolId) ?? []) : [];
  const pairs = new Map<string, { accountId: string; action: string }>();
  for (const r of rows) {
    for (const a of [...(r.linkedinAccount ? [r.linkedinAccount] : []), ...candidates(r)])
      pairs.set(`${a.id} ${r.nodeAction}`, { accountId: a.id, action: r.nodeAction });
  }
  const actions = await deps.repos.waiting.recentLinkedInActions([...pairs.values()], now);
  const withActions = (a: WaitingLinkedInAccountRow, action: string) => ({
    ...a,
    holidays: a.holidays ?? [],
    recentActions: (actions.get(`${a.id} ${action}`) ?? []).map((d) => new Date(d)),
  });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        action: r.nodeAction,
        account: r.linkedinAccount ? withActions(r.linkedinAccount, r.nodeAction) : null,
        poolAccounts: candidates(r).map((a) => withActions(a, r.nodeAction)),
      },
    ]),
  );
}
