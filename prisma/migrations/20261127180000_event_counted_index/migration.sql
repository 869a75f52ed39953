-- CreateIndex
-- The rollup trigger asks, for every applied bounce, complaint or reply, whether the
-- enrollment counted one already (20261122090000_rollup_once_per_enrollment). That is
-- a read of events by enrollment, which 20261127162000 took for unused when it dropped
-- event_enrollment_id_idx: each reply then scanned the whole event table in its
-- trigger (295 ms of a 302 ms batch at 60,000 events, webhook-intake bench). This
-- index holds only the events the trigger counts, so an open, a click or a delivery
-- (most of the webhooks) still writes no entry here.
CREATE INDEX "event_counted_enrollment_type_idx" ON "event" ("enrollment_id", "type")
  WHERE "applied_at" IS NOT NULL AND "type" IN ('bounce', 'complaint', 'reply');

-- CreateFunction
-- The same function; its read names the index's predicate (type in the counted three),
-- so the plan a PL/pgSQL statement keeps, generic in NEW."type", can use the index.
CREATE OR REPLACE FUNCTION "touchbase_event_rollup"() RETURNS trigger AS $$
DECLARE
  v_domain UUID;
  v_bounces INTEGER := 0;
  v_complaints INTEGER := 0;
  v_replies INTEGER := 0;
BEGIN
  IF NEW."type" = 'bounce' THEN
    -- Hard unless the provider said soft, as the rule book (effectOf) reads it; a soft
    -- bounce that ended the sequences (the third in a row) counts as hard too.
    IF COALESCE(NEW."payload" -> 'bounce' ->> 'hard', 'true') = 'false' AND NEW."outcome" IS DISTINCT FROM 'applied' THEN
      RETURN NULL;
    END IF;
    v_bounces := 1;
  ELSIF NEW."type" = 'complaint' THEN
    v_complaints := 1;
  ELSIF NEW."type" = 'reply' THEN
    v_replies := 1;
  ELSE
    RETURN NULL;
  END IF;
  IF NEW."enrollment_id" IS NOT NULL THEN
    -- Counted already for this enrollment (an earlier applied event of the type that counted).
    IF EXISTS (
      SELECT 1 FROM "event" e
       WHERE e."enrollment_id" = NEW."enrollment_id" AND e."type" = NEW."type" AND e."seq" <> NEW."seq"
         AND e."type" IN ('bounce', 'complaint', 'reply') AND e."applied_at" IS NOT NULL
         AND (e."type" <> 'bounce' OR COALESCE(e."payload" -> 'bounce' ->> 'hard', 'true') <> 'false'
              OR e."outcome" = 'applied')) THEN
      RETURN NULL;
    END IF;
    SELECT m."domain_id" INTO v_domain
      FROM "enrollment" e JOIN "mailbox" m ON m."id" = e."mailbox_id" WHERE e."id" = NEW."enrollment_id";
  ELSIF NEW."prospect_id" IS NOT NULL THEN
    -- Named by address only: the domain that sent to this prospect last.
    SELECT m."domain_id" INTO v_domain
      FROM "enrollment" e JOIN "touch" t ON t."enrollment_id" = e."id" JOIN "mailbox" m ON m."id" = e."mailbox_id"
     WHERE e."prospect_id" = NEW."prospect_id" AND t."status" = 'sent'
     ORDER BY t."sent_at" DESC LIMIT 1;
  END IF;
  IF v_domain IS NOT NULL THEN
    PERFORM "touchbase_domain_stat_add"(v_domain, (NEW."received_at" AT TIME ZONE 'UTC')::date, 0, v_bounces,
      v_complaints, v_replies, 0, 0);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
