-- CreateEnum
CREATE TYPE "EnrollmentStatus" AS ENUM ('queued', 'active', 'paused', 'replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed');

-- CreateEnum
CREATE TYPE "TouchStatus" AS ENUM ('sending', 'sent', 'failed', 'cancelled', 'unknown');

-- CreateEnum
CREATE TYPE "DomainStatus" AS ENUM ('active', 'paused');

-- CreateEnum
CREATE TYPE "MailboxStatus" AS ENUM ('active', 'paused');

-- CreateTable
CREATE TABLE "sequence" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sequence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sequence_version" (
    "id" UUID NOT NULL,
    "sequence_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "steps" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sequence_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prospect" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "email_status" TEXT NOT NULL DEFAULT 'valid',
    "first_name" TEXT,
    "last_name" TEXT,
    "company" TEXT,
    "timezone" TEXT,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prospect_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prospect_identity" (
    "id" UUID NOT NULL,
    "prospect_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "prospect_identity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sending_domain" (
    "id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "status" "DomainStatus" NOT NULL DEFAULT 'active',
    "reason" TEXT,
    "status_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sending_domain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mailbox" (
    "id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "domain_id" UUID NOT NULL,
    "status" "MailboxStatus" NOT NULL DEFAULT 'active',
    "per_minute" INTEGER NOT NULL DEFAULT 5,
    "per_hour" INTEGER NOT NULL DEFAULT 60,
    "per_day" INTEGER NOT NULL DEFAULT 300,
    "min_spacing_ms" INTEGER NOT NULL DEFAULT 0,
    "window_days" INTEGER[] DEFAULT ARRAY[1, 2, 3, 4, 5]::INTEGER[],
    "window_start" TEXT NOT NULL DEFAULT '09:00',
    "window_end" TEXT NOT NULL DEFAULT '17:00',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "provider_config" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mailbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "enrollment" (
    "id" UUID NOT NULL,
    "prospect_id" UUID NOT NULL,
    "sequence_id" UUID NOT NULL,
    "sequence_version_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "status" "EnrollmentStatus" NOT NULL DEFAULT 'active',
    "current_step" INTEGER NOT NULL DEFAULT 1,
    "next_touch_at" TIMESTAMPTZ(3),
    "conversation_id" TEXT,
    "first_message_id" TEXT,
    "stop_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "enrollment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "touch" (
    "id" UUID NOT NULL,
    "enrollment_id" UUID NOT NULL,
    "step" INTEGER NOT NULL,
    "status" "TouchStatus" NOT NULL DEFAULT 'sending',
    "idempotency_key" TEXT NOT NULL,
    "provider_message_id" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "touch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "prospect_id" UUID,
    "enrollment_id" UUID,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "applied_at" TIMESTAMPTZ(3),
    "outcome" TEXT,

    CONSTRAINT "event_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "suppression" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppression_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_cursor" (
    "provider" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_cursor_pkey" PRIMARY KEY ("provider")
);

-- CreateTable
CREATE TABLE "alert" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "domain_id" UUID,
    "message" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sequence_version_sequence_id_version_key" ON "sequence_version"("sequence_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "prospect_email_key" ON "prospect"("email");

-- CreateIndex
CREATE INDEX "prospect_identity_prospect_id_idx" ON "prospect_identity"("prospect_id");

-- CreateIndex
CREATE UNIQUE INDEX "prospect_identity_kind_value_key" ON "prospect_identity"("kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "sending_domain_domain_key" ON "sending_domain"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "mailbox_address_key" ON "mailbox"("address");

-- CreateIndex
CREATE INDEX "enrollment_status_next_touch_at_idx" ON "enrollment"("status", "next_touch_at");

-- CreateIndex
CREATE INDEX "enrollment_mailbox_id_status_idx" ON "enrollment"("mailbox_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "enrollment_prospect_id_sequence_id_key" ON "enrollment"("prospect_id", "sequence_id");

-- CreateIndex
CREATE UNIQUE INDEX "touch_idempotency_key_key" ON "touch"("idempotency_key");

-- CreateIndex
CREATE INDEX "touch_provider_message_id_idx" ON "touch"("provider_message_id");

-- CreateIndex
CREATE INDEX "touch_status_idx" ON "touch"("status");

-- CreateIndex
CREATE UNIQUE INDEX "touch_enrollment_id_step_key" ON "touch"("enrollment_id", "step");

-- CreateIndex
CREATE UNIQUE INDEX "event_id_key" ON "event"("id");

-- CreateIndex
CREATE INDEX "event_prospect_id_idx" ON "event"("prospect_id");

-- CreateIndex
CREATE UNIQUE INDEX "event_source_external_id_key" ON "event"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "suppression_kind_value_key" ON "suppression"("kind", "value");

-- CreateIndex
CREATE INDEX "audit_log_entity_type_entity_id_idx" ON "audit_log"("entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "alert_domain_id_created_at_idx" ON "alert"("domain_id", "created_at");

-- AddForeignKey
ALTER TABLE "sequence_version" ADD CONSTRAINT "sequence_version_sequence_id_fkey" FOREIGN KEY ("sequence_id") REFERENCES "sequence"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prospect_identity" ADD CONSTRAINT "prospect_identity_prospect_id_fkey" FOREIGN KEY ("prospect_id") REFERENCES "prospect"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailbox" ADD CONSTRAINT "mailbox_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "sending_domain"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollment" ADD CONSTRAINT "enrollment_prospect_id_fkey" FOREIGN KEY ("prospect_id") REFERENCES "prospect"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollment" ADD CONSTRAINT "enrollment_sequence_id_fkey" FOREIGN KEY ("sequence_id") REFERENCES "sequence"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollment" ADD CONSTRAINT "enrollment_sequence_version_id_fkey" FOREIGN KEY ("sequence_version_id") REFERENCES "sequence_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollment" ADD CONSTRAINT "enrollment_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailbox"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "touch" ADD CONSTRAINT "touch_enrollment_id_fkey" FOREIGN KEY ("enrollment_id") REFERENCES "enrollment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert" ADD CONSTRAINT "alert_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "sending_domain"("id") ON DELETE SET NULL ON UPDATE CASCADE;
