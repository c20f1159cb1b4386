CREATE TABLE "org_document_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"legal_name" text,
	"address" text,
	"phone" text,
	"email" text,
	"website" text,
	"logo" text,
	"logo_type" text,
	"bank_details" text,
	"payment_terms" text,
	"validity_days" integer,
	"footer" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_document_settings_logo_type_check" CHECK ("org_document_settings"."logo_type" in ('image/png', 'image/jpeg')),
	CONSTRAINT "org_document_settings_validity_days_check" CHECK ("org_document_settings"."validity_days" between 1 and 3650)
);
--> statement-breakpoint
DROP INDEX "quotations_user_quote_no_key";--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "previous_id" uuid;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "buyer_address" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "named_place" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "port_of_loading" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "lead_time" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "packing" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "proforma_no" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "proforma_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "org_document_settings" ADD CONSTRAINT "org_document_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_document_settings" ADD CONSTRAINT "org_document_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_previous_id_quotations_id_fk" FOREIGN KEY ("previous_id") REFERENCES "public"."quotations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quotations_org_proforma_no_key" ON "quotations" USING btree ("org_id","proforma_no") WHERE "quotations"."proforma_no" is not null;--> statement-breakpoint
CREATE INDEX "quotations_previous_idx" ON "quotations" USING btree ("previous_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotations_user_quote_no_key" ON "quotations" USING btree ("user_id","quote_no","revision");--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_revision_non_negative" CHECK ("quotations"."revision" >= 0);