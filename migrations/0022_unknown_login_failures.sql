CREATE TABLE "unknown_login_failures" (
	"address_hash" text PRIMARY KEY NOT NULL,
	"failed_login_count" integer NOT NULL,
	"last_failed_login_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "unknown_login_failures_last_failed_idx" ON "unknown_login_failures" USING btree ("last_failed_login_at");