-- AlterTable
ALTER TABLE "event" ADD COLUMN     "classification" TEXT,
ADD COLUMN     "why" JSONB;

-- CreateTable
CREATE TABLE "triage_item" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "email" TEXT,
    "classification" TEXT,
    "why" JSONB NOT NULL DEFAULT '[]',
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "triage_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crm_notification" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "prospect_id" UUID,
    "email" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "crm_notification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "triage_item_event_id_key" ON "triage_item"("event_id");

-- CreateIndex
CREATE INDEX "triage_item_received_at_idx" ON "triage_item"("received_at");

-- CreateIndex
CREATE INDEX "crm_notification_status_next_attempt_at_idx" ON "crm_notification"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "crm_notification_event_id_kind_key" ON "crm_notification"("event_id", "kind");
