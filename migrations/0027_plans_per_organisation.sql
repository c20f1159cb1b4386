-- Issue #22 (ADR 0101): the plan, the trial and the quotas belong to the organisation. Until
-- now the code wrote them on users; each organisation takes its owner's as they are now.
UPDATE "orgs" o SET "plan" = u."plan", "plan_expires_at" = u."plan_expires_at",
  "trial_ends_at" = u."trial_ends_at"
FROM "org_members" m JOIN "users" u ON u."id" = m."user_id"
WHERE m."org_id" = o."id" AND m."role" = 'owner';--> statement-breakpoint
CREATE TABLE "org_usage" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "org_usage_customers_non_negative" CHECK ("org_usage"."customers" >= 0)
);
--> statement-breakpoint
DROP INDEX "users_paid_plan_expiry_idx";--> statement-breakpoint
ALTER TABLE "org_usage" ADD CONSTRAINT "org_usage_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "plan";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "plan_expires_at";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "trial_ends_at";--> statement-breakpoint
-- Customers kept, counted per organisation wherever they are (held or in the pool): exact
-- from the rows.
INSERT INTO "org_usage" ("org_id", "customers")
SELECT "org_id", count(*)::int FROM "customers" GROUP BY "org_id";--> statement-breakpoint
-- A new account's personal organisation (0026's, without the plan columns users no longer
-- has): unless the statement that inserted the account made one itself (the sign-ins on the
-- trial insert the organisation with the trial and the membership in the same statement: an
-- AFTER ROW trigger runs at the end of the statement and sees them). Scripts, tests and guests
-- get a free one here. Its id is the account's when free (the wallet of 0026 counts on it).
CREATE OR REPLACE FUNCTION org_for_new_user() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := NEW.id;
BEGIN
  IF EXISTS (SELECT 1 FROM org_members m WHERE m.user_id = NEW.id) THEN
    RETURN NULL;
  END IF;
  IF EXISTS (SELECT 1 FROM orgs o WHERE o.id = v_org) THEN
    v_org := gen_random_uuid();
  END IF;
  INSERT INTO orgs (id, name, created_at, updated_at)
  VALUES (v_org,
    coalesce(nullif(btrim(NEW.company), ''), nullif(btrim(NEW.name), ''),
             nullif(split_part(NEW.email, '@', 1), ''), 'My company'),
    NEW.created_at, NEW.created_at);
  INSERT INTO org_members (user_id, org_id, role, joined_at) VALUES (NEW.id, v_org, 'owner', NEW.created_at);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A quota of an organisation's current plan (subscription_plans.limits); null is unlimited.
CREATE OR REPLACE FUNCTION org_plan_limit(p_org uuid, p_name text) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT (p.limits ->> p_name)::int
  FROM orgs o JOIN subscription_plans p ON p.code = effective_plan(o.plan, o.plan_expires_at)
  WHERE o.id = p_org
$$;--> statement-breakpoint
-- A quota of the plan of a user's organisation (the leads import sizes its batch with it).
CREATE OR REPLACE FUNCTION plan_limit(p_user uuid, p_name text) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT org_plan_limit(m.org_id, p_name) FROM org_members m WHERE m.user_id = p_user
$$;--> statement-breakpoint
-- Customers kept, per organisation: each insert statement adds its rows to the organisation's
-- org_usage row and checks the total against its plan in the same step; the row's lock queues
-- concurrent inserts into one organisation (whoever of its members makes them), so two can
-- never both take the last free slot. Raises PL001 as before.
CREATE OR REPLACE FUNCTION enforce_customers_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_total integer;
  v_limit integer;
BEGIN
  FOR r IN SELECT org_id, count(*)::int AS n FROM new_rows GROUP BY org_id ORDER BY org_id LOOP
    INSERT INTO org_usage AS ou (org_id, customers) VALUES (r.org_id, r.n)
    ON CONFLICT (org_id) DO UPDATE SET customers = ou.customers + excluded.customers
    RETURNING customers INTO v_total;
    v_limit := org_plan_limit(r.org_id, 'customers');
    IF v_limit IS NOT NULL AND v_total > v_limit THEN
      RAISE EXCEPTION 'plan limit reached: customers'
        USING ERRCODE = 'PL001',
              DETAIL = json_build_object('limit', 'customers', 'max', v_limit)::text;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_deleted_customers() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT org_id, count(*)::int AS n FROM old_rows GROUP BY org_id ORDER BY org_id LOOP
    UPDATE org_usage SET customers = greatest(customers - r.n, 0) WHERE org_id = r.org_id;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A customer that moves to another organisation (a guest's rows merged into the account it
-- signs in to, a member bringing their data along) counts against the receiving organisation's
-- plan like a new one (PL001, and the move is undone). A change of holder inside the
-- organisation (claim, release, transfer) changes no count.
CREATE OR REPLACE FUNCTION count_moved_customer() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_total integer;
  v_limit integer;
BEGIN
  UPDATE org_usage SET customers = greatest(customers - 1, 0) WHERE org_id = OLD.org_id;
  INSERT INTO org_usage AS ou (org_id, customers) VALUES (NEW.org_id, 1)
  ON CONFLICT (org_id) DO UPDATE SET customers = ou.customers + 1
  RETURNING customers INTO v_total;
  v_limit := org_plan_limit(NEW.org_id, 'customers');
  IF v_limit IS NOT NULL AND v_total > v_limit THEN
    RAISE EXCEPTION 'plan limit reached: customers'
      USING ERRCODE = 'PL001',
            DETAIL = json_build_object('limit', 'customers', 'max', v_limit)::text;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS customers_count_moved ON customers;--> statement-breakpoint
CREATE TRIGGER customers_count_moved
  AFTER UPDATE OF org_id ON customers
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id)
  EXECUTE FUNCTION count_moved_customer();--> statement-breakpoint
-- Agent runs started this calendar month (UTC), per organisation, same rule.
CREATE OR REPLACE FUNCTION enforce_agent_runs_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_limit integer;
  v_count integer;
BEGIN
  FOR r IN SELECT DISTINCT org_id FROM new_rows ORDER BY org_id LOOP
    v_limit := org_plan_limit(r.org_id, 'agent_runs_per_month');
    CONTINUE WHEN v_limit IS NULL;
    PERFORM pg_advisory_xact_lock(hashtextextended('plan_limit:agent_runs:' || r.org_id::text, 0));
    SELECT count(*) INTO v_count FROM agent_pipelines
    WHERE org_id = r.org_id
      AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    IF v_count > v_limit THEN
      RAISE EXCEPTION 'plan limit reached: agent_runs_per_month'
        USING ERRCODE = 'PL001',
              DETAIL = json_build_object('limit', 'agent_runs_per_month', 'max', v_limit)::text;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Seats (members of an organisation) of the shipped plans; plans an admin created keep none
-- (unlimited), and a value an admin set stays.
UPDATE subscription_plans
SET limits = limits || jsonb_build_object('seats',
  CASE code WHEN 'free' THEN 1 WHEN 'pro' THEN 5 ELSE 50 END)
WHERE code IN ('free', 'pro', 'business') AND limits -> 'seats' IS NULL;--> statement-breakpoint
-- payment_fulfil of migration 0004 with the plan written on the payer's organisation.
-- Applies a confirmed payment to its order exactly once, whatever the number, order or timing
-- of deliveries: the order row is locked, its status checked, and the grant is keyed by order.
-- A payment for an expired or cancelled order is still honoured (the money was taken).
CREATE OR REPLACE FUNCTION payment_fulfil(
  p_order_no text, p_trade_no text, p_amount integer, p_currency text, p_paid_at timestamptz,
  p_now timestamptz)
RETURNS TABLE (result text, user_id uuid, kind text)
LANGUAGE plpgsql AS $$
DECLARE
  v_order payment_transactions%ROWTYPE;
  v_monthly integer;
  v_months integer;
  v_current_end timestamptz;
  v_start timestamptz;
  v_end timestamptz;
BEGIN
  SELECT * INTO v_order FROM payment_transactions t WHERE t.order_no = p_order_no FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown_order'::text, NULL::uuid, NULL::text;
    RETURN;
  END IF;
  IF v_order.amount <> p_amount OR upper(v_order.currency) <> upper(p_currency) THEN
    RETURN QUERY SELECT 'amount_mismatch'::text, v_order.user_id, v_order.kind;
    RETURN;
  END IF;
  IF v_order.status NOT IN ('pending', 'expired', 'cancelled') THEN
    RETURN QUERY SELECT 'duplicate'::text, v_order.user_id, v_order.kind;
    RETURN;
  END IF;
  UPDATE payment_transactions SET
    status = 'paid',
    paid_at = p_paid_at,
    provider_trade_no = coalesce(p_trade_no, provider_trade_no),
    paid_late = (v_order.status <> 'pending' OR p_paid_at > v_order.expires_at),
    updated_at = p_now
  WHERE id = v_order.id;
  IF v_order.kind = 'credits' THEN
    UPDATE credit_purchases SET status = 'paid', paid_at = p_paid_at WHERE order_no = p_order_no;
    PERFORM credit_grant(v_order.user_id, v_order.credits, 'purchase', 'order', p_order_no, NULL,
                         v_order.subject, NULL, p_now);
  ELSE
    SELECT p.monthly_credits INTO v_monthly FROM subscription_plans p WHERE p.id = v_order.plan_id;
    v_months := CASE WHEN v_order.billing_cycle = 'yearly' THEN 12 ELSE 1 END;
    -- Renewing the same plan extends it; a different plan starts now.
    SELECT max(s.ends_at) INTO v_current_end FROM subscriptions s
    WHERE s.user_id = v_order.user_id AND s.plan_code = v_order.plan_code
      AND s.cancelled_at IS NULL AND s.ends_at > p_now;
    v_start := greatest(p_now, coalesce(v_current_end, p_now));
    v_end := v_start + make_interval(months => v_months);
    INSERT INTO subscriptions (user_id, plan_id, plan_code, billing_cycle, order_no, monthly_credits,
                               starts_at, ends_at, created_at)
    VALUES (v_order.user_id, v_order.plan_id, v_order.plan_code, v_order.billing_cycle, p_order_no,
            coalesce(v_monthly, 0), v_start, v_end, p_now);
    -- The plan belongs to the payer's organisation (issue #22): every member gets it.
    UPDATE orgs o SET plan = v_order.plan_code,
      plan_expires_at = greatest(coalesce(o.plan_expires_at, p_now), v_end), updated_at = p_now
    FROM org_members m WHERE m.user_id = v_order.user_id AND o.id = m.org_id;
    PERFORM subscription_grant_allowances(v_order.user_id, p_now);
  END IF;
  RETURN QUERY SELECT 'applied'::text, v_order.user_id, v_order.kind;
END
$$;--> statement-breakpoint
-- Applies a refund the provider has confirmed, exactly once (a repeat returns 'duplicate' and
-- changes nothing). Raises the order's refunded_amount and sets its status; then
--  * credit order: takes back the credits the refunded money paid for, computed on the running
--    total (floor(credits * refunded_after / amount) - floor(credits * refunded_before / amount),
--    so partial refunds add up to the whole pack), capped at the buyer's balance (they may have
--    spent some); an 'admin_adjustment' ledger row carries the admin's id and names the order;
--  * subscription order, fully refunded: ends the subscription now, expires what is left of its
--    allowance lots (one 'expiry' ledger row per lot) and recomputes the plan of the buyer's
--    organisation from the subscriptions its members still run, else its running trial, else
--    'free' (migration 0025; 0005 did it on users).
-- A failed refund can still be applied (a late confirmation from the provider is the truth), as
-- long as it fits in what is left of the order. p_admin NULL (a provider callback): the ledger
-- row names the admin who asked for the refund.
-- Results: applied, duplicate, unknown_refund, not_refundable.
CREATE OR REPLACE FUNCTION payment_refund_apply(p_refund_no text, p_admin uuid, p_now timestamptz)
RETURNS TABLE (result text, order_status text, refunded_amount integer, credits_reversed integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_order_no text;
  v_order payment_transactions%ROWTYPE;
  v_refund payment_refunds%ROWTYPE;
  v_after integer;
  v_status text;
  v_reverse integer := 0;
  v_balance integer;
  v_sub subscriptions%ROWTYPE;
  v_plan text;
  v_plan_expires timestamptz;
  v_trial_ends timestamptz;
  v_org uuid;
BEGIN
  SELECT r.order_no INTO v_order_no FROM payment_refunds r WHERE r.refund_no = p_refund_no;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown_refund'::text, NULL::text, NULL::integer, NULL::integer;
    RETURN;
  END IF;
  SELECT * INTO v_order FROM payment_transactions t WHERE t.order_no = v_order_no FOR UPDATE;
  SELECT * INTO v_refund FROM payment_refunds r WHERE r.refund_no = p_refund_no FOR UPDATE;
  IF v_refund.status = 'succeeded' THEN
    RETURN QUERY SELECT 'duplicate'::text, v_order.status, v_order.refunded_amount,
                        v_refund.credits_reversed;
    RETURN;
  END IF;
  IF v_order.status NOT IN ('paid', 'partially_refunded')
     OR v_order.refunded_amount + v_refund.amount > v_order.amount THEN
    RETURN QUERY SELECT 'not_refundable'::text, v_order.status, v_order.refunded_amount, 0;
    RETURN;
  END IF;

  v_after := v_order.refunded_amount + v_refund.amount;
  v_status := CASE WHEN v_after = v_order.amount THEN 'refunded' ELSE 'partially_refunded' END;
  UPDATE payment_transactions SET refunded_amount = v_after, status = v_status, updated_at = p_now
  WHERE id = v_order.id;

  IF v_order.kind = 'credits' THEN
    UPDATE credit_purchases SET status = v_status WHERE order_no = v_order.order_no;
    v_reverse := (floor(coalesce(v_order.credits, 0)::numeric * v_after / v_order.amount)
                  - floor(coalesce(v_order.credits, 0)::numeric * v_order.refunded_amount
                          / v_order.amount))::integer;
    IF v_reverse > 0 THEN
      -- What is due first, so the cap is the balance credit_charge will see.
      PERFORM credit_expire_due(v_order.user_id, p_now);
      SELECT uc.balance INTO v_balance FROM user_credits uc
      WHERE uc.user_id = v_order.user_id FOR UPDATE;
      v_reverse := least(v_reverse, coalesce(v_balance, 0));
    END IF;
    IF v_reverse > 0 THEN
      PERFORM credit_charge(v_order.user_id, v_reverse, 'admin_adjustment', NULL,
                            'Refund ' || p_refund_no || ' of order ' || v_order.order_no,
                            coalesce(p_admin, v_refund.admin_id), NULL, p_now);
    END IF;
  ELSIF v_status = 'refunded' THEN
    -- The user's balance row first (as the credit functions do), then the lots.
    PERFORM 1 FROM user_credits uc WHERE uc.user_id = v_order.user_id FOR UPDATE;
    SELECT * INTO v_sub FROM subscriptions s WHERE s.order_no = v_order.order_no FOR UPDATE;
    IF FOUND AND v_sub.cancelled_at IS NULL THEN
      UPDATE subscriptions SET cancelled_at = p_now,
        ends_at = least(ends_at, greatest(starts_at, p_now))
      WHERE id = v_sub.id;
      UPDATE credit_lots l SET expires_at = p_now
      WHERE l.user_id = v_order.user_id AND l.source_type = 'subscription'
        AND l.source_id LIKE v_sub.id::text || ':%' AND l.remaining > 0;
      PERFORM credit_expire_due(v_order.user_id, p_now);
    END IF;
    -- The plan of the highest tier still running (its latest end), else a running trial.
    SELECT m.org_id INTO v_org FROM org_members m WHERE m.user_id = v_order.user_id;
    SELECT s.plan_code INTO v_plan FROM subscriptions s
    JOIN org_members sm ON sm.user_id = s.user_id AND sm.org_id = v_org
    LEFT JOIN subscription_plans p ON p.code = s.plan_code
    WHERE s.cancelled_at IS NULL AND s.ends_at > p_now
    ORDER BY coalesce(p.tier, 0) DESC, s.ends_at DESC LIMIT 1;
    IF v_plan IS NOT NULL THEN
      SELECT max(s.ends_at) INTO v_plan_expires FROM subscriptions s
      JOIN org_members sm ON sm.user_id = s.user_id AND sm.org_id = v_org
      WHERE s.cancelled_at IS NULL AND s.ends_at > p_now AND s.plan_code = v_plan;
    ELSE
      SELECT o.trial_ends_at INTO v_trial_ends FROM orgs o WHERE o.id = v_org;
      IF v_trial_ends IS NOT NULL AND v_trial_ends > p_now THEN
        v_plan := 'pro';
        v_plan_expires := v_trial_ends;
      ELSE
        v_plan := 'free';
        v_plan_expires := NULL;
      END IF;
    END IF;
    UPDATE orgs o SET plan = v_plan, plan_expires_at = v_plan_expires, updated_at = p_now
    WHERE o.id = v_org;
  END IF;

  UPDATE payment_refunds SET status = 'succeeded', completed_at = p_now,
    credits_reversed = v_reverse, admin_id = coalesce(admin_id, p_admin)
  WHERE id = v_refund.id;
  RETURN QUERY SELECT 'applied'::text, v_status, v_after, v_reverse;
END
$$;
