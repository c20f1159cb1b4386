CREATE TABLE "org_credits" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_credits_balance_non_negative" CHECK ("org_credits"."balance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credit_consumptions" ADD COLUMN "org_id" uuid;--> statement-breakpoint
-- Migration 0024 made every user the owner of an organisation whose id is the user's id.
UPDATE "credit_consumptions" SET "org_id" = "user_id";--> statement-breakpoint
ALTER TABLE "credit_consumptions" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "org_id" uuid;--> statement-breakpoint
-- Migration 0024 made every user the owner of an organisation whose id is the user's id.
UPDATE "credit_ledger" SET "org_id" = "user_id";--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_lots" ADD COLUMN "org_id" uuid;--> statement-breakpoint
-- Migration 0024 made every user the owner of an organisation whose id is the user's id.
UPDATE "credit_lots" SET "org_id" = "user_id";--> statement-breakpoint
ALTER TABLE "credit_lots" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "org_credits" ADD CONSTRAINT "org_credits_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_consumptions" ADD CONSTRAINT "credit_consumptions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_lots" ADD CONSTRAINT "credit_lots_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_ledger_org_created_idx" ON "credit_ledger" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_lots_org_open_idx" ON "credit_lots" USING btree ("org_id","expires_at") WHERE "credit_lots"."remaining" > 0;--> statement-breakpoint
-- Each user's balance becomes their personal organisation's wallet (org id = user id, 0024).
INSERT INTO "org_credits" ("org_id", "balance", "updated_at")
SELECT uc."user_id", uc."balance", uc."updated_at" FROM "user_credits" uc;
