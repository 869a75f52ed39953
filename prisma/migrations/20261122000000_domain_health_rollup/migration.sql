-- Domain health (issue 5): the per-domain, per-day rollup the guard reads instead of
-- scanning touches and events, the guard's state on each domain and for the account,
-- and the alert deliveries per channel.
--
-- The rollup is kept by triggers, so no application path can forget it: a touch
-- becoming `sent`, an event being applied (hard bounce, complaint, reply) and an
-- enrollment ending each append one row to "domain_stat_delta". Appends never wait on
-- each other; each tick folds them into "domain_daily_stat" (one row per domain and
-- UTC day) under its advisory lock, so the tick reads `days x domains` rows whatever
-- the history.

-- AlterTable
ALTER TABLE "alert" ADD COLUMN     "settled_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "sending_domain" ADD COLUMN     "baseline" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "checked_at" TIMESTAMPTZ(3),
ADD COLUMN     "counted_from" DATE,
ADD COLUMN     "figures" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "health_level" TEXT NOT NULL DEFAULT 'ok',
ADD COLUMN     "healthy_since" TIMESTAMPTZ(3),
ADD COLUMN     "hold_touches" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "pause_kind" TEXT,
ADD COLUMN     "paused_by" TEXT;

-- CreateTable
CREATE TABLE "alert_delivery" (
    "alert_id" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_delivery_pkey" PRIMARY KEY ("alert_id","channel")
);

-- CreateTable
CREATE TABLE "domain_daily_stat" (
    "domain_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "sends" INTEGER NOT NULL DEFAULT 0,
    "bounces" INTEGER NOT NULL DEFAULT 0,
    "complaints" INTEGER NOT NULL DEFAULT 0,
    "replies" INTEGER NOT NULL DEFAULT 0,
    "ended" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "domain_daily_stat_pkey" PRIMARY KEY ("domain_id","day")
);

-- CreateTable
CREATE TABLE "domain_stat_delta" (
    "id" BIGSERIAL NOT NULL,
    "domain_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "sends" INTEGER NOT NULL DEFAULT 0,
    "bounces" INTEGER NOT NULL DEFAULT 0,
    "complaints" INTEGER NOT NULL DEFAULT 0,
    "replies" INTEGER NOT NULL DEFAULT 0,
    "ended" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "domain_stat_delta_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_health" (
    "id" TEXT NOT NULL,
    "level" TEXT NOT NULL DEFAULT 'ok',
    "figures" JSONB NOT NULL DEFAULT '{}',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "checked_at" TIMESTAMPTZ(3),

    CONSTRAINT "account_health_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alert"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "domain_daily_stat" ADD CONSTRAINT "domain_daily_stat_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "sending_domain"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The account-wide guard's one row.
INSERT INTO "account_health" ("id") VALUES ('account');

-- CreateFunction
CREATE FUNCTION "touchbase_domain_stat_add"(p_domain UUID, p_day DATE, p_sends INTEGER, p_bounces INTEGER,
  p_complaints INTEGER, p_replies INTEGER, p_ended INTEGER, p_completed INTEGER) RETURNS void AS $$
  INSERT INTO "domain_stat_delta" ("domain_id", "day", "sends", "bounces", "complaints", "replies", "ended", "completed")
  VALUES (p_domain, p_day, p_sends, p_bounces, p_complaints, p_replies, p_ended, p_completed);
$$ LANGUAGE sql;

-- CreateFunction
-- A touch became `sent`: one send for its mailbox's domain, on the UTC day it was sent.
CREATE FUNCTION "touchbase_touch_rollup"() RETURNS trigger AS $$
DECLARE
  v_domain UUID;
BEGIN
  SELECT m."domain_id" INTO v_domain
    FROM "enrollment" e JOIN "mailbox" m ON m."id" = e."mailbox_id" WHERE e."id" = NEW."enrollment_id";
  IF v_domain IS NOT NULL THEN
    PERFORM "touchbase_domain_stat_add"(v_domain, (COALESCE(NEW."sent_at", now()) AT TIME ZONE 'UTC')::date, 1, 0, 0, 0, 0, 0);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- CreateTrigger
CREATE TRIGGER "touch_sent_rollup_insert" AFTER INSERT ON "touch"
  FOR EACH ROW WHEN (NEW."status" = 'sent') EXECUTE FUNCTION "touchbase_touch_rollup"();

-- CreateTrigger
CREATE TRIGGER "touch_sent_rollup_update" AFTER UPDATE OF "status" ON "touch"
  FOR EACH ROW WHEN (NEW."status" = 'sent' AND OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "touchbase_touch_rollup"();

-- CreateFunction
-- An event was applied: a hard bounce, a complaint or a reply counts against the domain
-- that sent to the prospect, on the UTC day it was received. Ingest inserts the event
-- and fills its prospect and enrollment in an UPDATE that also sets "applied_at", so
-- that moment is the one watched (and an insert that is already applied, for the
-- paths that write both at once).
CREATE FUNCTION "touchbase_event_rollup"() RETURNS trigger AS $$
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

-- CreateTrigger
CREATE TRIGGER "event_applied_rollup_insert" AFTER INSERT ON "event"
  FOR EACH ROW WHEN (NEW."applied_at" IS NOT NULL AND NEW."type" IN ('bounce', 'complaint', 'reply'))
  EXECUTE FUNCTION "touchbase_event_rollup"();

-- CreateTrigger
CREATE TRIGGER "event_applied_rollup_update" AFTER UPDATE OF "applied_at" ON "event"
  FOR EACH ROW WHEN (OLD."applied_at" IS NULL AND NEW."applied_at" IS NOT NULL AND NEW."type" IN ('bounce', 'complaint', 'reply'))
  EXECUTE FUNCTION "touchbase_event_rollup"();

-- CreateFunction
-- An enrollment ended: one ended for its domain, and one completed when it ran through every step.
CREATE FUNCTION "touchbase_enrollment_rollup"() RETURNS trigger AS $$
DECLARE
  v_domain UUID;
BEGIN
  SELECT m."domain_id" INTO v_domain FROM "mailbox" m WHERE m."id" = NEW."mailbox_id";
  IF v_domain IS NOT NULL THEN
    PERFORM "touchbase_domain_stat_add"(v_domain, (now() AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 1,
      CASE WHEN NEW."status" = 'exhausted' THEN 1 ELSE 0 END);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- CreateTrigger
CREATE TRIGGER "enrollment_ended_rollup" AFTER UPDATE OF "status" ON "enrollment"
  FOR EACH ROW WHEN (OLD."status" IN ('queued', 'active', 'paused')
    AND NEW."status" IN ('replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed'))
  EXECUTE FUNCTION "touchbase_enrollment_rollup"();

-- Backfill: the history recorded before this migration, in one pass each.
INSERT INTO "domain_daily_stat" ("domain_id", "day", "sends", "bounces", "complaints", "replies", "ended", "completed")
SELECT "domain_id", "day", SUM("sends"), SUM("bounces"), SUM("complaints"), SUM("replies"), SUM("ended"), SUM("completed")
FROM (
  SELECT m."domain_id", (t."sent_at" AT TIME ZONE 'UTC')::date AS "day", 1 AS "sends", 0 AS "bounces", 0 AS "complaints",
         0 AS "replies", 0 AS "ended", 0 AS "completed"
    FROM "touch" t JOIN "enrollment" e ON e."id" = t."enrollment_id" JOIN "mailbox" m ON m."id" = e."mailbox_id"
   WHERE t."status" = 'sent' AND t."sent_at" IS NOT NULL
  UNION ALL
  SELECT m."domain_id", (ev."received_at" AT TIME ZONE 'UTC')::date,
         0,
         CASE WHEN ev."type" = 'bounce' AND (COALESCE(ev."payload" -> 'bounce' ->> 'hard', 'true') <> 'false'
                   OR ev."outcome" = 'applied') THEN 1 ELSE 0 END,
         CASE WHEN ev."type" = 'complaint' THEN 1 ELSE 0 END,
         CASE WHEN ev."type" = 'reply' THEN 1 ELSE 0 END,
         0, 0
    FROM "event" ev JOIN "enrollment" e ON e."id" = ev."enrollment_id" JOIN "mailbox" m ON m."id" = e."mailbox_id"
   WHERE ev."applied_at" IS NOT NULL AND ev."type" IN ('bounce', 'complaint', 'reply')
  UNION ALL
  SELECT m."domain_id", (e."updated_at" AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 1,
         CASE WHEN e."status" = 'exhausted' THEN 1 ELSE 0 END
    FROM "enrollment" e JOIN "mailbox" m ON m."id" = e."mailbox_id"
   WHERE e."status" IN ('replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed')
) AS history
GROUP BY "domain_id", "day";
