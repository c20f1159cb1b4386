-- migrate: no-transaction
CREATE INDEX CONCURRENTLY IF NOT EXISTS "credit_lots_expiring_id_idx" ON "credit_lots" USING btree ("expires_at","id") WHERE "credit_lots"."remaining" > 0 and "credit_lots"."expires_at" is not null;--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "credit_lots_expiring_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscriptions_allowance_due_idx" ON "subscriptions" USING btree ("allowance_due_at","id") WHERE "subscriptions"."cancelled_at" is null and "subscriptions"."monthly_credits" > 0;
