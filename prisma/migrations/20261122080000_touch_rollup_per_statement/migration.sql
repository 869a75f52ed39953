-- The sender records its touches in batches (one UPDATE for many touches). The
-- per-row rollup trigger ran a PL/pgSQL call, a lookup and an INSERT for every
-- touch sent (about half of the record statement's time); this statement-level
-- trigger reads the statement's transition tables and adds one delta per domain
-- and day for the whole batch. Same figures: a touch counts once, when its status
-- becomes `sent`, for its mailbox's domain, on the UTC day it was sent.

-- CreateFunction
CREATE FUNCTION "touchbase_touch_rollup_batch"() RETURNS trigger AS $$
BEGIN
  INSERT INTO "domain_stat_delta" ("domain_id", "day", "sends")
  SELECT m."domain_id", (COALESCE(n."sent_at", now()) AT TIME ZONE 'UTC')::date, count(*)::int
    FROM "touch_new" n JOIN "touch_old" o ON o."id" = n."id"
    JOIN "enrollment" e ON e."id" = n."enrollment_id" JOIN "mailbox" m ON m."id" = e."mailbox_id"
   WHERE n."status" = 'sent' AND o."status" IS DISTINCT FROM n."status"
   GROUP BY 1, 2;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- DropTrigger
DROP TRIGGER "touch_sent_rollup_update" ON "touch";

-- CreateTrigger
CREATE TRIGGER "touch_sent_rollup_update" AFTER UPDATE ON "touch"
  REFERENCING OLD TABLE AS "touch_old" NEW TABLE AS "touch_new"
  FOR EACH STATEMENT EXECUTE FUNCTION "touchbase_touch_rollup_batch"();
