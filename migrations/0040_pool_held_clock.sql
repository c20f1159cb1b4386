-- migrate: no-transaction
CREATE INDEX CONCURRENTLY IF NOT EXISTS "customers_held_clock_idx" ON "customers" USING btree (greatest(coalesce("last_contact_at", "created_at"), "held_since")) WHERE "customers"."user_id" is not null;
