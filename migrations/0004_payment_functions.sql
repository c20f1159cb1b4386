-- Grants the monthly allowance of every running subscription of a user, for the month it is in.
-- credit_grant's (kind, source) uniqueness makes a second call for the same month a no-op.
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
    SELECT s.id, s.starts_at, s.ends_at, s.monthly_credits, s.plan_code FROM subscriptions s
    WHERE s.user_id = p_user AND s.cancelled_at IS NULL AND s.monthly_credits > 0
      AND s.starts_at <= p_now AND s.ends_at > p_now
    ORDER BY s.starts_at
  LOOP
    v_month := 0;
    WHILE v_sub.starts_at + make_interval(months => v_month + 1) <= p_now LOOP
      v_month := v_month + 1;
    END LOOP;
    SELECT g.applied INTO v_applied FROM credit_grant(
      p_user, v_sub.monthly_credits, 'plan_allowance', 'subscription', v_sub.id::text || ':' || v_month,
      least(v_sub.starts_at + make_interval(months => v_month + 1), v_sub.ends_at),
      'Monthly allowance, ' || v_sub.plan_code, NULL, p_now) g;
    IF v_applied THEN
      v_granted := v_granted + v_sub.monthly_credits;
    END IF;
  END LOOP;
  RETURN v_granted;
END
$$;
--> statement-breakpoint

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
    UPDATE users u SET plan = v_order.plan_code,
      plan_expires_at = greatest(coalesce(u.plan_expires_at, p_now), v_end), updated_at = p_now
    WHERE u.id = v_order.user_id;
    PERFORM subscription_grant_allowances(v_order.user_id, p_now);
  END IF;
  RETURN QUERY SELECT 'applied'::text, v_order.user_id, v_order.kind;
END
$$;
