import { randomUUID } from 'node:crypto';
import {
  DomainError,
  MIGRATABLE_STATUSES,
  type MigrationFilter,
  type NodeMapping,
  nodeNumber,
  planMigration,
  ranVersions,
} from '@touchbase/core';
import type { MigrateEnrollmentsDeps } from './migrate-enrollments.deps.js';
import { loadVersionGraphs } from './version-graphs.js';

/** A version of a sequence by its number or its id. */
export type VersionRef = number | string;

/** What `POST /v1/sequences/:id/migrations` plans. */
export type PlanMigrationCommand = {
  sequenceId: string;
  from: VersionRef;
  to: VersionRef;
  mapping: NodeMapping;
  filter?: MigrationFilter | undefined;
  reason: string;
  actor: string;
};

/** The preview a dry run answers (and stores, under `planId`). */
export type MigrationPreview = {
  planId: string;
  sequenceId: string;
  from: { id: string; version: number };
  to: { id: string; version: number };
  /** How many enrollments move. */
  enrollments: number;
  perSourceNode: { from: string; to: string; enrollments: number }[];
  skipped: { enrollmentId: string; node: string; reason: string }[];
  changedMessages: { from: string; to: string; enrollments: number; fields: string[] }[];
  fingerprint: string;
};

async function resolveVersion(
  deps: MigrateEnrollmentsDeps,
  sequenceId: string,
  ref: VersionRef,
  field: string,
) {
  const sequence = await deps.repos.sequences.get(sequenceId);
  const found = sequence.versions.find((v) => (typeof ref === 'number' ? v.version === ref : v.id === ref));
  if (!found)
    throw new DomainError('not_found', `sequence ${sequenceId} has no version ${ref}`, {
      errors: [{ field, message: `no version ${ref} in this sequence` }],
    });
  return deps.repos.sequences.version(found.id);
}

/**
 * A migration's dry run: reads the live enrollments of `from` the filter takes,
 * plans them in core (`planMigration`) and stores the plan with its population's
 * fingerprint; audited. Refuses with `invalid_migration` (422), each error naming
 * the node, a mapping that would resend, map onto a missing node or lose an
 * enrollment.
 */
export async function planVersionMigration(
  deps: MigrateEnrollmentsDeps,
  cmd: PlanMigrationCommand,
): Promise<MigrationPreview> {
  const from = await resolveVersion(deps, cmd.sequenceId, cmd.from, 'from');
  const to = await resolveVersion(deps, cmd.sequenceId, cmd.to, 'to');
  if (from.id === to.id)
    throw new DomainError('invalid_migration', 'from and to are the same version', {
      errors: [{ field: 'to', message: 'give another version than from' }],
    });
  const badFilter = (cmd.filter?.nodes ?? []).filter((id) => nodeNumber(from.graph, id) === 0);
  if (badFilter.length > 0)
    throw new DomainError('invalid_migration', `the source version has no node ${badFilter.join(', ')}`, {
      errors: badFilter.map((id) => ({ field: 'filter.nodes', node: id, message: `no node "${id}"` })),
    });
  const statuses = cmd.filter?.statuses ?? [...MIGRATABLE_STATUSES];
  const nodes = cmd.filter?.nodes?.map((id) => nodeNumber(from.graph, id)) ?? null;
  const candidates = await deps.repos.sequenceMigrations.candidates(from.id, statuses, nodes);
  // Touches of an enrollment migrated before ran in older versions: each is read in its own graph.
  const graphs = await loadVersionGraphs(
    deps,
    ranVersions(candidates.map((c) => c.ran)),
    new Map([
      [from.id, from.graph],
      [to.id, to.graph],
    ]),
  );
  const plan = planMigration({ from: from.graph, to: to.graph, mapping: cmd.mapping, candidates, graphs });
  if (plan.problems.length > 0)
    throw new DomainError('invalid_migration', plan.problems.map((p) => p.message).join('; '), {
      errors: plan.problems,
    });
  const planId = randomUUID();
  const preview: MigrationPreview = {
    planId,
    sequenceId: cmd.sequenceId,
    from: { id: from.id, version: from.version },
    to: { id: to.id, version: to.version },
    enrollments: plan.moves.length,
    perSourceNode: plan.perSourceNode,
    skipped: plan.skipped,
    changedMessages: plan.changedMessages,
    fingerprint: plan.fingerprint,
  };
  await deps.repos.sequenceMigrations.createPlan({
    id: planId,
    sequenceId: cmd.sequenceId,
    fromVersionId: from.id,
    toVersionId: to.id,
    mapping: cmd.mapping,
    filter: { statuses, ...(cmd.filter?.nodes ? { nodes: cmd.filter.nodes } : {}) },
    plan: preview,
    fingerprint: plan.fingerprint,
    reason: cmd.reason,
    plannedBy: cmd.actor,
    moves: plan.moves,
  });
  await deps.repos.audit.write({
    actor: cmd.actor,
    action: 'sequence.migration_planned',
    entityType: 'sequence',
    entityId: cmd.sequenceId,
    data: {
      migrationId: planId,
      reason: cmd.reason,
      from: from.version,
      to: to.version,
      enrollments: plan.moves.length,
    },
  });
  return preview;
}
