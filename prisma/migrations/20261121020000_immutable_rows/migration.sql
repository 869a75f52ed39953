-- Invariants 6 and 7, held by the database itself so that no code path can break
-- them: a recorded event keeps its source, id, type, payload and arrival time; a
-- sequence version's steps never change (a change is a new version).

-- CreateFunction
CREATE FUNCTION "touchbase_event_immutable"() RETURNS trigger AS $$
BEGIN
  IF NEW."source" IS DISTINCT FROM OLD."source" OR NEW."external_id" IS DISTINCT FROM OLD."external_id"
     OR NEW."type" IS DISTINCT FROM OLD."type" OR NEW."payload" IS DISTINCT FROM OLD."payload"
     OR NEW."received_at" IS DISTINCT FROM OLD."received_at" OR NEW."seq" IS DISTINCT FROM OLD."seq" THEN
    RAISE EXCEPTION 'event % is immutable', OLD."id" USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

-- CreateTrigger
CREATE TRIGGER "event_immutable" BEFORE UPDATE ON "event"
  FOR EACH ROW EXECUTE FUNCTION "touchbase_event_immutable"();

-- CreateFunction
CREATE FUNCTION "touchbase_sequence_version_immutable"() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'sequence version % is immutable', OLD."id" USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

-- CreateTrigger
CREATE TRIGGER "sequence_version_immutable" BEFORE UPDATE ON "sequence_version"
  FOR EACH ROW EXECUTE FUNCTION "touchbase_sequence_version_immutable"();
