-- A subscription's allowance follows bring_data and its refund follows the allowance (issue #22
-- review, ADR 0102). credit_move_org grouped every lot it moved into one 'org_move' lot per
-- expiry date, so a later full refund of a plan the joining owner had paid for found none of its
-- allowance (payment_refund_apply looks the lots up by the subscription's source): the company
-- kept the allowance of a plan whose money went back.
-- credit_move_org of migration 0026, with a subscription's allowance keeping its source.
-- bring_data (issue #22 item 2): what is left in p_from's wallet moves to p_to's, in the name
-- of p_user: the lots of p_from are emptied and p_to gets one lot per expiry date (so allowance
-- credits still expire when they would have), except a subscription's allowance, which moves lot
-- by lot with its source (so a refund of that subscription still finds and ends it, ADR 0102), with an 'org_transfer' ledger row on each side
-- (out on p_from, in on p_to) sharing one source id. Both wallets are locked in id order, so
-- two moves in opposite directions cannot deadlock. Returns the credits moved.
CREATE OR REPLACE FUNCTION credit_move_org(p_user uuid, p_from uuid, p_to uuid, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_move text := gen_random_uuid()::text;
  v_from_balance integer;
  v_to_balance integer;
  v_total integer := 0;
  v_out jsonb := '[]'::jsonb;
  v_in jsonb := '[]'::jsonb;
  v_lot record;
  v_new uuid;
BEGIN
  IF p_from = p_to THEN
    RETURN 0;
  END IF;
  INSERT INTO org_credits (org_id, balance, updated_at) VALUES (p_to, 0, p_now)
  ON CONFLICT (org_id) DO NOTHING;
  PERFORM 1 FROM org_credits oc WHERE oc.org_id IN (p_from, p_to) ORDER BY oc.org_id FOR UPDATE;
  PERFORM credit_expire_due_org(p_from, p_now);
  PERFORM credit_expire_due_org(p_to, p_now);
  SELECT oc.balance INTO v_from_balance FROM org_credits oc WHERE oc.org_id = p_from;
  IF NOT FOUND OR v_from_balance = 0 THEN
    RETURN 0;
  END IF;
  SELECT oc.balance INTO v_to_balance FROM org_credits oc WHERE oc.org_id = p_to;
  FOR v_lot IN
    SELECT l.id, l.remaining FROM credit_lots l
    WHERE l.org_id = p_from AND l.remaining > 0 ORDER BY l.expires_at, l.created_at, l.id FOR UPDATE
  LOOP
    UPDATE credit_lots SET remaining = 0 WHERE id = v_lot.id;
    v_out := v_out || jsonb_build_object('lot_id', v_lot.id, 'amount', v_lot.remaining);
    v_total := v_total + v_lot.remaining;
  END LOOP;
  IF v_total <> v_from_balance THEN
    RAISE EXCEPTION 'credit lots of organisation % do not match its balance', p_from USING ERRCODE = 'XX000';
  END IF;
  FOR v_lot IN
    SELECT e.expires_at, e.source_type, e.source_id, sum(e.amount)::integer AS amount
    FROM (SELECT l.expires_at, (x->>'amount')::integer AS amount,
            CASE WHEN l.source_type = 'subscription' THEN l.source_type ELSE 'org_move' END AS source_type,
            CASE WHEN l.source_type = 'subscription' THEN l.source_id ELSE v_move END AS source_id
          FROM jsonb_array_elements(v_out) x JOIN credit_lots l ON l.id = (x->>'lot_id')::uuid) e
    GROUP BY e.expires_at, e.source_type, e.source_id
    ORDER BY e.expires_at NULLS LAST, e.source_type, e.source_id
  LOOP
    INSERT INTO credit_lots (org_id, user_id, kind, granted, remaining, expires_at, source_type, source_id, created_at)
    VALUES (p_to, p_user, 'org_transfer', v_lot.amount, v_lot.amount, v_lot.expires_at,
            v_lot.source_type, v_lot.source_id, p_now)
    RETURNING id INTO v_new;
    v_in := v_in || jsonb_build_object('lot_id', v_new, 'amount', v_lot.amount);
  END LOOP;
  UPDATE org_credits SET balance = 0, updated_at = p_now WHERE org_id = p_from;
  UPDATE org_credits SET balance = v_to_balance + v_total, updated_at = p_now WHERE org_id = p_to;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, lots, note, created_at)
  VALUES (p_from, p_user, -v_total, 0, 'org_transfer', 'org_move_out', v_move, v_out,
          'Moved to organisation ' || p_to, p_now),
         (p_to, p_user, v_total, v_to_balance + v_total, 'org_transfer', 'org_move_in', v_move, v_in,
          'Moved from organisation ' || p_from, p_now);
  RETURN v_total;
END
$$;--> statement-breakpoint

-- payment_refund_apply of migration 0030: a fully refunded subscription's allowance lots are
-- expired in whichever organisation holds them now (credit_move_org keeps their source when
-- bring_data moves them), each of those wallets locked first, in id order.
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
  v_orgs uuid[];
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
      v_reverse := credit_take_back_org(v_order.org_id, v_order.user_id, v_reverse,
                                        'Refund ' || p_refund_no || ' of order ' || v_order.order_no,
                                        coalesce(p_admin, v_refund.admin_id), p_now);
    END IF;
  ELSIF v_status = 'refunded' THEN
    SELECT * INTO v_sub FROM subscriptions s WHERE s.order_no = v_order.order_no FOR UPDATE;
    IF FOUND AND v_sub.cancelled_at IS NULL THEN
      -- The balance rows first (as the credit functions do), then the lots: the order's
      -- organisation and any that holds some of this subscription's allowance (bring_data).
      SELECT array_agg(DISTINCT x.org_id ORDER BY x.org_id) INTO v_orgs FROM (
        SELECT v_order.org_id AS org_id
        UNION SELECT l.org_id FROM credit_lots l
        WHERE l.source_type = 'subscription' AND l.source_id LIKE v_sub.id::text || ':%'
          AND l.remaining > 0) x;
      PERFORM 1 FROM org_credits oc WHERE oc.org_id = ANY (v_orgs) ORDER BY oc.org_id FOR UPDATE;
      UPDATE subscriptions SET cancelled_at = p_now,
        ends_at = least(ends_at, greatest(starts_at, p_now))
      WHERE id = v_sub.id;
      UPDATE credit_lots l SET expires_at = p_now
      WHERE l.source_type = 'subscription' AND l.source_id LIKE v_sub.id::text || ':%'
        AND l.remaining > 0;
      FOREACH v_org IN ARRAY v_orgs LOOP
        PERFORM credit_expire_due_org(v_org, p_now);
      END LOOP;
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
