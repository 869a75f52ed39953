/**
 * The monthly partitioning of `event` that docs/scaling.md#partitioning describes, as
 * the SQL a migration would run. Not applied by `touchbase migrate`: it lives beside
 * its test (event-partitioning.int.test.ts) so the plan is proven on PostgreSQL
 * before the insert paths change for it. Every statement names its step of the doc.
 */

/**
 * Step 1, beside the live table: the key table (the one arbiter of dedupe across
 * months), the partitioned table, the function that makes a month's partition, and
 * the table that keeps the event types a dropped month must not take with it.
 */
export const PARTITIONED_LAYOUT = `
CREATE TABLE event_key (
  source text NOT NULL,
  external_id text NOT NULL,
  -- NULL for keys retired before partitioning (event_retired keeps no arrival time).
  received_at timestamptz(3),
  PRIMARY KEY (source, external_id)
);

-- Same columns, in the same order, and the same seq sequence as the live table.
CREATE TABLE event_p (LIKE event INCLUDING DEFAULTS) PARTITION BY RANGE (received_at);
ALTER TABLE event_p ADD PRIMARY KEY (seq, received_at);
ALTER TABLE event_p ADD UNIQUE (id, received_at);
CREATE INDEX ON event_p (prospect_id);
CREATE INDEX ON event_p (enrollment_id);

-- Replies, bounces and the rest that later decisions read again: a month's partition is
-- dropped only after its rows of these types are copied here.
CREATE TABLE event_kept (LIKE event INCLUDING DEFAULTS);
ALTER TABLE event_kept ADD PRIMARY KEY (seq);
CREATE INDEX ON event_kept (prospect_id);

-- The partition of the month that holds 'month' (UTC), made if missing; its name.
CREATE FUNCTION touchbase_event_partition(month timestamptz) RETURNS text AS $$
DECLARE
  first timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  name text := 'event_' || to_char(first AT TIME ZONE 'UTC', 'YYYY_MM');
  parent regclass := COALESCE(to_regclass('event_p'), 'event'::regclass);
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
                 name, parent, first, first + interval '1 month');
  RETURN name;
END;
$$ LANGUAGE plpgsql;

-- Dedupe (invariant 6) across months: the key goes in first; a key already there (or one
-- being inserted by a transaction not yet committed, which the unique index waits for)
-- makes the row an insert of nothing, which every insert path reads as "recorded before".
CREATE FUNCTION touchbase_event_key() RETURNS trigger AS $$
BEGIN
  INSERT INTO event_key (source, external_id, received_at)
  VALUES (NEW.source, NEW.external_id, NEW.received_at) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
`;

/** Step 1 goes on: the partitions from the oldest event's month to two months ahead. */
export const PARTITIONS_FOR_EXISTING_ROWS = `
SELECT touchbase_event_partition(m)
FROM generate_series(
  date_trunc('month', COALESCE((SELECT min(received_at) FROM event), now()) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
  now() + interval '2 months', interval '1 month') AS m`;

/** Step 2: the retired keys become keys, so a retired event stays a duplicate. */
export const KEYS_OF_RETIRED = `
INSERT INTO event_key (source, external_id, received_at)
SELECT source, external_id, NULL FROM event_retired ON CONFLICT DO NOTHING`;

/**
 * Step 2 goes on: one batch of the copy, in seq order after $1, $2 rows; the keys go with
 * them. Triggers off for the copy (`session_replication_role = replica`, set by the
 * caller): the domain rollup already counted these events. Answers the batch's last seq.
 */
export const COPY_BATCH = `
WITH batch AS (SELECT * FROM event WHERE seq > $1 ORDER BY seq LIMIT $2),
keys AS (INSERT INTO event_key (source, external_id, received_at)
         SELECT source, external_id, received_at FROM batch ON CONFLICT DO NOTHING),
copied AS (INSERT INTO event_p SELECT * FROM batch RETURNING seq)
SELECT max(seq)::text AS last FROM copied`;

/**
 * Step 3, one short lock: whatever the batches did not copy, then the rename. A row is
 * looked for from `$FROM`, a seq some batches back, not from the last one copied: a
 * transaction can commit a lower seq after a batch with higher ones was read. The
 * triggers move to the partitioned table (row triggers on a partitioned table:
 * PostgreSQL 13 on); `event_not_retired` is not carried over, the key table does its work.
 */
export const SWITCH = `
LOCK TABLE event IN ACCESS EXCLUSIVE MODE;
SET LOCAL session_replication_role = replica;
INSERT INTO event_key (source, external_id, received_at)
  SELECT source, external_id, received_at FROM event WHERE seq > $FROM ON CONFLICT DO NOTHING;
INSERT INTO event_p SELECT e.* FROM event e
  WHERE e.seq > $FROM AND NOT EXISTS (SELECT 1 FROM event_p c WHERE c.seq = e.seq);
SET LOCAL session_replication_role = origin;
ALTER TABLE event RENAME TO event_unpartitioned;
ALTER TABLE event_p RENAME TO event;
ALTER SEQUENCE event_seq_seq OWNED BY event.seq;
CREATE TRIGGER event_key BEFORE INSERT ON event FOR EACH ROW EXECUTE FUNCTION touchbase_event_key();
CREATE TRIGGER event_immutable BEFORE UPDATE ON event FOR EACH ROW EXECUTE FUNCTION touchbase_event_immutable();
CREATE TRIGGER event_applied_rollup_insert AFTER INSERT ON event REFERENCING NEW TABLE AS event_new
  FOR EACH STATEMENT EXECUTE FUNCTION touchbase_event_rollup_batch();
CREATE TRIGGER event_applied_rollup_update AFTER UPDATE OF applied_at ON event FOR EACH ROW
  WHEN (OLD.applied_at IS NULL AND NEW.applied_at IS NOT NULL AND NEW.type = ANY (ARRAY['bounce', 'complaint', 'reply']))
  EXECUTE FUNCTION touchbase_event_rollup();`;

/**
 * Retention by month, step A (one transaction): the month's funnel facts to their archive,
 * and to `event_kept` every row of a type the retention job never retires plus each
 * prospect's latest streak breaker while it is the latest (the rules of
 * docs/scaling.md#event-retention). `partition` is a name the caller read from the
 * catalog. Step B is `ALTER TABLE event DETACH PARTITION <name> CONCURRENTLY` (outside
 * a transaction) and `DROP TABLE <name>`: no delete, no vacuum.
 * $1 = the retirable types, $2 = the funnel's archived types, $3 = the retirable
 * streak breakers, $4 = every streak breaker.
 */
export const ARCHIVE_MONTH = (partition: string) => `
WITH archived AS (
  INSERT INTO event_funnel_archive (seq, type, prospect_id, enrollment_id, message_id, at)
  SELECT seq, type, prospect_id, enrollment_id, payload->>'messageId',
         COALESCE((payload->>'occurredAt')::timestamptz, received_at)
  FROM ${partition} WHERE type = ANY($2::text[]) ON CONFLICT DO NOTHING RETURNING seq)
INSERT INTO event_kept
SELECT m.* FROM ${partition} m
WHERE NOT (m.type = ANY($1::text[]))
   OR (m.type = ANY($3::text[]) AND m.prospect_id IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM event later
         WHERE later.prospect_id = m.prospect_id AND later.seq > m.seq
           AND (later.type = ANY($4::text[]) OR (later.type = 'bounce' AND later.payload->'bounce'->>'hard' = 'true'))))
ON CONFLICT DO NOTHING`;
