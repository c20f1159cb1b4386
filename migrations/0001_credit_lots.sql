CREATE TABLE "credit_consumptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"cost" integer NOT NULL,
	"status" text DEFAULT 'charged' NOT NULL,
	"ledger_id" uuid NOT NULL,
	"refund_ledger_id" uuid,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "credit_consumptions_cost_positive" CHECK ("credit_consumptions"."cost" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_lots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"granted" integer NOT NULL,
	"remaining" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"source_type" text NOT NULL,
	"source_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_lots_remaining_range" CHECK ("credit_lots"."remaining" >= 0 and "credit_lots"."remaining" <= "credit_lots"."granted")
);
--> statement-breakpoint
CREATE TABLE "credit_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"credits" integer NOT NULL,
	"price" integer NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_packages_credits_positive" CHECK ("credit_packages"."credits" > 0),
	CONSTRAINT "credit_packages_price_non_negative" CHECK ("credit_packages"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "subscription_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"monthly_price" integer NOT NULL,
	"monthly_credits" integer NOT NULL,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tier" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_plans_price_non_negative" CHECK ("subscription_plans"."monthly_price" >= 0),
	CONSTRAINT "subscription_plans_credits_non_negative" CHECK ("subscription_plans"."monthly_credits" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "operation" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "actor_id" uuid;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "lots" jsonb;--> statement-breakpoint
ALTER TABLE "credit_consumptions" ADD CONSTRAINT "credit_consumptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_consumptions" ADD CONSTRAINT "credit_consumptions_ledger_id_credit_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."credit_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_consumptions" ADD CONSTRAINT "credit_consumptions_refund_ledger_id_credit_ledger_id_fk" FOREIGN KEY ("refund_ledger_id") REFERENCES "public"."credit_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_lots" ADD CONSTRAINT "credit_lots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_consumptions_user_created_idx" ON "credit_consumptions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_consumptions_operation_created_idx" ON "credit_consumptions" USING btree ("operation","created_at");--> statement-breakpoint
CREATE INDEX "credit_lots_user_open_idx" ON "credit_lots" USING btree ("user_id","expires_at") WHERE "credit_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "credit_lots_expiring_idx" ON "credit_lots" USING btree ("expires_at") WHERE "credit_lots"."remaining" > 0 and "credit_lots"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_plans_code_key" ON "subscription_plans" USING btree ("code");--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_ledger_kind_created_idx" ON "credit_ledger" USING btree ("kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_source_once_key" ON "credit_ledger" USING btree ("kind","source_type","source_id") WHERE "credit_ledger"."kind" not in ('consumption', 'admin_adjustment', 'expiry');