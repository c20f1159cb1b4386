-- The customer list's pages (issue #13 item 1): the default order with the search text, so a page
-- is found by an index-only scan. Built before the old ones go, so no moment lacks an index; IF
-- NOT EXISTS so a large table's can be built CONCURRENTLY by hand first (ADR 0081).
CREATE INDEX IF NOT EXISTS "customers_user_created_page_idx" ON "customers" USING btree ("user_id","created_at","id","search_text");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_user_status_page_idx" ON "customers" USING btree ("user_id","status","created_at","id","search_text");--> statement-breakpoint
DROP INDEX IF EXISTS "customers_user_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "customers_user_status_created_idx";
