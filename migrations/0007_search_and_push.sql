-- pg_trgm and btree_gin are trusted extensions (PostgreSQL 13+): the database owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
-- Notifications written before pushing shipped are not pushed now: they start as skipped.
ALTER TABLE "notifications" ADD COLUMN "push_state" text DEFAULT 'skipped' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "push_state" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "push_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "push_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "pushed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "push_error" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(company, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(email, ''))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "notifications_push_due_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."push_state" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "customers_user_country_idx" ON "customers" USING btree ("user_id",lower("country"));--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin ("user_id","status","search_text" gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "customers_tags_idx" ON "customers" USING gin ("tags" jsonb_path_ops);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_push_state_check" CHECK ("notifications"."push_state" in ('pending', 'sending', 'sent', 'failed', 'skipped'));