-- Orders and subscriptions belong to the organisation they pay for (issue #22, ADR 0102). Until
-- now payment_fulfil, the monthly allowances and payment_refund_apply acted on the payer's
-- organisation at the time the money arrived: an owner who ordered a plan for their own
-- organisation, then joined a company before paying, moved the company's plan. The order now
-- names its organisation when it is created and everything after acts on that one.
ALTER TABLE "payment_transactions" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "org_id" uuid;--> statement-breakpoint
UPDATE "payment_transactions" t SET "org_id" = m.org_id FROM "org_members" m WHERE m.user_id = t.user_id;--> statement-breakpoint
UPDATE "subscriptions" s SET "org_id" = m.org_id FROM "org_members" m WHERE m.user_id = s.user_id;--> statement-breakpoint
ALTER TABLE "payment_transactions" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_transactions_org_created_idx" ON "payment_transactions" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_org_ends_idx" ON "subscriptions" USING btree ("org_id","ends_at");--> statement-breakpoint
-- Every path that inserts an order or a subscription (orders, referral rewards, seeds) gets the
-- creator's organisation; payment_fulfil names the order's explicitly.
CREATE TRIGGER payment_transactions_org_id BEFORE INSERT ON payment_transactions FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint
CREATE TRIGGER subscriptions_org_id BEFORE INSERT ON subscriptions FOR EACH ROW EXECUTE FUNCTION org_id_of_creator();--> statement-breakpoint

-- credit_grant of migration 0026 with the organisation named by the caller: a paid order's
-- credits and a subscription's allowance go to the organisation that paid, the lot and ledger
-- row naming the member who paid (who may have moved on since).
CREATE OR REPLACE FUNCTION credit_grant_to_org(
  p_org uuid, p_user uuid, p_amount integer, p_kind text, p_source_type text, p_source_id text,
  p_expires_at timestamptz, p_note text, p_actor uuid, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid, lot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_ledger uuid;
  v_lot uuid;
  v_done boolean;
BEGIN
  IF p_amount <= 0 THEN
    RAISE EXCEPTION 'credit_grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  INSERT INTO org_credits (org_id, balance, updated_at) VALUES (p_org, 0, p_now)
  ON CONFLICT (org_id) DO NOTHING;
  PERFORM credit_expire_due_org(p_org, p_now);
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = p_org FOR UPDATE;
  -- The predicate of credit_ledger_source_once_key repeated so a cached plan uses it (0020).
  IF p_kind NOT IN ('admin_adjustment', 'consumption', 'expiry') THEN
    v_done := EXISTS (
      SELECT 1 FROM credit_ledger l
      WHERE l.kind = p_kind AND l.source_type = p_source_type AND l.source_id = p_source_id
        AND l.kind <> ALL (ARRAY['consumption', 'admin_adjustment', 'expiry']));
  ELSE
    v_done := p_kind <> 'admin_adjustment' AND EXISTS (
      SELECT 1 FROM credit_ledger l
      WHERE l.kind = p_kind AND l.source_type = p_source_type AND l.source_id = p_source_id);
  END IF;
  IF v_done THEN
    RETURN QUERY SELECT false, v_balance, NULL::uuid, NULL::uuid;
    RETURN;
  END IF;
  INSERT INTO credit_lots (org_id, user_id, kind, granted, remaining, expires_at, source_type, source_id, created_at)
  VALUES (p_org, p_user, p_kind, p_amount, p_amount, p_expires_at, p_source_type, p_source_id, p_now)
  RETURNING id INTO v_lot;
  v_balance := v_balance + p_amount;
  UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = p_org;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, actor_id, lots, note, created_at)
  VALUES (p_org, p_user, p_amount, v_balance, p_kind, p_source_type, p_source_id, p_actor,
          jsonb_build_array(jsonb_build_object('lot_id', v_lot, 'amount', p_amount)), p_note, p_now)
  RETURNING id INTO v_ledger;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_lot;
END
$$;--> statement-breakpoint

-- Adds credits to the member's organisation (every grant that is not a payment's: sign-up,
-- referral, admin adjustments).
CREATE OR REPLACE FUNCTION credit_grant(
  p_user uuid, p_amount integer, p_kind text, p_source_type text, p_source_id text,
  p_expires_at timestamptz, p_note text, p_actor uuid, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid, lot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid;
BEGIN
  SELECT m.org_id INTO v_org FROM org_members m WHERE m.user_id = p_user;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'user % belongs to no organisation', p_user USING ERRCODE = '23503';
  END IF;
  RETURN QUERY SELECT * FROM credit_grant_to_org(v_org, p_user, p_amount, p_kind, p_source_type,
    p_source_id, p_expires_at, p_note, p_actor, p_now);
END
$$;--> statement-breakpoint

-- Takes back up to p_cost credits a refunded order paid for from the organisation it paid for,
-- capped at what is left there (its members may have spent some), soonest-expiring lots first:
-- one 'admin_adjustment' ledger row naming the payer and the admin. Returns what was taken.
CREATE OR REPLACE FUNCTION credit_take_back_org(
  p_org uuid, p_user uuid, p_cost integer, p_note text, p_actor uuid, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_take integer;
  v_left integer;
  v_part integer;
  v_lot record;
  v_spent jsonb := '[]'::jsonb;
BEGIN
  PERFORM credit_expire_due_org(p_org, p_now);
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = p_org FOR UPDATE;
  v_take := least(p_cost, coalesce(v_balance, 0));
  IF v_take <= 0 THEN
    RETURN 0;
  END IF;
  v_left := v_take;
  FOR v_lot IN
    SELECT l.id, l.remaining FROM credit_lots l
    WHERE l.org_id = p_org AND l.remaining > 0
    ORDER BY l.expires_at ASC NULLS LAST, l.created_at, l.id
    FOR UPDATE
  LOOP
    EXIT WHEN v_left = 0;
    v_part := least(v_left, v_lot.remaining);
    UPDATE credit_lots SET remaining = remaining - v_part WHERE id = v_lot.id;
    v_spent := v_spent || jsonb_build_object('lot_id', v_lot.id, 'amount', v_part);
    v_left := v_left - v_part;
  END LOOP;
  IF v_left > 0 THEN
    RAISE EXCEPTION 'credit lots of organisation % do not cover the balance', p_org USING ERRCODE = 'XX000';
  END IF;
  v_balance := v_balance - v_take;
  UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = p_org;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, actor_id, lots, note, created_at)
  VALUES (p_org, p_user, -v_take, v_balance, 'admin_adjustment', 'admin', p_actor::text, p_actor,
          v_spent, p_note, p_now);
  RETURN v_take;
END
$$;--> statement-breakpoint

-- subscription_grant_allowances of migration 0004, each allowance granted to the organisation
-- the subscription runs for.
CREATE OR REPLACE FUNCTION subscription_grant_allowances(p_user uuid, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_sub record;
  v_month integer;
  v_granted integer := 0;
  v_applied boolean;
BEGIN
  FOR v_sub IN
    SELECT s.id, s.org_id, s.starts_at, s.ends_at, s.monthly_credits, s.plan_code FROM subscriptions s
    WHERE s.user_id = p_user AND s.cancelled_at IS NULL AND s.monthly_credits > 0
      AND s.starts_at <= p_now AND s.ends_at > p_now
    ORDER BY s.starts_at
  LOOP
    v_month := 0;
    WHILE v_sub.starts_at + make_interval(months => v_month + 1) <= p_now LOOP
      v_month := v_month + 1;
    END LOOP;
    SELECT g.applied INTO v_applied FROM credit_grant_to_org(
      v_sub.org_id, p_user, v_sub.monthly_credits, 'plan_allowance', 'subscription',
      v_sub.id::text || ':' || v_month,
      least(v_sub.starts_at + make_interval(months => v_month + 1), v_sub.ends_at),
      'Monthly allowance, ' || v_sub.plan_code, NULL, p_now) g;
    IF v_applied THEN
      v_granted := v_granted + v_sub.monthly_credits;
    END IF;
  END LOOP;
  RETURN v_granted;
END
$$;--> statement-breakpoint

-- payment_fulfil of migration 0027 acting on the order's organisation.
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
    PERFORM credit_grant_to_org(v_order.org_id, v_order.user_id, v_order.credits, 'purchase',
                                'order', p_order_no, NULL, v_order.subject, NULL, p_now);
  ELSE
    SELECT p.monthly_credits INTO v_monthly FROM subscription_plans p WHERE p.id = v_order.plan_id;
    v_months := CASE WHEN v_order.billing_cycle = 'yearly' THEN 12 ELSE 1 END;
    -- Renewing the organisation's running plan extends it; a different plan starts now.
    SELECT max(s.ends_at) INTO v_current_end FROM subscriptions s
    WHERE s.org_id = v_order.org_id AND s.plan_code = v_order.plan_code
      AND s.cancelled_at IS NULL AND s.ends_at > p_now;
    v_start := greatest(p_now, coalesce(v_current_end, p_now));
    v_end := v_start + make_interval(months => v_months);
    INSERT INTO subscriptions (user_id, org_id, plan_id, plan_code, billing_cycle, order_no,
                               monthly_credits, starts_at, ends_at, created_at)
    VALUES (v_order.user_id, v_order.org_id, v_order.plan_id, v_order.plan_code,
            v_order.billing_cycle, p_order_no, coalesce(v_monthly, 0), v_start, v_end, p_now);
    UPDATE orgs o SET plan = v_order.plan_code,
      plan_expires_at = greatest(coalesce(o.plan_expires_at, p_now), v_end), updated_at = p_now
    WHERE o.id = v_order.org_id;
    PERFORM subscription_grant_allowances(v_order.user_id, p_now);
  END IF;
  RETURN QUERY SELECT 'applied'::text, v_order.user_id, v_order.kind;
END
$$;--> statement-breakpoint

-- payment_refund_apply of migration 0027 acting on the order's organisation (its balance row is
-- locked directly, no longer through the user_credits view).
-- Applies a refund the provider has confirmed, exactly once (a repeat returns 'duplicate' and
-- changes nothing). Raises the order's refunded_amount and sets its status; then
--  * credit order: takes back the credits the refunded money paid for, computed on the running
--    total (floor(credits * refunded_after / amount) - floor(credits * refunded_before / amount),
--    so partial refunds add up to the whole pack), capped at the organisation's balance (its
--    members may have spent some); an 'admin_adjustment' ledger row carries the admin's id and
--    names the order;
--  * subscription order, fully refunded: ends the subscription now, expires what is left of its
--    allowance lots (one 'expiry' ledger row per lot) and recomputes the organisation's plan
--    from its subscriptions still running, else its running trial, else 'free'.
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
  v_sub subscriptions%ROWTYPE;
  v_plan text;
  v_plan_expires timestamptz;
  v_trial_ends timestamptz;
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
      v_reverse := credit_take_back_org(v_order.org_id, v_order.user_id, v_reverse,
                                        'Refund ' || p_refund_no || ' of order ' || v_order.order_no,
                                        coalesce(p_admin, v_refund.admin_id), p_now);
    END IF;
  ELSIF v_status = 'refunded' THEN
    -- The organisation's balance row first (as the credit functions do), then the lots.
    PERFORM 1 FROM org_credits oc WHERE oc.org_id = v_order.org_id FOR UPDATE;
    SELECT * INTO v_sub FROM subscriptions s WHERE s.order_no = v_order.order_no FOR UPDATE;
    IF FOUND AND v_sub.cancelled_at IS NULL THEN
      UPDATE subscriptions SET cancelled_at = p_now,
        ends_at = least(ends_at, greatest(starts_at, p_now))
      WHERE id = v_sub.id;
      UPDATE credit_lots l SET expires_at = p_now
      WHERE l.org_id = v_sub.org_id AND l.source_type = 'subscription'
        AND l.source_id LIKE v_sub.id::text || ':%' AND l.remaining > 0;
      PERFORM credit_expire_due_org(v_sub.org_id, p_now);
    END IF;
    -- The plan of the highest tier still running (its latest end), else a running trial.
    SELECT s.plan_code INTO v_plan FROM subscriptions s
    LEFT JOIN subscription_plans p ON p.code = s.plan_code
    WHERE s.org_id = v_order.org_id AND s.cancelled_at IS NULL AND s.ends_at > p_now
    ORDER BY coalesce(p.tier, 0) DESC, s.ends_at DESC LIMIT 1;
    IF v_plan IS NOT NULL THEN
      SELECT max(s.ends_at) INTO v_plan_expires FROM subscriptions s
      WHERE s.org_id = v_order.org_id AND s.cancelled_at IS NULL AND s.ends_at > p_now
        AND s.plan_code = v_plan;
    ELSE
      SELECT o.trial_ends_at INTO v_trial_ends FROM orgs o WHERE o.id = v_order.org_id;
      IF v_trial_ends IS NOT NULL AND v_trial_ends > p_now THEN
        v_plan := 'pro';
        v_plan_expires := v_trial_ends;
      ELSE
        v_plan := 'free';
        v_plan_expires := NULL;
      END IF;
    END IF;
    UPDATE orgs o SET plan = v_plan, plan_expires_at = v_plan_expires, updated_at = p_now
    WHERE o.id = v_order.org_id;
  END IF;

  UPDATE payment_refunds SET status = 'succeeded', completed_at = p_now,
    credits_reversed = v_reverse, admin_id = coalesce(admin_id, p_admin)
  WHERE id = v_refund.id;
  RETURN QUERY SELECT 'applied'::text, v_status, v_after, v_reverse;
END
$$;
