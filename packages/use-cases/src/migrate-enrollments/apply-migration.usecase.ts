import { setTimeout as sleep } from 'node:timers/promises';
import {
  DomainError,
  MIGRATABLE_STATUSES,
  type MigrationFilter,
  migratedAttempt,
  migratedTouchDue,
  nodeAt,
  nodeNumber,
  populationFingerprint,
  ranNodeIds,
  ranVersions,
  type SequenceGraph,
  touchKey,
  touchTimingOf,
  wouldResend,
} from '@touchbase/core';
import type { MigrateEnrollmentsDeps } from './migrate-enrollments.deps.js';
import type {
  MigrationBatchDecision,
  MigrationBatchRow,
  SequenceMigrationRow,
} from './migrate-enrollments.ports.js';
import { loadVersionGraphs } from './version-graphs.js';

/**
 * Applies a stored plan (`{ planId }`): exactly the population the dry run saw, or
 * `population_changed` (409) when the live enrollments of the source version (ids,
 * nodes, statuses, under the plan's filter) no longer have the plan's fingerprint.
 * Marks it `applying` and audits who applied it (and why, when the applier says); the moving itself is
 * {@link runMigration}, which the caller starts (in the background for the API).
 * A plan already applying or completed is answered as it is (applying twice is safe).
 */
export async function applyVersionMigration(
  deps: MigrateEnrollmentsDeps,
  cmd: { sequenceId: string; planId: string; actor: string; reason?: string | undefined },
): Promise<SequenceMigrationRow> {
  const m = await deps.repos.sequenceMigrations.get(cmd.planId, cmd.sequenceId);
  if (!m)
    throw new DomainError('not_found', 'migration plan not found', {
      errors: [{ field: 'planId', message: `no plan ${cmd.planId} for this sequence` }],
    });
  if (m.status !== 'planned') return m;
  const filter = m.filter as MigrationFilter & { statuses: string[] };
  const from = await deps.repos.sequences.version(m.fromVersionId);
  const nodes = filter.nodes?.map((id) => nodeNumber(from.graph, id)) ?? null;
  const now = await deps.repos.sequenceMigrations.candidates(m.fromVersionId, filter.statuses, nodes);
  if (populationFingerprint(now) !== m.fingerprint)
    throw new DomainError(
      'population_changed',
      'the enrollments this plan covers changed since its dry run (an enrollment moved on, stopped or joined): plan again',
      { errors: [{ field: 'planId', message: 'the population changed since the dry run' }], planId: m.id },
    );
  if (await deps.repos.sequenceMigrations.startApplying(m.id, cmd.actor)) {
    await deps.repos.audit.write({
      actor: cmd.actor,
      action: 'sequence.migration_applied',
      entityType: 'sequence',
      entityId: m.sequenceId,
      // The plan's reason; the applier's own, when given, beside it.
      data: {
        migrationId: m.id,
        reason: m.reason,
        plannedBy: m.plannedBy,
        ...(cmd.reason ? { appliedReason: cmd.reason } : {}),
      },
    });
  }
  return (await deps.repos.sequenceMigrations.get(m.id))!;
}

/** What one run did. */
export type MigrationRunResult = { moved: number; skipped: number; deferred: number; completed: boolean };

/**
 * Moves the pending enrollments of an `applying` migration, a batch (one
 * transaction) at a time, until none is left or `budgetMs` has passed (then it
 * stays `applying` for the next run: the reconciler's, or the API's). Enrollments
 * with a touch in flight, or whose job a sender holds, are left for a later batch.
 * Each moved enrollment's old job is removed under its row lock and its new job
 * (the new version's due time, in its window) is added after the commit; a crash
 * in between leaves the row right and the reconciler adds the job from it.
 */
export async function runMigration(
  deps: MigrateEnrollmentsDeps,
  migrationId: string,
  opts: { budgetMs?: number } = {},
): Promise<MigrationRunResult> {
  const m = await deps.repos.sequenceMigrations.get(migrationId);
  if (!m) throw new DomainError('not_found', 'migration not found', { migrationId });
  const result: MigrationRunResult = {
    moved: 0,
    skipped: 0,
    deferred: 0,
    completed: m.status === 'completed',
  };
  if (m.status !== 'applying') return result;
  const from = await deps.repos.sequences.version(m.fromVersionId);
  const to = await deps.repos.sequences.version(m.toVersionId);
  const clock = deps.clock ?? (() => new Date());
  const started = Date.now();
  const budget = opts.budgetMs ?? Number.POSITIVE_INFINITY;
  const log = deps.logger.child({ migrationId, sequenceId: m.sequenceId });
  const graphs = new Map([
    [from.id, from.graph],
    [to.id, to.graph],
  ]);
  while (Date.now() - started < budget) {
    const decisions = await deps.repos.sequenceMigrations.runBatch(
      migrationId,
      deps.batchSize ?? 200,
      (rows) =>
        decideBatch(
          deps,
          { from: from.graph, to: to.graph, fromId: from.id, toId: to.id, mapping: m.mapping, graphs },
          rows,
          clock(),
        ),
      { actor: m.appliedBy ?? m.plannedBy, reason: m.reason },
    );
    if (decisions.length === 0) {
      if (await deps.repos.sequenceMigrations.completeIfDone(migrationId)) {
        result.completed = true;
        await deps.repos.audit.write({
          actor: m.appliedBy ?? m.plannedBy,
          action: 'sequence.migration_completed',
          entityType: 'sequence',
          entityId: m.sequenceId,
          data: { migrationId, reason: m.reason },
        });
        log.info({ moved: result.moved, skipped: result.skipped }, 'Migration completed');
        return result;
      }
      // Another applier holds the last batches: let it finish them.
      await sleep(deps.deferWaitMs ?? 250);
      continue;
    }
    await scheduleMoved(deps, decisions, log);
    const moved = decisions.filter((d) => d.kind === 'move').length;
    const deferred = decisions.filter((d) => d.kind === 'defer').length;
    result.moved += moved;
    result.skipped += decisions.filter((d) => d.kind === 'skip').length;
    result.deferred += deferred;
    // Only touches in flight left in this batch: give them time to settle.
    if (deferred === decisions.length) await sleep(deps.deferWaitMs ?? 250);
  }
  log.info({ ...result }, 'Migration run paused at its time budget; the next run continues');
  return result;
}

type Versions = {
  from: SequenceGraph;
  to: SequenceGraph;
  fromId: string;
  toId: string;
  mapping: Record<string, string>;
  /** The graphs of the versions read so far (touches of older versions are read in their own). */
  graphs: Map<string, SequenceGraph>;
};

/**
 * Decides, under the rows' locks, what becomes of each enrollment of a batch: it
 * moves by the mapping of the node it is at now (it may have moved on since the
 * plan), or is skipped when it stopped, left the source version, or its new
 * place would act again; a touch in flight (claimed, or its job held by a sender)
 * defers it.
 */
async function decideBatch(
  deps: MigrateEnrollmentsDeps,
  v: Versions,
  rows: MigrationBatchRow[],
  now: Date,
): Promise<MigrationBatchDecision[]> {
  const decisions: MigrationBatchDecision[] = [];
  const toRemove: MigrationBatchRow[] = [];
  const targets = new Map<string, number>();
  const graphs = await loadVersionGraphs(
    deps,
    ranVersions(rows.map((r) => (r.lastRun ? [...r.ran, r.lastRun] : r.ran))),
    v.graphs,
  );
  for (const r of rows) {
    if (!(MIGRATABLE_STATUSES as readonly string[]).includes(r.status)) {
      decisions.push({ enrollmentId: r.enrollmentId, kind: 'skip', reason: `stopped: ${r.status}` });
      continue;
    }
    if (r.versionId !== v.fromId) {
      decisions.push({ enrollmentId: r.enrollmentId, kind: 'skip', reason: 'left the source version' });
      continue;
    }
    if (r.inFlight) {
      decisions.push({ enrollmentId: r.enrollmentId, kind: 'defer' });
      continue;
    }
    const source = nodeAt(v.from, r.node);
    const targetId = source ? v.mapping[source.id] : undefined;
    if (!source || source.action === 'end' || targetId === undefined) {
      decisions.push({
        enrollmentId: r.enrollmentId,
        kind: 'skip',
        reason: source?.action === 'end' || !source ? 'at the end' : `moved on to unmapped node ${source.id}`,
      });
      continue;
    }
    const target = nodeNumber(v.to, targetId);
    if (wouldResend(v.to, target, r.ran, graphs)) {
      decisions.push({
        enrollmentId: r.enrollmentId,
        kind: 'skip',
        reason: `moved on: node ${targetId} was already run on its path`,
      });
      continue;
    }
    targets.set(r.enrollmentId, target);
    if (r.status === 'active') toRemove.push(r);
  }
  // The old job goes while the row is locked: a sender holding it is sending now, so that
  // enrollment waits for a later batch; once removed, no sender can take it any more.
  const held = await deps.touchQueue.removeUnlessActive(
    toRemove.map((r) => ({ enrollmentId: r.enrollmentId, step: r.node, attempt: r.attempt })),
  );
  for (const r of rows) {
    const target = targets.get(r.enrollmentId);
    if (target === undefined) continue;
    if (held.has(touchKey(r.enrollmentId, r.node, r.attempt))) {
      decisions.push({ enrollmentId: r.enrollmentId, kind: 'defer' });
      continue;
    }
    // Timed as the sender times its next node: its timing (window, do-not-contact, jitter) and due function.
    const due =
      r.status === 'active'
        ? migratedTouchDue({
            to: v.to,
            target,
            lastRunAt: r.lastRunAt,
            lastRunNode: r.lastRun ? ([...ranNodeIds([r.lastRun], graphs)][0] ?? null) : null,
            pendingAt: r.nextTouchAt,
            now,
            timing: touchTimingOf(
              {
                prospect: { timezone: r.prospectTimezone, attributes: r.prospectAttributes },
                mailbox: { ...r.mailbox, timezone: r.mailboxTimezone },
                sequenceWindow: r.sequenceWindow,
              },
              { timeScale: deps.timeScale, jitterMs: deps.jitterMs, doNotContact: deps.doNotContact },
            ),
          })
        : null;
    decisions.push({
      enrollmentId: r.enrollmentId,
      kind: 'move',
      toVersionId: v.toId,
      toNode: target,
      attempt: migratedAttempt({ fromNode: r.node, toNode: target, attempt: r.attempt }, r.attempts),
      nextTouchAt: due ? due.at : r.nextTouchAt,
      nextTouchUnfittedAt: due ? due.unfittedAt : null,
    });
  }
  return decisions;
}

/**
 * After the batch committed: the moved active enrollments get their new job. A job
 * of the same key re-added meanwhile (the reconciler, from the old row) is removed
 * first, so the new due time holds.
 */
async function scheduleMoved(
  deps: MigrateEnrollmentsDeps,
  decisions: MigrationBatchDecision[],
  log: MigrateEnrollmentsDeps['logger'],
): Promise<void> {
  const due = decisions.flatMap((d) =>
    d.kind === 'move' && d.nextTouchAt
      ? [{ enrollmentId: d.enrollmentId, step: d.toNode, attempt: d.attempt, dueAt: d.nextTouchAt }]
      : [],
  );
  if (due.length === 0) return;
  try {
    await deps.touchQueue.removeUnlessActive(due);
    await deps.touchQueue.schedule(due);
  } catch (err) {
    // The rows are committed: the reconciler re-creates the jobs from them.
    log.error(
      { err, enrollments: due.length },
      'Scheduling migrated touches failed; the reconciler adds them',
    );
  }
}

const running = new Map<string, Promise<MigrationRunResult>>();

/**
 * Runs a migration in the background of this process, once at a time per
 * migration (a second call joins the first); errors are logged with the id, and
 * the migration stays `applying` for the next resume.
 */
export function runMigrationInBackground(
  deps: MigrateEnrollmentsDeps,
  migrationId: string,
  opts: { budgetMs?: number } = {},
): Promise<MigrationRunResult | null> {
  const current = running.get(migrationId);
  if (current) return current;
  const run = runMigration(deps, migrationId, opts).finally(() => running.delete(migrationId));
  running.set(migrationId, run);
  return run.catch((err: unknown) => {
    deps.logger.error({ err, migrationId }, 'Migration run failed; it resumes at the next run');
    return null;
  });
}

/**
 * Resumes every migration a crash or restart left `applying` (the scheduler's
 * reconciler calls this on each tick; so does the API when asked to apply again).
 */
export async function resumeMigrations(
  deps: MigrateEnrollmentsDeps,
  opts: { budgetMs?: number } = {},
): Promise<string[]> {
  const ids = await deps.repos.sequenceMigrations.applying();
  for (const id of ids) void runMigrationInBackground(deps, id, opts);
  return ids;
}
