ALTER TABLE "products" ADD COLUMN "lead_time_days" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "aliases" text[] DEFAULT '{}'::text[] NOT NULL;