CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"company" text,
	"contact_name" text,
	"email" text,
	"phone" text,
	"whatsapp" text,
	"country" text,
	"source" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"notes" text,
	"estimated_value" integer,
	"estimated_currency" text DEFAULT 'USD' NOT NULL,
	"last_contact_at" timestamp with time zone,
	"next_followup_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_estimated_value_non_negative" CHECK ("customers"."estimated_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"date" date NOT NULL,
	"source" text NOT NULL,
	"rate" numeric(24, 12) NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_base_quote_date_source_pk" PRIMARY KEY("base","quote","date","source")
);
--> statement-breakpoint
CREATE TABLE "followup_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"channel" text DEFAULT 'other' NOT NULL,
	"note" text,
	"contacted_at" timestamp with time zone NOT NULL,
	"next_followup_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sku" text,
	"description" text,
	"category" text,
	"unit" text DEFAULT 'pcs' NOT NULL,
	"price" integer,
	"currency" text DEFAULT 'USD' NOT NULL,
	"moq" integer,
	"hs_code" text,
	"image_url" text,
	"specs" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_non_negative" CHECK ("products"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quotation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quotation_id" uuid NOT NULL,
	"product_id" uuid,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"unit" text DEFAULT 'pcs' NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"line_total" integer NOT NULL,
	CONSTRAINT "quotation_items_quantity_positive" CHECK ("quotation_items"."quantity" > 0),
	CONSTRAINT "quotation_items_price_non_negative" CHECK ("quotation_items"."unit_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quotations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"customer_id" uuid,
	"quote_no" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"currency" text NOT NULL,
	"incoterm" text,
	"valid_until" date,
	"subtotal" integer DEFAULT 0 NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"shipping" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"exchange_rates" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotations_amounts_non_negative" CHECK ("quotations"."subtotal" >= 0 and "quotations"."discount" >= 0 and "quotations"."shipping" >= 0 and "quotations"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_logs" ADD CONSTRAINT "followup_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_logs" ADD CONSTRAINT "followup_logs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_items" ADD CONSTRAINT "quotation_items_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_items" ADD CONSTRAINT "quotation_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_user_created_idx" ON "customers" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_user_status_created_idx" ON "customers" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "customers_user_last_contact_idx" ON "customers" USING btree ("user_id","last_contact_at");--> statement-breakpoint
CREATE INDEX "customers_user_next_followup_idx" ON "customers" USING btree ("user_id","next_followup_at");--> statement-breakpoint
CREATE INDEX "customers_user_email_idx" ON "customers" USING btree ("user_id","email");--> statement-breakpoint
CREATE INDEX "customers_user_company_idx" ON "customers" USING btree ("user_id",lower("company"));--> statement-breakpoint
CREATE INDEX "exchange_rates_base_date_idx" ON "exchange_rates" USING btree ("base","date");--> statement-breakpoint
CREATE INDEX "followup_logs_customer_contacted_idx" ON "followup_logs" USING btree ("user_id","customer_id","contacted_at");--> statement-breakpoint
CREATE INDEX "products_user_created_idx" ON "products" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "products_user_category_idx" ON "products" USING btree ("user_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "products_user_sku_key" ON "products" USING btree ("user_id","sku");--> statement-breakpoint
CREATE INDEX "quotation_items_quotation_idx" ON "quotation_items" USING btree ("quotation_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "quotations_user_quote_no_key" ON "quotations" USING btree ("user_id","quote_no");--> statement-breakpoint
CREATE INDEX "quotations_user_created_idx" ON "quotations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "quotations_user_status_idx" ON "quotations" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "quotations_customer_idx" ON "quotations" USING btree ("customer_id");