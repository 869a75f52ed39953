-- DropIndex
-- No statement reads events by enrollment: the funnel, the timeline, the soft-bounce
-- streak, the last reply and retention all go by prospect, seq or (source, external id).
-- Every recorded webhook still paid for this index's insert (a random leaf per event,
-- one WAL record), so it goes; the enrollment id stays in the row.
DROP INDEX IF EXISTS "event_enrollment_id_idx";
