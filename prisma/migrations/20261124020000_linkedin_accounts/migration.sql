-- LinkedIn sending identities (issue 14): accounts at a LinkedIn provider (Unipile,
-- a generic HTTP tool, the sandbox), like mailboxes with caps of their own per
-- action (see LinkedInCapsSchema in core for the defaults and why), the same sending
-- window fields, and membership in the same pools as mailboxes. A table of their
-- own, not rows of "mailbox": a LinkedIn account has no address and no sending
-- domain, and must never be counted in a domain's bounce rate.
CREATE TABLE "linkedin_account" (
    "id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "profile_url" TEXT,
    "status" "MailboxStatus" NOT NULL DEFAULT 'active',
    "status_reason" TEXT,
    "invitations_per_day" INTEGER NOT NULL DEFAULT 20,
    "invitations_per_week" INTEGER NOT NULL DEFAULT 100,
    "messages_per_day" INTEGER NOT NULL DEFAULT 50,
    "profile_visits_per_day" INTEGER NOT NULL DEFAULT 80,
    "per_hour" INTEGER NOT NULL DEFAULT 15,
    "min_spacing_ms" INTEGER NOT NULL DEFAULT 60000,
    "window_days" INTEGER[] DEFAULT ARRAY[1, 2, 3, 4, 5]::INTEGER[],
    "window_start" TEXT NOT NULL DEFAULT '09:00',
    "window_end" TEXT NOT NULL DEFAULT '17:00',
    "holidays" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "linkedin_account_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "linkedin_account_caps_check" CHECK (
        "invitations_per_day" >= 0 AND "invitations_per_week" >= 0 AND "messages_per_day" >= 0
        AND "profile_visits_per_day" >= 0 AND "per_hour" >= 1 AND "min_spacing_ms" >= 0
    )
);

-- One row per account at its provider: the same account twice would double its caps.
CREATE UNIQUE INDEX "linkedin_account_provider_provider_account_id_key"
    ON "linkedin_account" ("provider", "provider_account_id");

-- LinkedIn accounts in the pools sequences send from, beside the pool's mailboxes.
CREATE TABLE "linkedin_account_pool_member" (
    "pool_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,

    CONSTRAINT "linkedin_account_pool_member_pkey" PRIMARY KEY ("pool_id", "account_id")
);

CREATE INDEX "linkedin_account_pool_member_account_id_idx" ON "linkedin_account_pool_member" ("account_id");

ALTER TABLE "linkedin_account_pool_member"
    ADD CONSTRAINT "linkedin_account_pool_member_pool_id_fkey"
    FOREIGN KEY ("pool_id") REFERENCES "mailbox_pool"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "linkedin_account_pool_member"
    ADD CONSTRAINT "linkedin_account_pool_member_account_id_fkey"
    FOREIGN KEY ("account_id") REFERENCES "linkedin_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
