-- Events recorded already applied come in batches (the batched stop path inserts up to
-- 100 replies, bounces or complaints in one statement). The per-row rollup trigger ran a
-- PL/pgSQL call, an index probe for an earlier count, a domain lookup and an INSERT
-- for every counted event: 36-58 us a reply at 60,000 events (EXPLAIN ANALYZE, 200
-- replies in one INSERT), about as much as the insert itself. This statement-level
-- trigger reads the statement's transition table and adds one delta per domain and day
-- for the whole batch, as 20261122080000 did for touches.
--
-- Same figures: a bounce (hard, or soft that ended the sequences), complaint or reply
-- counts once per enrollment (20261122090000): once among the batch's own events of
-- that enrollment and type, and not at all when an event recorded outside this
-- statement counted already. An event naming no enrollment counts for the domain that
-- sent to its prospect last, as before. The UPDATE trigger (the general path marks one
-- event applied a statement) stays per row on "touchbase_event_rollup"().

-- CreateFunction
CREATE FUNCTION "touchbase_event_rollup_batch"() RETURNS trigger AS $$
DECLARE
  -- The batch's own counted events, by seq: an event of the same enrollment among them
  -- is not one "recorded before".
  v_seqs BIGINT[];
BEGIN
  SELECT array_agg(n."seq") INTO v_seqs FROM "event_new" n
   WHERE n."applied_at" IS NOT NULL AND n."type" IN ('bounce', 'complaint', 'reply');
  IF v_seqs IS NULL THEN
    -- Most statements (opens, clicks, deliveries) count nothing.
    RETURN NULL;
  END IF;
  WITH counted AS (
    SELECT n.* FROM "event_new" n
     WHERE n."applied_at" IS NOT NULL AND n."type" IN ('bounce', 'complaint', 'reply')
       AND (n."type" <> 'bounce' OR COALESCE(n."payload" -> 'bounce' ->> 'hard', 'true') <> 'false'
            OR n."outcome" = 'applied')),
  firsts AS (
    -- The batch's first of each enrollment and type, unless one recorded before counted.
    -- A scalar subquery, so each is one probe of event_counted_enrollment_type_idx (an
    -- anti-join was planned as a scan of the whole index: the transition table has no
    -- statistics).
    SELECT DISTINCT ON (c."enrollment_id", c."type") c."enrollment_id", c."type", c."received_at"
      FROM counted c
     WHERE c."enrollment_id" IS NOT NULL
       AND (SELECT e."seq" FROM "event" e
             WHERE e."enrollment_id" = c."enrollment_id" AND e."type" = c."type"
               AND e."type" IN ('bounce', 'complaint', 'reply') AND e."applied_at" IS NOT NULL
               AND (e."type" <> 'bounce' OR COALESCE(e."payload" -> 'bounce' ->> 'hard', 'true') <> 'false'
                    OR e."outcome" = 'applied')
               AND e."seq" <> ALL (v_seqs)
             LIMIT 1) IS NULL
     ORDER BY c."enrollment_id", c."type", c."seq"),
  attributed AS (
    SELECT m."domain_id", f."type", f."received_at"
      FROM firsts f JOIN "enrollment" en ON en."id" = f."enrollment_id" JOIN "mailbox" m ON m."id" = en."mailbox_id"
    UNION ALL
    -- Named by address only: the domain that sent to this prospect last.
    SELECT d."domain_id", c."type", c."received_at"
      FROM counted c CROSS JOIN LATERAL (
        SELECT m."domain_id"
          FROM "enrollment" en JOIN "touch" t ON t."enrollment_id" = en."id" JOIN "mailbox" m ON m."id" = en."mailbox_id"
         WHERE en."prospect_id" = c."prospect_id" AND t."status" = 'sent'
         ORDER BY t."sent_at" DESC LIMIT 1) d
     WHERE c."enrollment_id" IS NULL AND c."prospect_id" IS NOT NULL)
  INSERT INTO "domain_stat_delta" ("domain_id", "day", "bounces", "complaints", "replies")
  SELECT a."domain_id", (a."received_at" AT TIME ZONE 'UTC')::date,
         (count(*) FILTER (WHERE a."type" = 'bounce'))::int,
         (count(*) FILTER (WHERE a."type" = 'complaint'))::int,
         (count(*) FILTER (WHERE a."type" = 'reply'))::int
    FROM attributed a
   GROUP BY 1, 2;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- DropTrigger
DROP TRIGGER "event_applied_rollup_insert" ON "event";

-- CreateTrigger
CREATE TRIGGER "event_applied_rollup_insert" AFTER INSERT ON "event"
  REFERENCING NEW TABLE AS "event_new"
  FOR EACH STATEMENT EXECUTE FUNCTION "touchbase_event_rollup_batch"();

-- CreateFunction
-- The row triggers left (an enrollment ended; an event marked applied by the general
-- path, one a statement) add their delta with one INSERT ... SELECT, where they looked
-- the domain up, then called "touchbase_domain_stat_add" (an SQL function PL/pgSQL
-- cannot inline, run through its own executor) for the INSERT: an ended enrollment's
-- trigger went from 27-33 to 11-18 us (EXPLAIN ANALYZE, 4 stops a statement, warm
-- session). The enrollment one stays per row: as a statement trigger it would run on
-- every UPDATE of enrollment (the sender advancing a step, ~15-20 us each single-row
-- statement) to save as much as this does on the stops.
CREATE OR REPLACE FUNCTION "touchbase_enrollment_rollup"() RETURNS trigger AS $$
BEGIN
  INSERT INTO "domain_stat_delta" ("domain_id", "day", "ended", "completed")
  SELECT m."domain_id", (now() AT TIME ZONE 'UTC')::date, 1, CASE WHEN NEW."status" = 'exhausted' THEN 1 ELSE 0 END
    FROM "mailbox" m WHERE m."id" = NEW."mailbox_id";
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- CreateFunction
-- The same rules as 20261127180000; the delta is one INSERT ... SELECT.
CREATE OR REPLACE FUNCTION "touchbase_event_rollup"() RETURNS trigger AS $$
BEGIN
  IF NEW."type" NOT IN ('bounce', 'complaint', 'reply')
     -- Hard unless the provider said soft, as the rule book (effectOf) reads it; a soft
     -- bounce that ended the sequences (the third in a row) counts as hard too.
     OR (NEW."type" = 'bounce' AND COALESCE(NEW."payload" -> 'bounce' ->> 'hard', 'true') = 'false'
         AND NEW."outcome" IS DISTINCT FROM 'applied') THEN
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
    INSERT INTO "domain_stat_delta" ("domain_id", "day", "bounces", "complaints", "replies")
    SELECT m."domain_id", (NEW."received_at" AT TIME ZONE 'UTC')::date, (NEW."type" = 'bounce')::int,
           (NEW."type" = 'complaint')::int, (NEW."type" = 'reply')::int
      FROM "enrollment" en JOIN "mailbox" m ON m."id" = en."mailbox_id" WHERE en."id" = NEW."enrollment_id";
  ELSIF NEW."prospect_id" IS NOT NULL THEN
    -- Named by address only: the domain that sent to this prospect last.
    INSERT INTO "domain_stat_delta" ("domain_id", "day", "bounces", "complaints", "replies")
    SELECT d."domain_id", (NEW."received_at" AT TIME ZONE 'UTC')::date, (NEW."type" = 'bounce')::int,
           (NEW."type" = 'complaint')::int, (NEW."type" = 'reply')::int
      FROM (SELECT m."domain_id"
              FROM "enrollment" en JOIN "touch" t ON t."enrollment_id" = en."id" JOIN "mailbox" m ON m."id" = en."mailbox_id"
             WHERE en."prospect_id" = NEW."prospect_id" AND t."status" = 'sent'
             ORDER BY t."sent_at" DESC LIMIT 1) d;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
