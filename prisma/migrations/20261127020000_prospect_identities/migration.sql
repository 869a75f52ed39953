-- One person across channels (issue 15): every address of a prospect is an identity
-- (kind 'email'), beside its LinkedIn URL, HubSpot id and phone; `prospect.email`
-- stays the address touches go to. Consent and legal basis as given on import.
-- A prospect merged into another keeps a row only when enrollments stay behind
-- (both were in one sequence): `merged_into` names the person, and erasing the
-- person erases it by cascade.
INSERT INTO "prospect_identity" ("id", "prospect_id", "kind", "value")
SELECT gen_random_uuid(), "id", 'email', "email" FROM "prospect"
ON CONFLICT ("kind", "value") DO NOTHING;

ALTER TABLE "prospect" ADD COLUMN "consent" TEXT;
ALTER TABLE "prospect" ADD COLUMN "legal_basis" TEXT;
ALTER TABLE "prospect" ADD COLUMN "consent_at" TIMESTAMPTZ(3);
ALTER TABLE "prospect" ADD COLUMN "merged_into" UUID;
ALTER TABLE "prospect" ADD CONSTRAINT "prospect_merged_into_fkey" FOREIGN KEY ("merged_into") REFERENCES "prospect"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "prospect_merged_into_idx" ON "prospect" ("merged_into");

-- Every prospect's own address is one of its identities, whichever code path wrote
-- the row (an import, an address change, a test's INSERT): events and imports find
-- the person by the identity table alone. An address another person already holds
-- stays theirs. A record left behind by a merge names nobody.
CREATE FUNCTION touchbase_prospect_email_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.merged_into IS NULL THEN
    INSERT INTO prospect_identity (id, prospect_id, kind, value)
    VALUES (gen_random_uuid(), NEW.id, 'email', NEW.email)
    ON CONFLICT (kind, value) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER prospect_email_identity AFTER INSERT OR UPDATE OF email ON prospect
  FOR EACH ROW EXECUTE FUNCTION touchbase_prospect_email_identity();
