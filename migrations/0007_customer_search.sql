-- Trigram index for the customer search (`q`): a contains-search over company, contact and
-- email that the list query spells with exactly this expression.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_search_trgm_idx" ON "customers" USING gin (
  (lower(coalesce("company", '') || ' ' || coalesce("contact_name", '') || ' ' || coalesce("email", ''))) gin_trgm_ops
);
