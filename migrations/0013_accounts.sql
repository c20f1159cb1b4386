CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"changes" jsonb,
	"request_id" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_revocations" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "limits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "failed_login_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_failed_login_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_actor_created_idx" ON "admin_audit_log" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_target_created_idx" ON "admin_audit_log" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_action_created_idx" ON "admin_audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "email_tokens_token_hash_key" ON "email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_tokens_user_purpose_idx" ON "email_tokens" USING btree ("user_id","purpose","created_at");--> statement-breakpoint
CREATE INDEX "session_revocations_revoked_at_idx" ON "session_revocations" USING btree ("revoked_at");--> statement-breakpoint
-- Sessions end in one place: every revoked refresh-token family is recorded, whichever
-- statement revoked it (logout, password change or reset, reuse detection), so instances can
-- refuse its access tokens (src/http/session-guard.ts).
CREATE OR REPLACE FUNCTION record_session_revocations() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO session_revocations (session_id, user_id)
  SELECT DISTINCT n.family_id, n.user_id
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE n.revoked_at IS NOT NULL AND o.revoked_at IS NULL
  ON CONFLICT (session_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_record_revocations
  AFTER UPDATE ON refresh_tokens
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_session_revocations();
--> statement-breakpoint
-- An account that stops being active (disabled by an admin) loses every session at once.
CREATE OR REPLACE FUNCTION revoke_sessions_of_inactive_user() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_inactive_revokes_sessions
  AFTER UPDATE OF status ON users
  FOR EACH ROW WHEN (OLD.status = 'active' AND NEW.status <> 'active')
  EXECUTE FUNCTION revoke_sessions_of_inactive_user();
--> statement-breakpoint
-- A deleted account's refresh tokens go with it (cascade); its sessions are recorded first.
CREATE OR REPLACE FUNCTION revoke_sessions_of_deleted_user() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO session_revocations (session_id, user_id)
  SELECT DISTINCT family_id, user_id FROM refresh_tokens WHERE user_id = OLD.id
  ON CONFLICT (session_id) DO NOTHING;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_deleted_revokes_sessions
  BEFORE DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION revoke_sessions_of_deleted_user();
--> statement-breakpoint
-- Families revoked before this migration whose access tokens may still be alive.
INSERT INTO session_revocations (session_id, user_id, revoked_at)
SELECT family_id, min(user_id::text)::uuid, max(revoked_at) FROM refresh_tokens
WHERE revoked_at > now() - interval '1 day'
GROUP BY family_id
ON CONFLICT (session_id) DO NOTHING;
--> statement-breakpoint
-- The plan a user holds now: a paid plan or trial past its end counts as free at once, before
-- the downgrade task rewrites the row.
CREATE OR REPLACE FUNCTION effective_plan(p_plan text, p_expires timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_plan <> 'free' AND p_expires IS NOT NULL AND p_expires <= now()
              THEN 'free' ELSE p_plan END
$$;
--> statement-breakpoint
-- A quota of the user's current plan (subscription_plans.limits); null is unlimited.
CREATE OR REPLACE FUNCTION plan_limit(p_user uuid, p_name text) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT (p.limits ->> p_name)::int
  FROM users u JOIN subscription_plans p ON p.code = effective_plan(u.plan, u.plan_expires_at)
  WHERE u.id = p_user
$$;
--> statement-breakpoint
-- Customers kept: checked after every insert statement (API, import, agent, assistant) under a
-- per-user advisory lock, so two concurrent inserts cannot both pass the last free slot.
-- Raises SQLSTATE PL001 with the limit in DETAIL; the app answers 403.
CREATE OR REPLACE FUNCTION enforce_customers_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_limit integer;
  v_count integer;
BEGIN
  FOR r IN SELECT DISTINCT user_id FROM new_rows ORDER BY user_id LOOP
    v_limit := plan_limit(r.user_id, 'customers');
    CONTINUE WHEN v_limit IS NULL;
    PERFORM pg_advisory_xact_lock(hashtextextended('plan_limit:customers:' || r.user_id::text, 0));
    SELECT count(*) INTO v_count FROM customers WHERE user_id = r.user_id;
    IF v_count > v_limit THEN
      RAISE EXCEPTION 'plan limit reached: customers'
        USING ERRCODE = 'PL001',
              DETAIL = json_build_object('limit', 'customers', 'max', v_limit)::text;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customers_plan_limit
  AFTER INSERT ON customers
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION enforce_customers_limit();
--> statement-breakpoint
-- Agent runs started this calendar month (UTC), same rule.
CREATE OR REPLACE FUNCTION enforce_agent_runs_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_limit integer;
  v_count integer;
BEGIN
  FOR r IN SELECT DISTINCT user_id FROM new_rows ORDER BY user_id LOOP
    v_limit := plan_limit(r.user_id, 'agent_runs_per_month');
    CONTINUE WHEN v_limit IS NULL;
    PERFORM pg_advisory_xact_lock(hashtextextended('plan_limit:agent_runs:' || r.user_id::text, 0));
    SELECT count(*) INTO v_count FROM agent_pipelines
    WHERE user_id = r.user_id
      AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    IF v_count > v_limit THEN
      RAISE EXCEPTION 'plan limit reached: agent_runs_per_month'
        USING ERRCODE = 'PL001',
              DETAIL = json_build_object('limit', 'agent_runs_per_month', 'max', v_limit)::text;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_pipelines_plan_limit
  AFTER INSERT ON agent_pipelines
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION enforce_agent_runs_limit();
--> statement-breakpoint
-- The shipped plans' quotas (docs/credits.md); plans an admin created keep none (unlimited).
UPDATE subscription_plans SET limits = '{"customers": 1000, "agent_runs_per_month": 0}'::jsonb
WHERE code = 'free' AND limits = '{}'::jsonb;
--> statement-breakpoint
UPDATE subscription_plans SET limits = '{"customers": 20000, "agent_runs_per_month": 0}'::jsonb
WHERE code = 'pro' AND limits = '{}'::jsonb;
--> statement-breakpoint
UPDATE subscription_plans SET limits = '{"agent_runs_per_month": 100}'::jsonb
WHERE code = 'business' AND limits = '{}'::jsonb;
