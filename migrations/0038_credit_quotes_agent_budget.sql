CREATE TABLE "credit_quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"credits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"consumption_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_quotes_credits_check" CHECK ("credit_quotes"."credits" >= 0)
);
--> statement-breakpoint
ALTER TABLE "agent_pipelines" DROP CONSTRAINT "agent_pipelines_status_check";--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD COLUMN "price" integer;--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD COLUMN "max_credits" integer;--> statement-breakpoint
ALTER TABLE "credit_quotes" ADD CONSTRAINT "credit_quotes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_quotes" ADD CONSTRAINT "credit_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_quotes" ADD CONSTRAINT "credit_quotes_consumption_id_credit_consumptions_id_fk" FOREIGN KEY ("consumption_id") REFERENCES "public"."credit_consumptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_quotes_user_idx" ON "credit_quotes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "credit_quotes_expires_idx" ON "credit_quotes" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD CONSTRAINT "agent_pipelines_status_check" CHECK ("agent_pipelines"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'budget_exhausted'));