-- Every change of a credit balance goes through one of these functions: one statement for the
-- caller, atomic, and serialised per user by a row lock on user_credits (taken first, always).
-- Each writes its ledger row, so user_credits.balance always equals the sum of credit_ledger.delta.

-- Expires the user's lots whose time has come, one 'expiry' ledger row per lot.
CREATE OR REPLACE FUNCTION credit_expire_due(p_user uuid, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_total integer := 0;
  v_lot record;
BEGIN
  SELECT balance INTO v_balance FROM user_credits WHERE user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  FOR v_lot IN
    SELECT id, remaining FROM credit_lots
    WHERE user_id = p_user AND remaining > 0 AND expires_at IS NOT NULL AND expires_at <= p_now
    ORDER BY expires_at, created_at, id
    FOR UPDATE
  LOOP
    UPDATE credit_lots SET remaining = 0 WHERE id = v_lot.id;
    v_balance := v_balance - v_lot.remaining;
    v_total := v_total + v_lot.remaining;
    INSERT INTO credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, lots, note, created_at)
    VALUES (p_user, -v_lot.remaining, v_balance, 'expiry', 'lot', v_lot.id::text,
            jsonb_build_array(jsonb_build_object('lot_id', v_lot.id, 'amount', v_lot.remaining)),
            'Allowance expired', p_now);
  END LOOP;
  IF v_total > 0 THEN
    UPDATE user_credits SET balance = v_balance, updated_at = p_now WHERE user_id = p_user;
  END IF;
  RETURN v_total;
END
$$;
--> statement-breakpoint

-- Adds credits as a new lot. A (kind, source) pair grants once: a repeat returns applied = false.
CREATE OR REPLACE FUNCTION credit_grant(
  p_user uuid, p_amount integer, p_kind text, p_source_type text, p_source_id text,
  p_expires_at timestamptz, p_note text, p_actor uuid, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid, lot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_ledger uuid;
  v_lot uuid;
BEGIN
  IF p_amount <= 0 THEN
    RAISE EXCEPTION 'credit_grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  INSERT INTO user_credits (user_id, balance, updated_at) VALUES (p_user, 0, p_now)
  ON CONFLICT (user_id) DO NOTHING;
  PERFORM credit_expire_due(p_user, p_now);
  SELECT uc.balance INTO v_balance FROM user_credits uc WHERE uc.user_id = p_user FOR UPDATE;
  IF p_kind <> 'admin_adjustment' AND EXISTS (
    SELECT 1 FROM credit_ledger l
    WHERE l.kind = p_kind AND l.source_type = p_source_type AND l.source_id = p_source_id
  ) THEN
    RETURN QUERY SELECT false, v_balance, NULL::uuid, NULL::uuid;
    RETURN;
  END IF;
  INSERT INTO credit_lots (user_id, kind, granted, remaining, expires_at, source_type, source_id, created_at)
  VALUES (p_user, p_kind, p_amount, p_amount, p_expires_at, p_source_type, p_source_id, p_now)
  RETURNING id INTO v_lot;
  v_balance := v_balance + p_amount;
  UPDATE user_credits SET balance = v_balance, updated_at = p_now WHERE user_id = p_user;
  INSERT INTO credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, actor_id, lots, note, created_at)
  VALUES (p_user, p_amount, v_balance, p_kind, p_source_type, p_source_id, p_actor,
          jsonb_build_array(jsonb_build_object('lot_id', v_lot, 'amount', p_amount)), p_note, p_now)
  RETURNING id INTO v_ledger;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_lot;
END
$$;
--> statement-breakpoint

-- Deducts credits, soonest-expiring lots first. Not enough credits: ok = false, nothing written.
-- kind 'consumption' also records a credit_consumptions row (returned as consumption_id).
CREATE OR REPLACE FUNCTION credit_charge(
  p_user uuid, p_cost integer, p_kind text, p_operation text, p_note text, p_actor uuid,
  p_idempotency_key text, p_now timestamptz)
RETURNS TABLE (ok boolean, balance integer, ledger_id uuid, consumption_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_left integer := p_cost;
  v_take integer;
  v_lot record;
  v_spent jsonb := '[]'::jsonb;
  v_ledger uuid;
  v_consumption uuid := NULL;
  v_source_type text := 'admin';
  v_source_id text := p_actor::text;
BEGIN
  IF p_cost <= 0 THEN
    RAISE EXCEPTION 'credit_charge cost must be positive' USING ERRCODE = '22023';
  END IF;
  PERFORM credit_expire_due(p_user, p_now);
  SELECT uc.balance INTO v_balance FROM user_credits uc WHERE uc.user_id = p_user FOR UPDATE;
  IF NOT FOUND OR v_balance < p_cost THEN
    RETURN QUERY SELECT false, coalesce(v_balance, 0), NULL::uuid, NULL::uuid;
    RETURN;
  END IF;
  FOR v_lot IN
    SELECT l.id, l.remaining FROM credit_lots l
    WHERE l.user_id = p_user AND l.remaining > 0
    ORDER BY l.expires_at ASC NULLS LAST, l.created_at, l.id
    FOR UPDATE
  LOOP
    EXIT WHEN v_left = 0;
    v_take := least(v_left, v_lot.remaining);
    UPDATE credit_lots SET remaining = remaining - v_take WHERE id = v_lot.id;
    v_spent := v_spent || jsonb_build_object('lot_id', v_lot.id, 'amount', v_take);
    v_left := v_left - v_take;
  END LOOP;
  IF v_left > 0 THEN
    RAISE EXCEPTION 'credit lots of % do not cover the balance', p_user USING ERRCODE = 'XX000';
  END IF;
  v_balance := v_balance - p_cost;
  UPDATE user_credits SET balance = v_balance, updated_at = p_now WHERE user_id = p_user;
  IF p_kind = 'consumption' THEN
    v_consumption := gen_random_uuid();
    v_source_type := 'consumption';
    v_source_id := v_consumption::text;
  END IF;
  INSERT INTO credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, operation, actor_id, lots, note, created_at)
  VALUES (p_user, -p_cost, v_balance, p_kind, v_source_type, v_source_id, p_operation, p_actor, v_spent, p_note, p_now)
  RETURNING id INTO v_ledger;
  IF v_consumption IS NOT NULL THEN
    INSERT INTO credit_consumptions (id, user_id, operation, cost, ledger_id, idempotency_key, created_at)
    VALUES (v_consumption, p_user, p_operation, p_cost, v_ledger, p_idempotency_key, p_now);
  END IF;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_consumption;
END
$$;
--> statement-breakpoint

-- Gives a consumption's credits back to the lots it was spent from, once.
CREATE OR REPLACE FUNCTION credit_refund(p_consumption uuid, p_note text, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
  v_cost integer;
  v_operation text;
  v_status text;
  v_lots jsonb;
  v_item jsonb;
  v_balance integer;
  v_ledger uuid;
BEGIN
  SELECT c.user_id INTO v_user FROM credit_consumptions c WHERE c.id = p_consumption;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, NULL::integer, NULL::uuid;
    RETURN;
  END IF;
  SELECT uc.balance INTO v_balance FROM user_credits uc WHERE uc.user_id = v_user FOR UPDATE;
  SELECT c.cost, c.operation, c.status, l.lots INTO v_cost, v_operation, v_status, v_lots
  FROM credit_consumptions c JOIN credit_ledger l ON l.id = c.ledger_id
  WHERE c.id = p_consumption FOR UPDATE OF c;
  IF v_status <> 'charged' THEN
    RETURN QUERY SELECT false, v_balance, NULL::uuid;
    RETURN;
  END IF;
  FOR v_item IN SELECT * FROM jsonb_array_elements(v_lots) LOOP
    UPDATE credit_lots SET remaining = remaining + (v_item->>'amount')::integer
    WHERE id = (v_item->>'lot_id')::uuid;
  END LOOP;
  v_balance := v_balance + v_cost;
  UPDATE user_credits SET balance = v_balance, updated_at = p_now WHERE user_id = v_user;
  INSERT INTO credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, operation, lots, note, created_at)
  VALUES (v_user, v_cost, v_balance, 'refund', 'consumption', p_consumption::text, v_operation, v_lots, p_note, p_now)
  RETURNING id INTO v_ledger;
  UPDATE credit_consumptions SET status = 'refunded', refund_ledger_id = v_ledger, refunded_at = p_now
  WHERE id = p_consumption;
  -- A refunded allowance lot that has meanwhile expired goes straight back out, with its row.
  PERFORM credit_expire_due(v_user, p_now);
  SELECT uc.balance INTO v_balance FROM user_credits uc WHERE uc.user_id = v_user;
  RETURN QUERY SELECT true, v_balance, v_ledger;
END
$$;
