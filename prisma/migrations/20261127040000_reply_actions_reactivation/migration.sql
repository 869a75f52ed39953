-- Reply actions and reactivation (issue 15).

-- A "not interested" reply may set a cooldown: nobody enrolls the person before it.
ALTER TABLE "prospect" ADD COLUMN "contact_after" TIMESTAMPTZ(3);

-- A person may be enrolled in one sequence several times over the years (a lost deal
-- reactivates them), but only one of those enrollments is live at a time. Prisma
-- cannot say "partial", so schema.prisma names this index and says so in a comment.
DROP INDEX "enrollment_prospect_id_sequence_id_key";
CREATE UNIQUE INDEX "enrollment_live_prospect_sequence_key" ON "enrollment" ("prospect_id", "sequence_id")
  WHERE "status" IN ('queued', 'active', 'paused');
CREATE INDEX "enrollment_prospect_id_sequence_id_idx" ON "enrollment" ("prospect_id", "sequence_id");

-- The enrollment a reactivation started from, so its timeline shows the chain.
ALTER TABLE "enrollment" ADD COLUMN "reactivated_from_id" UUID;

-- A reactivation scheduled by a CRM change: the row is the truth, the delayed job in
-- Redis is derived from it (and rebuilt by the reconciler).
CREATE TABLE "reactivation" (
    "id" UUID NOT NULL,
    "prospect_id" UUID NOT NULL,
    "from_enrollment_id" UUID NOT NULL,
    "sequence_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "trigger" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "outcome" TEXT,
    "enrollment_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "reactivation_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "reactivation_from_enrollment_id_event_id_key" ON "reactivation" ("from_enrollment_id", "event_id");
CREATE INDEX "reactivation_status_due_at_idx" ON "reactivation" ("status", "due_at");
CREATE INDEX "reactivation_prospect_id_idx" ON "reactivation" ("prospect_id");
ALTER TABLE "reactivation" ADD CONSTRAINT "reactivation_prospect_id_fkey" FOREIGN KEY ("prospect_id") REFERENCES "prospect"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "reactivation" ADD CONSTRAINT "reactivation_from_enrollment_id_fkey" FOREIGN KEY ("from_enrollment_id") REFERENCES "enrollment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "reactivation" ADD CONSTRAINT "reactivation_sequence_id_fkey" FOREIGN KEY ("sequence_id") REFERENCES "sequence"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
