-- The enrollment state machine, held by the database itself so that no code path can
-- break it: an UPDATE that changes "enrollment"."status" along a pair that is not in
-- "touchbase_enrollment_transitions"() fails. The table is core's ENROLLMENT_TRANSITIONS
-- (packages/core/src/enrollment/enrollment-status.ts); a test reads this function and
-- compares the two pair by pair, so a change to one without the other fails.
-- Inserting a row with a status is not a transition and is not checked.

-- CreateFunction
-- Every allowed change, as 'from>to'. IMMUTABLE with a constant body, so the trigger's
-- WHEN clause folds it into a constant once: an allowed change costs one array lookup
-- and calls no function (batched stops change thousands of rows in one statement).
CREATE FUNCTION "touchbase_enrollment_transitions"() RETURNS text[] AS $$
  SELECT ARRAY[
    'queued>active', 'queued>cancelled', 'queued>replied', 'queued>bounced', 'queued>unsubscribed', 'queued>failed',
    'active>paused', 'active>replied', 'active>bounced', 'active>unsubscribed', 'active>exhausted', 'active>cancelled',
    'active>failed',
    'paused>active', 'paused>replied', 'paused>bounced', 'paused>unsubscribed', 'paused>cancelled', 'paused>failed',
    -- The earliest stopping event decides: an event that happened before the one that
    -- ended the enrollment restates it ...
    'replied>bounced', 'replied>unsubscribed', 'replied>cancelled',
    'bounced>replied', 'bounced>unsubscribed', 'bounced>cancelled',
    'unsubscribed>replied', 'unsubscribed>bounced', 'unsubscribed>cancelled',
    'cancelled>replied', 'cancelled>bounced', 'cancelled>unsubscribed',
    -- ... and one that happened before the enrollment ran out of steps ends it as it would have.
    'exhausted>replied', 'exhausted>bounced', 'exhausted>unsubscribed', 'exhausted>cancelled',
    -- An address change resumes a bounced sequence on the new address.
    'bounced>active'
  ]::text[]
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;

-- CreateFunction
CREATE FUNCTION "touchbase_enrollment_transition_refused"() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'enrollment % cannot go from % to %', OLD."id", OLD."status", NEW."status"
    USING ERRCODE = 'check_violation', CONSTRAINT = 'enrollment_status_transition',
          TABLE = 'enrollment', COLUMN = 'status',
          DETAIL = format('%s>%s is not in touchbase_enrollment_transitions()', OLD."status", NEW."status");
END;
$$ LANGUAGE plpgsql;

-- CreateTrigger
-- Only a change is checked: an UPDATE that sets the same status (an out-of-office
-- pause moved to a later date, say) is not a transition.
CREATE TRIGGER "enrollment_status_transition" BEFORE UPDATE OF "status" ON "enrollment"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status"
    AND NOT ((OLD."status"::text || '>' || NEW."status"::text) = ANY ("touchbase_enrollment_transitions"())))
  EXECUTE FUNCTION "touchbase_enrollment_transition_refused"();
