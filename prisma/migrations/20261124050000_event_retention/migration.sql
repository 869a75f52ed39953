-- Event retention (docs/scaling.md#event-retention): the retention job deletes old
-- effect-free engagement events (sent, delivered, opened, clicked) in batches.
-- Two tables keep what the rest of touchbase still needs from them.

-- CreateTable
-- Every retired event's (source, external id): a provider that redelivers it, however
-- late, still gets "duplicate" (invariant 6: recorded once). Written, and committed,
-- before the event rows are deleted.
CREATE TABLE "event_retired" (
    "source" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "retired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_retired_pkey" PRIMARY KEY ("source","external_id")
);

-- CreateTable
-- The facts the funnel reads from a retired delivered/opened/clicked event, exactly as
-- it reads them from the event row (the funnel unions the two), so every funnel
-- answers the same before and after a retention run. Keyed by the event's seq, so a
-- batch archived twice (a run interrupted between its two commits) adds nothing.
CREATE TABLE "event_funnel_archive" (
    "seq" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "prospect_id" UUID,
    "enrollment_id" UUID,
    "message_id" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "event_funnel_archive_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "event_funnel_archive_prospect_id_idx" ON "event_funnel_archive"("prospect_id");

-- CreateFunction
-- A retired key is a duplicate: the insert is skipped, and the ON CONFLICT DO NOTHING
-- RETURNING of every insert path returns no row, which each path already reads as
-- "recorded before". One primary-key probe per inserted event: about a third of a
-- bare event insert (EXPLAIN ANALYZE, 20,000 rows), so the trigger is created
-- disabled and the retention job enables it before it retires its first event. A
-- deployment that never runs retention pays nothing.
CREATE FUNCTION "touchbase_event_not_retired"() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "event_retired" r WHERE r."source" = NEW."source" AND r."external_id" = NEW."external_id") THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

-- CreateTrigger
CREATE TRIGGER "event_not_retired" BEFORE INSERT ON "event"
  FOR EACH ROW EXECUTE FUNCTION "touchbase_event_not_retired"();

-- DisableTrigger
ALTER TABLE "event" DISABLE TRIGGER "event_not_retired";
