CREATE TABLE "glossary_terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid,
	"source_lang" text NOT NULL,
	"target_lang" text NOT NULL,
	"source_term" text NOT NULL,
	"target_term" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "glossary_terms_langs_differ" CHECK ("glossary_terms"."source_lang" <> "glossary_terms"."target_lang")
);
--> statement-breakpoint
CREATE TABLE "mt_glossaries" (
	"provider_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"source_lang" text NOT NULL,
	"target_lang" text NOT NULL,
	"content_hash" text NOT NULL,
	"glossary_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "glossary_terms" ADD CONSTRAINT "glossary_terms_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "glossary_terms" ADD CONSTRAINT "glossary_terms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mt_glossaries" ADD CONSTRAINT "mt_glossaries_provider_id_ai_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."ai_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mt_glossaries" ADD CONSTRAINT "mt_glossaries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "glossary_terms_org_pair_term_key" ON "glossary_terms" USING btree ("org_id","source_lang","target_lang",lower("source_term"));--> statement-breakpoint
CREATE INDEX "glossary_terms_org_created_idx" ON "glossary_terms" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mt_glossaries_provider_org_pair_key" ON "mt_glossaries" USING btree ("provider_id","org_id","source_lang","target_lang");