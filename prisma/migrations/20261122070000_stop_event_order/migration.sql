-- AlterTable
ALTER TABLE "enrollment" ADD COLUMN "stopped_by_event_at" TIMESTAMPTZ(3);
