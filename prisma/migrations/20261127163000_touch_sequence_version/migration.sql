-- A touch ran in a sequence version (issue 19): its `step` is a node number of
-- THAT version's graph. Node numbers are per version, so once an enrollment has
-- been migrated (v1 -> v2 -> v3) its older touch rows carry numbers of an older
-- graph; read as numbers of the current one, a migration's "already done" check
-- could take v1's node 1 for v3's node 1 (allowing a resend, or refusing a move
-- that sends nothing twice). Each touch now stores the version it ran in, and
-- (version, step) names the node.
ALTER TABLE "touch" ADD COLUMN "sequence_version_id" UUID;

-- Backfill: the version the enrollment was on when the touch was created. A
-- migration moves an enrollment only with no touch in flight (it defers it), and
-- records each move (`sequence_migration_item`, state `moved`, `done_at`), so a
-- touch created before the first move after it ran in that move's source version;
-- a touch no move followed ran in the enrollment's current version. Migrations are
-- the only writer that changes an enrollment's version.
UPDATE "touch" t SET "sequence_version_id" = COALESCE(
  (SELECT m."from_version_id"
     FROM "sequence_migration_item" i JOIN "sequence_migration" m ON m."id" = i."migration_id"
    WHERE i."enrollment_id" = t."enrollment_id" AND i."state" = 'moved' AND i."done_at" > t."created_at"
    ORDER BY i."done_at" LIMIT 1),
  (SELECT e."sequence_version_id" FROM "enrollment" e WHERE e."id" = t."enrollment_id"));

ALTER TABLE "touch" ALTER COLUMN "sequence_version_id" SET NOT NULL;
ALTER TABLE "touch" ADD CONSTRAINT "touch_sequence_version_id_fkey" FOREIGN KEY ("sequence_version_id")
  REFERENCES "sequence_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A writer that does not name the version (a seed, a test, an older replica during
-- a rolling deploy) gets the enrollment's version at insert, the same rule as the
-- backfill. The sender's claim names it from the row it locks, so the WHEN clause
-- keeps the trigger function off its path.
CREATE FUNCTION "touchbase_touch_version"() RETURNS trigger AS $$
BEGIN
  SELECT e."sequence_version_id" INTO NEW."sequence_version_id" FROM "enrollment" e WHERE e."id" = NEW."enrollment_id";
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "touch_version_default" BEFORE INSERT ON "touch"
  FOR EACH ROW WHEN (NEW."sequence_version_id" IS NULL) EXECUTE FUNCTION "touchbase_touch_version"();
