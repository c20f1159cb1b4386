-- Admin refunds. A refund is reserved first (payment_refund_create, under the order's lock, so
-- two admins cannot both refund the same remainder), then sent to the provider, then applied
-- once the provider confirms it (payment_refund_apply): one statement each for the caller.
-- Lock order everywhere: payment_transactions, payment_refunds, user_credits, credit_lots.

-- Reserves a refund of p_amount (NULL: all that is left) on a paid order. Pending refunds count
-- against the refundable remainder, failed ones do not. Results: created, unknown_order,
-- not_refundable (status), bad_amount (p_amount outside 1..remaining).
CREATE OR REPLACE FUNCTION payment_refund_create(
  p_order_no text, p_refund_no text, p_amount integer, p_reason text, p_admin uuid,
  p_now timestamptz)
RETURNS TABLE (result text, remaining integer, amount integer, status text)
LANGUAGE plpgsql AS $$
DECLARE
  v_order payment_transactions%ROWTYPE;
  v_pending integer;
  v_remaining integer;
  v_amount integer;
BEGIN
  SELECT * INTO v_order FROM payment_transactions t WHERE t.order_no = p_order_no FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown_order'::text, NULL::integer, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF v_order.status NOT IN ('paid', 'partially_refunded') THEN
    RETURN QUERY SELECT 'not_refundable'::text, 0, NULL::integer, v_order.status;
    RETURN;
  END IF;
  -- A statement of its own, after the lock: it sees refunds reserved by whoever held it before.
  SELECT coalesce(sum(r.amount), 0)::integer INTO v_pending FROM payment_refunds r
  WHERE r.order_no = p_order_no AND r.status = 'pending';
  v_remaining := v_order.amount - v_order.refunded_amount - v_pending;
  v_amount := coalesce(p_amount, v_remaining);
  IF v_amount < 1 OR v_amount > v_remaining THEN
    RETURN QUERY SELECT 'bad_amount'::text, v_remaining, v_amount, v_order.status;
    RETURN;
  END IF;
  INSERT INTO payment_refunds (order_no, refund_no, amount, status, reason, admin_id, created_at)
  VALUES (p_order_no, p_refund_no, v_amount, 'pending', p_reason, p_admin, p_now);
  RETURN QUERY SELECT 'created'::text, v_remaining, v_amount, v_order.status;
END
$$;
--> statement-breakpoint

-- Applies a refund the provider has confirmed, exactly once (a repeat returns 'duplicate' and
-- changes nothing). Raises the order's refunded_amount and sets its status; then
--  * credit order: takes back the credits the refunded money paid for, computed on the running
--    total (floor(credits * refunded_after / amount) - floor(credits * refunded_before / amount),
--    so partial refunds add up to the whole pack), capped at the buyer's balance (they may have
--    spent some); an 'admin_adjustment' ledger row carries the admin's id and names the order;
--  * subscription order, fully refunded: ends the subscription now, expires what is left of its
--    allowance lots (one 'expiry' ledger row per lot) and recomputes users.plan from the
--    subscriptions still running, else a running trial, else 'free'.
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
    SELECT s.plan_code INTO v_plan FROM subscriptions s
    LEFT JOIN subscription_plans p ON p.code = s.plan_code
    WHERE s.user_id = v_order.user_id AND s.cancelled_at IS NULL AND s.ends_at > p_now
    ORDER BY coalesce(p.tier, 0) DESC, s.ends_at DESC LIMIT 1;
    IF v_plan IS NOT NULL THEN
      SELECT max(s.ends_at) INTO v_plan_expires FROM subscriptions s
      WHERE s.user_id = v_order.user_id AND s.cancelled_at IS NULL AND s.ends_at > p_now
        AND s.plan_code = v_plan;
    ELSE
      SELECT u.trial_ends_at INTO v_trial_ends FROM users u WHERE u.id = v_order.user_id;
      IF v_trial_ends IS NOT NULL AND v_trial_ends > p_now THEN
        v_plan := 'pro';
        v_plan_expires := v_trial_ends;
      ELSE
        v_plan := 'free';
        v_plan_expires := NULL;
      END IF;
    END IF;
    UPDATE users u SET plan = v_plan, plan_expires_at = v_plan_expires, updated_at = p_now
    WHERE u.id = v_order.user_id;
  END IF;

  UPDATE payment_refunds SET status = 'succeeded', completed_at = p_now,
    credits_reversed = v_reverse, admin_id = coalesce(admin_id, p_admin)
  WHERE id = v_refund.id;
  RETURN QUERY SELECT 'applied'::text, v_status, v_after, v_reverse;
END
$$;
