CREATE TABLE "agent_pipelines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"product" text NOT NULL,
	"market" text NOT NULL,
	"max_leads" integer DEFAULT 10 NOT NULL,
	"pipeline_data" jsonb DEFAULT '{"stages":[],"leads":[],"summary":null}'::jsonb NOT NULL,
	"consumption_id" uuid,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_pipelines_status_check" CHECK ("agent_pipelines"."status" in ('queued', 'running', 'succeeded', 'failed')),
	CONSTRAINT "agent_pipelines_max_leads_check" CHECK ("agent_pipelines"."max_leads" between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "discovery_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"product" text NOT NULL,
	"market" text NOT NULL,
	"companies" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"base_url" text NOT NULL,
	"api_key_ciphertext" text,
	"api_key_hint" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"timeout_ms" integer DEFAULT 15000 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_providers_kind_check" CHECK ("search_providers"."kind" in ('brave', 'searxng')),
	CONSTRAINT "search_providers_timeout_check" CHECK ("search_providers"."timeout_ms" between 1000 and 120000)
);
--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD CONSTRAINT "agent_pipelines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_records" ADD CONSTRAINT "discovery_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_pipelines_user_created_idx" ON "agent_pipelines" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_pipelines_open_idx" ON "agent_pipelines" USING btree ("created_at") WHERE "agent_pipelines"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "discovery_records_user_created_idx" ON "discovery_records" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "search_providers_name_key" ON "search_providers" USING btree ("name");