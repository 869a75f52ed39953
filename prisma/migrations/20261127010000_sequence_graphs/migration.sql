-- Sequences as graphs (issue 14, docs/architecture.md#sequences-as-graphs).
--
-- A version's definition is a graph of nodes (actions, ends) and edges (a trigger and
-- a wait). Every existing version is a list of e-mail steps, and becomes the chain
-- core's chainGraph() makes of it: node n is step n (`step-n`), then `end` at
-- steps + 1; each step's wait is the `no_reply` edge to the next node. Node numbers
-- are the old step numbers, so enrollments (current_step) and touches (step, the
-- key {enrollmentId}-{step}[-{attempt}]) keep running unchanged: a touch's step is
-- its node number. packages/db/test/sequence-graph-migration.int.test.ts checks this
-- SQL against chainGraph().
ALTER TABLE "sequence_version" ADD COLUMN "graph" JSONB;

-- Versions are immutable (trigger sequence_version_immutable); this one backfill of
-- a column that did not exist is the exception, made while the trigger is off.
ALTER TABLE "sequence_version" DISABLE TRIGGER "sequence_version_immutable";
UPDATE "sequence_version" v SET "graph" = jsonb_build_object(
  'nodes', (
    SELECT jsonb_agg(
      jsonb_build_object('id', 'step-' || i, 'action', 'email', 'subject', s->'subject', 'body', s->'body')
        || CASE WHEN s ? 'variants' AND jsonb_typeof(s->'variants') = 'array'
             THEN jsonb_build_object('variants', s->'variants') ELSE '{}'::jsonb END
      ORDER BY i)
    FROM jsonb_array_elements(v."steps") WITH ORDINALITY AS x(s, i)
  ) || jsonb_build_array(jsonb_build_object('id', 'end', 'action', 'end')),
  'edges', (
    SELECT jsonb_agg(
      jsonb_build_object(
        'from', 'step-' || i,
        'to', CASE WHEN i < jsonb_array_length(v."steps") THEN 'step-' || (i + 1) ELSE 'end' END,
        'trigger', 'no_reply',
        'wait', COALESCE(s->>'wait', '0s'))
      ORDER BY i)
    FROM jsonb_array_elements(v."steps") WITH ORDINALITY AS x(s, i)
  ));
ALTER TABLE "sequence_version" ENABLE TRIGGER "sequence_version_immutable";
ALTER TABLE "sequence_version" ALTER COLUMN "graph" SET NOT NULL;

-- The node that ran last, whose event edges (connection accepted, opened, clicked)
-- are waiting while the timeout's job is pending for current_step. Null before the
-- first node ran, and for enrollments of a chain written before graphs (a chain has
-- no event edges; core reads null as current_step - 1).
ALTER TABLE "enrollment" ADD COLUMN "waiting_node" INTEGER;

-- The LinkedIn account that acts for this enrollment, chosen from the sequence's pool
-- at its first LinkedIn node and kept (the invitation and the chat stay with it).
ALTER TABLE "enrollment" ADD COLUMN "linkedin_account_id" UUID;
ALTER TABLE "enrollment" ADD CONSTRAINT "enrollment_linkedin_account_id_fkey"
  FOREIGN KEY ("linkedin_account_id") REFERENCES "linkedin_account"("id") ON DELETE SET NULL ON UPDATE CASCADE;
