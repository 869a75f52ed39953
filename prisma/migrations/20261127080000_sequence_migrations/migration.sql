-- Live edits with an explicit migration (issue 19, docs/architecture.md#migrating-enrollments-between-versions).
--
-- A migration moves the live enrollments of one sequence version onto another by a
-- node mapping. It is first a plan (status `planned`: the population and where each
-- enrollment lands, with a fingerprint of the enrollment ids, nodes and statuses);
-- applying it moves the planned enrollments in batches, each batch one transaction
-- that marks its items, so a crash loses nothing and a restart (the API, the
-- scheduler's reconciler) continues where the last commit left off.
CREATE TABLE "sequence_migration" (
    "id" UUID NOT NULL,
    "sequence_id" UUID NOT NULL,
    "from_version_id" UUID NOT NULL,
    "to_version_id" UUID NOT NULL,
    "mapping" JSONB NOT NULL,
    "filter" JSONB NOT NULL DEFAULT '{}',
    "plan" JSONB NOT NULL,
    "fingerprint" TEXT NOT NULL,
    -- planned → applying → completed
    "status" TEXT NOT NULL DEFAULT 'planned',
    "reason" TEXT NOT NULL,
    "planned_by" TEXT NOT NULL,
    "applied_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sequence_migration_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "sequence_migration_sequence_id_idx" ON "sequence_migration"("sequence_id");
CREATE INDEX "sequence_migration_status_idx" ON "sequence_migration"("status");
ALTER TABLE "sequence_migration" ADD CONSTRAINT "sequence_migration_sequence_id_fkey"
  FOREIGN KEY ("sequence_id") REFERENCES "sequence"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "sequence_migration" ADD CONSTRAINT "sequence_migration_from_version_id_fkey"
  FOREIGN KEY ("from_version_id") REFERENCES "sequence_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "sequence_migration" ADD CONSTRAINT "sequence_migration_to_version_id_fkey"
  FOREIGN KEY ("to_version_id") REFERENCES "sequence_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One row per planned enrollment: where it was and where it goes; `pending` until a
-- batch moved it (`moved`) or found it could not (`skipped`, with the reason: it
-- stopped meanwhile, or moved on to a node whose mapping would act again).
CREATE TABLE "sequence_migration_item" (
    "migration_id" UUID NOT NULL,
    "enrollment_id" UUID NOT NULL,
    "from_node" INTEGER NOT NULL,
    "to_node" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    -- Batches that found a touch in flight and left it for later.
    "deferrals" INTEGER NOT NULL DEFAULT 0,
    "done_at" TIMESTAMPTZ(3),
    CONSTRAINT "sequence_migration_item_pkey" PRIMARY KEY ("migration_id", "enrollment_id")
);
CREATE INDEX "sequence_migration_item_migration_id_state_idx" ON "sequence_migration_item"("migration_id", "state");
ALTER TABLE "sequence_migration_item" ADD CONSTRAINT "sequence_migration_item_migration_id_fkey"
  FOREIGN KEY ("migration_id") REFERENCES "sequence_migration"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sequence_migration_item" ADD CONSTRAINT "sequence_migration_item_enrollment_id_fkey"
  FOREIGN KEY ("enrollment_id") REFERENCES "enrollment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
