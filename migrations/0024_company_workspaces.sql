CREATE TABLE "customer_ownership_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"from_user_id" uuid,
	"to_user_id" uuid,
	"action" text NOT NULL,
	"reason" text,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_ownership_action_check" CHECK ("customer_ownership_events"."action" in ('create', 'claim', 'release', 'transfer', 'recycle', 'member_removed'))
);
--> statement-breakpoint
CREATE TABLE "org_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_invitations_role_check" CHECK ("org_invitations"."role" in ('admin', 'manager', 'member')),
	CONSTRAINT "org_invitations_email_lower" CHECK ("org_invitations"."email" = lower("org_invitations"."email"))
);
--> statement-breakpoint
CREATE TABLE "org_members" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"role" text NOT NULL,
	"monthly_credit_limit" integer,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_members_role_check" CHECK ("org_members"."role" in ('owner', 'admin', 'manager', 'member')),
	CONSTRAINT "org_members_limit_non_negative" CHECK ("org_members"."monthly_credit_limit" >= 0)
);
--> statement-breakpoint
CREATE TABLE "orgs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"plan" text DEFAULT 'free' NOT NULL,
	"plan_expires_at" timestamp with time zone,
	"trial_ends_at" timestamp with time zone,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "customers_user_status_created_idx";--> statement-breakpoint
DROP INDEX "customers_user_last_contact_idx";--> statement-breakpoint
DROP INDEX "customers_user_next_followup_idx";--> statement-breakpoint
DROP INDEX "customers_user_email_idx";--> statement-breakpoint
DROP INDEX "customers_user_company_idx";--> statement-breakpoint
DROP INDEX "customers_user_country_idx";--> statement-breakpoint
DROP INDEX "products_user_created_idx";--> statement-breakpoint
DROP INDEX "products_user_category_idx";--> statement-breakpoint
DROP INDEX "products_user_sku_key";--> statement-breakpoint
DROP INDEX "customers_search_idx";--> statement-breakpoint
DROP INDEX "followup_logs_customer_contacted_idx";--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "discovery_jobs" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "discovery_records" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "followup_logs" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "org_id" uuid;--> statement-breakpoint
-- Issue #22 (ADR 0097): every existing account becomes the owner of a personal organisation
-- holding all its rows and its plan. A migrated organisation takes its owner's user id as its
-- own id (ids are opaque; organisations made later get fresh ids), so each row's org_id is its
-- user_id and nothing needs a mapping table.
INSERT INTO "orgs" ("id", "name", "plan", "plan_expires_at", "trial_ends_at", "created_at", "updated_at")
SELECT "id",
  coalesce(nullif(btrim("company"), ''), nullif(btrim("name"), ''), nullif(split_part("email", '@', 1), ''), 'My company'),
  "plan", "plan_expires_at", "trial_ends_at", "created_at", "created_at"
FROM "users";--> statement-breakpoint
INSERT INTO "org_members" ("user_id", "org_id", "role", "joined_at")
SELECT "id", "id", 'owner', "created_at" FROM "users";--> statement-breakpoint
UPDATE "customers" SET "org_id" = "user_id";--> statement-breakpoint
UPDATE "followup_logs" SET "org_id" = "user_id";--> statement-breakpoint
UPDATE "products" SET "org_id" = "user_id";--> statement-breakpoint
UPDATE "quotations" SET "org_id" = "user_id";--> statement-breakpoint
UPDATE "discovery_records" SET "org_id" = "user_id";--> statement-breakpoint
UPDATE "agent_pipelines" SET "org_id" = "user_id";--> statement-breakpoint
UPDATE "discovery_jobs" SET "org_id" = "user_id";--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "followup_logs" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "quotations" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "discovery_records" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_pipelines" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "discovery_jobs" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_ownership_events" ADD CONSTRAINT "customer_ownership_events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_ownership_events" ADD CONSTRAINT "customer_ownership_events_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_ownership_events" ADD CONSTRAINT "customer_ownership_events_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_ownership_events" ADD CONSTRAINT "customer_ownership_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_invitations" ADD CONSTRAINT "org_invitations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_invitations" ADD CONSTRAINT "org_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_invitations" ADD CONSTRAINT "org_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_ownership_customer_at_idx" ON "customer_ownership_events" USING btree ("customer_id","at");--> statement-breakpoint
CREATE INDEX "customer_ownership_org_actor_at_idx" ON "customer_ownership_events" USING btree ("org_id","actor_id","action","at");--> statement-breakpoint
CREATE UNIQUE INDEX "org_invitations_token_hash_key" ON "org_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "org_invitations_org_created_idx" ON "org_invitations" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "org_members_org_role_idx" ON "org_members" USING btree ("org_id","role");--> statement-breakpoint
CREATE UNIQUE INDEX "org_members_one_owner_key" ON "org_members" USING btree ("org_id") WHERE "org_members"."role" = 'owner';--> statement-breakpoint
CREATE INDEX "orgs_created_at_idx" ON "orgs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orgs_paid_plan_expiry_idx" ON "orgs" USING btree ("plan_expires_at","id") WHERE "orgs"."plan" <> 'free';--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD CONSTRAINT "agent_pipelines_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_jobs" ADD CONSTRAINT "discovery_jobs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_records" ADD CONSTRAINT "discovery_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_logs" ADD CONSTRAINT "followup_logs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_pipelines_org_created_idx" ON "agent_pipelines" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "discovery_jobs_org_created_idx" ON "discovery_jobs" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "discovery_records_org_created_idx" ON "discovery_records" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_org_created_idx" ON "customers" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_org_user_created_idx" ON "customers" USING btree ("org_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_org_status_created_idx" ON "customers" USING btree ("org_id","status","created_at");--> statement-breakpoint
CREATE INDEX "customers_org_last_contact_idx" ON "customers" USING btree ("org_id","last_contact_at");--> statement-breakpoint
CREATE INDEX "customers_org_next_followup_idx" ON "customers" USING btree ("org_id","next_followup_at");--> statement-breakpoint
CREATE INDEX "customers_org_email_idx" ON "customers" USING btree ("org_id","email");--> statement-breakpoint
CREATE INDEX "customers_org_company_idx" ON "customers" USING btree ("org_id",lower("company"));--> statement-breakpoint
CREATE INDEX "customers_org_country_idx" ON "customers" USING btree ("org_id",lower("country"));--> statement-breakpoint
CREATE INDEX "followup_logs_user_idx" ON "followup_logs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "products_org_created_idx" ON "products" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "products_org_category_idx" ON "products" USING btree ("org_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "products_org_sku_key" ON "products" USING btree ("org_id","sku");--> statement-breakpoint
CREATE INDEX "products_user_idx" ON "products" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "quotations_org_created_idx" ON "quotations" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "quotations_org_status_idx" ON "quotations" USING btree ("org_id","status","created_at");--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin ("org_id","status","search_text" gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "followup_logs_customer_contacted_idx" ON "followup_logs" USING btree ("customer_id","contacted_at");--> statement-breakpoint
-- Every account has an organisation, whatever path makes it (registration, guest, WeChat, a
-- script): the database makes the personal one with the account as its owner.
CREATE OR REPLACE FUNCTION org_for_new_user() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := gen_random_uuid();
BEGIN
  INSERT INTO orgs (id, name, plan, plan_expires_at, trial_ends_at, created_at, updated_at)
  VALUES (v_org,
    coalesce(nullif(btrim(NEW.company), ''), nullif(btrim(NEW.name), ''),
             nullif(split_part(NEW.email, '@', 1), ''), 'My company'),
    NEW.plan, NEW.plan_expires_at, NEW.trial_ends_at, NEW.created_at, NEW.created_at);
  INSERT INTO org_members (user_id, org_id, role, joined_at) VALUES (NEW.id, v_org, 'owner', NEW.created_at);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_personal_org AFTER INSERT ON users
FOR EACH ROW EXECUTE FUNCTION org_for_new_user();--> statement-breakpoint
-- A work record is made in its creator's organisation unless the statement names one.
CREATE OR REPLACE FUNCTION org_id_of_creator() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.org_id IS NULL THEN
    SELECT m.org_id INTO NEW.org_id FROM org_members m WHERE m.user_id = NEW.user_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER customers_org_id BEFORE INSERT ON customers FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER followup_logs_org_id BEFORE INSERT ON followup_logs FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER products_org_id BEFORE INSERT ON products FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER quotations_org_id BEFORE INSERT ON quotations FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER discovery_records_org_id BEFORE INSERT ON discovery_records FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER agent_pipelines_org_id BEFORE INSERT ON agent_pipelines FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER discovery_jobs_org_id BEFORE INSERT ON discovery_jobs FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();
