-- Soft-bounce resends and per-sequence sending windows: a touch row per (enrollment,
-- step, attempt) instead of per (enrollment, step); the enrollment knows which
-- attempt of its current step is next; mailboxes skip holidays; a sequence may carry
-- a sending window of its own that overrides its mailbox's.

-- DropIndex
DROP INDEX "touch_enrollment_id_step_key";

-- AlterTable
ALTER TABLE "enrollment" ADD COLUMN     "current_attempt" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "mailbox" ADD COLUMN     "holidays" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "sequence" ADD COLUMN     "sending_window" JSONB;

-- AlterTable
ALTER TABLE "touch" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "touch_enrollment_id_step_attempt_key" ON "touch"("enrollment_id", "step", "attempt");

-- AddCheck
-- Never more than three attempts of one touch (the third soft bounce in a row counts
-- as hard), held by the database so that no code path can send a fourth.
ALTER TABLE "touch" ADD CONSTRAINT "touch_attempt_range" CHECK ("attempt" BETWEEN 1 AND 3);

-- AddCheck
ALTER TABLE "enrollment" ADD CONSTRAINT "enrollment_current_attempt_range" CHECK ("current_attempt" BETWEEN 1 AND 3);
