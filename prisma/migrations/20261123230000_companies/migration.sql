-- Accounts (issue 15): a prospect's company, by domain (derived from the address
-- unless free-mail, or given on import), and the per-sequence policies that act on
-- colleagues (company-level stop). Policies default to '{}', which core reads as its defaults.
ALTER TABLE "prospect" ADD COLUMN "company_domain" TEXT;
CREATE INDEX "prospect_company_domain_idx" ON "prospect" ("company_domain");

ALTER TABLE "sequence" ADD COLUMN "policies" JSONB NOT NULL DEFAULT '{}';
