CREATE TABLE "ai_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"user_id" uuid,
	"task" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"tokens_in" integer,
	"tokens_out" integer,
	"latency_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"consumption_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_calls_credits_non_negative" CHECK ("ai_calls"."credits" >= 0),
	CONSTRAINT "ai_calls_latency_non_negative" CHECK ("ai_calls"."latency_ms" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ai_calls" ADD CONSTRAINT "ai_calls_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_calls" ADD CONSTRAINT "ai_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_calls" ADD CONSTRAINT "ai_calls_consumption_id_credit_consumptions_id_fk" FOREIGN KEY ("consumption_id") REFERENCES "public"."credit_consumptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_calls_org_created_idx" ON "ai_calls" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_calls_user_created_idx" ON "ai_calls" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_calls_created_idx" ON "ai_calls" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ai_calls_task_created_idx" ON "ai_calls" USING btree ("task","created_at");--> statement-breakpoint
CREATE INDEX "ai_calls_provider_created_idx" ON "ai_calls" USING btree ("provider","created_at");--> statement-breakpoint
CREATE INDEX "ai_calls_outcome_created_idx" ON "ai_calls" USING btree ("outcome","created_at");