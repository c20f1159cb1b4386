-- migrate: no-transaction
CREATE INDEX CONCURRENTLY IF NOT EXISTS "payment_transactions_pending_expiry_id_idx" ON "payment_transactions" USING btree ("expires_at","id") WHERE "payment_transactions"."status" = 'pending';--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "payment_transactions_pending_expiry_idx";
