-- Touch retention (docs/scaling.md#the-touch-table): `touchbase retention` moves the
-- touches of enrollments that ended before its cutoff out of `touch` into this narrow
-- archive, one statement per batch (a reader sees a touch in one place or the other).
-- It keeps what is read after an enrollment ended: the funnel and /v1/stats (status,
-- sent time, variant, version), an event's tie to its prospect by our message id, the
-- contact policies' cooldown (the last touch time) and a pool's sticky mailbox. What
-- goes: the row id, the idempotency key, the error text, and three of touch's five
-- indexes (the row id, the idempotency key, the status).

-- CreateTable
CREATE TABLE "touch_archive" (
    "enrollment_id" UUID NOT NULL,
    "step" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" "TouchStatus" NOT NULL,
    "provider_message_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "variant" INTEGER,
    "sequence_version_id" UUID NOT NULL,

    CONSTRAINT "touch_archive_pkey" PRIMARY KEY ("enrollment_id","step","attempt")
);

-- CreateIndex
CREATE INDEX "touch_archive_provider_message_id_idx" ON "touch_archive"("provider_message_id");

-- AddForeignKey
-- An erasure deletes the person's enrollments: their archived touches go with them.
ALTER TABLE "touch_archive" ADD CONSTRAINT "touch_archive_enrollment_id_fkey" FOREIGN KEY ("enrollment_id") REFERENCES "enrollment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateView
-- Every touch, live or archived, with the columns both keep: what the readers of
-- ended enrollments' touches select from instead of `touch`.
CREATE VIEW "touch_fact" AS
  SELECT "enrollment_id", "step", "attempt", "status", "provider_message_id", "created_at", "sent_at", "variant", "sequence_version_id"
    FROM "touch"
  UNION ALL
  SELECT "enrollment_id", "step", "attempt", "status", "provider_message_id", "created_at", "sent_at", "variant", "sequence_version_id"
    FROM "touch_archive";
