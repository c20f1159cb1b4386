CREATE TABLE "ai_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"performed_at" timestamp with time zone,
	"result_id" uuid,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_actions_type_check" CHECK ("ai_actions"."type" in ('add_customer', 'log_followup', 'create_quotation'))
);
--> statement-breakpoint
CREATE TABLE "org_faqs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"created_by" uuid,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"language" text NOT NULL,
	"status" text DEFAULT 'candidate' NOT NULL,
	"source_reply_id" text,
	"source_translation_id" uuid,
	"hit_count" integer DEFAULT 0 NOT NULL,
	"last_hit_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_faqs_status_check" CHECK ("org_faqs"."status" in ('candidate', 'active')),
	CONSTRAINT "org_faqs_hit_count_check" CHECK ("org_faqs"."hit_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ai_actions" ADD CONSTRAINT "ai_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_actions" ADD CONSTRAINT "ai_actions_conversation_id_ai_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."ai_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_actions" ADD CONSTRAINT "ai_actions_message_id_ai_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."ai_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_faqs" ADD CONSTRAINT "org_faqs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_faqs" ADD CONSTRAINT "org_faqs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_faqs" ADD CONSTRAINT "org_faqs_source_translation_id_translations_id_fk" FOREIGN KEY ("source_translation_id") REFERENCES "public"."translations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_actions_user_idx" ON "ai_actions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_actions_message_key" ON "ai_actions" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "org_faqs_org_status_idx" ON "org_faqs" USING btree ("org_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "org_faqs_source_reply_key" ON "org_faqs" USING btree ("org_id","source_reply_id") WHERE "org_faqs"."source_reply_id" is not null;