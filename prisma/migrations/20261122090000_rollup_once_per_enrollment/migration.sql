-- CreateFunction
-- A bounce, complaint or reply counts once per enrollment. The same answer can be
-- recorded twice: the sender's pre-send re-check finds a bounce the provider knows
-- before its webhook arrives (source "{provider}-recheck"), then the webhook comes;
-- a prospect can reply twice. Counting both inflated the domain's bounce rate,
-- enough to pause a healthy domain. An event naming no enrollment counts as before.
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
         AND e."applied_at" IS NOT NULL
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
