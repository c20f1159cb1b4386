DROP TABLE "user_credits" CASCADE;--> statement-breakpoint
-- One wallet per organisation (issue #22, ADR 0098). The credit functions keep their member
-- arguments (callers unchanged) and work on the member's organisation's wallet: org_credits is
-- the balance row, locked first, always (a consumption charge by a member with a monthly limit
-- locks that member's org_members row before it). Every ledger row names the organisation
-- (org_id, whose balance is the sum of its rows' delta) and the member (user_id).
-- user_credits becomes the view "the wallet each member spends", so every reader of it (the
-- /me statement, admin views, tests) sees the organisation's balance without a change.
CREATE VIEW user_credits AS
  SELECT m.user_id, m.org_id, c.balance, c.updated_at
  FROM org_members m JOIN org_credits c ON c.org_id = m.org_id;--> statement-breakpoint

-- Credits of the member's consumptions in the organisation in p_now's UTC calendar month, less
-- what was refunded of them: what monthly_credit_limit caps.
CREATE OR REPLACE FUNCTION member_credits_used_month(p_user uuid, p_org uuid, p_now timestamptz)
RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(c.cost - coalesce(r.delta, 0)), 0)::integer
  FROM credit_consumptions c LEFT JOIN credit_ledger r ON r.id = c.refund_ledger_id
  WHERE c.user_id = p_user AND c.org_id = p_org
    AND c.created_at >= date_trunc('month', p_now AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND c.created_at < (date_trunc('month', p_now AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
$$;--> statement-breakpoint

-- The 75% and 100% notices of a member's monthly limit, to the member and the organisation's
-- owner and admins; once per member, month and threshold (dedupe_key).
CREATE OR REPLACE FUNCTION member_limit_notify(
  p_user uuid, p_org uuid, p_threshold integer, p_limit integer, p_used integer, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_month text := to_char(p_now AT TIME ZONE 'UTC', 'YYYY-MM');
  v_who text;
BEGIN
  SELECT coalesce(nullif(btrim(u.name), ''), u.email) INTO v_who FROM users u WHERE u.id = p_user;
  INSERT INTO notifications (user_id, kind, title, body, data, dedupe_key, created_at)
  SELECT m.user_id, 'member_credit_limit',
    CASE WHEN p_threshold >= 100 THEN 'Monthly credit limit reached'
         ELSE 'Monthly credit limit ' || p_threshold || '% used' END,
    CASE WHEN m.user_id = p_user
      THEN 'You have used ' || p_used || ' of your monthly credit limit of ' || p_limit || ' credits.'
      ELSE coalesce(v_who, 'A member') || ' has used ' || p_used || ' of their monthly credit limit of '
           || p_limit || ' credits.' END,
    jsonb_build_object('member_id', p_user, 'org_id', p_org, 'threshold', p_threshold,
                       'limit', p_limit, 'used', p_used, 'month', v_month),
    'member_credit_limit:' || p_threshold || ':' || p_user || ':' || v_month, p_now
  FROM org_members m
  WHERE m.org_id = p_org AND (m.user_id = p_user OR m.role IN ('owner', 'admin'))
  ON CONFLICT (user_id, dedupe_key) DO NOTHING;
END
$$;--> statement-breakpoint

-- Expires the organisation's lots whose time has come, one 'expiry' ledger row per lot naming
-- the member the lot was granted to.
CREATE OR REPLACE FUNCTION credit_expire_due_org(p_org uuid, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_total integer := 0;
  v_lot record;
BEGIN
  SELECT balance INTO v_balance FROM org_credits WHERE org_id = p_org FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  FOR v_lot IN
    SELECT id, remaining, user_id FROM credit_lots
    WHERE org_id = p_org AND remaining > 0 AND expires_at IS NOT NULL AND expires_at <= p_now
    ORDER BY expires_at, created_at, id
    FOR UPDATE
  LOOP
    UPDATE credit_lots SET remaining = 0 WHERE id = v_lot.id;
    v_balance := v_balance - v_lot.remaining;
    v_total := v_total + v_lot.remaining;
    INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, lots, note, created_at)
    VALUES (p_org, v_lot.user_id, -v_lot.remaining, v_balance, 'expiry', 'lot', v_lot.id::text,
            jsonb_build_array(jsonb_build_object('lot_id', v_lot.id, 'amount', v_lot.remaining)),
            'Allowance expired', p_now);
  END LOOP;
  IF v_total > 0 THEN
    UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = p_org;
  END IF;
  RETURN v_total;
END
$$;--> statement-breakpoint

-- The member's organisation's due lots (kept for its callers: payment refunds).
CREATE OR REPLACE FUNCTION credit_expire_due(p_user uuid, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid;
BEGIN
  SELECT m.org_id INTO v_org FROM org_members m WHERE m.user_id = p_user;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  RETURN credit_expire_due_org(v_org, p_now);
END
$$;--> statement-breakpoint

-- Adds credits to the member's organisation as a new lot granted to the member. A (kind,
-- source) pair grants once: a repeat returns applied = false.
CREATE OR REPLACE FUNCTION credit_grant(
  p_user uuid, p_amount integer, p_kind text, p_source_type text, p_source_id text,
  p_expires_at timestamptz, p_note text, p_actor uuid, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid, lot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid;
  v_balance integer;
  v_ledger uuid;
  v_lot uuid;
  v_done boolean;
BEGIN
  IF p_amount <= 0 THEN
    RAISE EXCEPTION 'credit_grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  SELECT m.org_id INTO v_org FROM org_members m WHERE m.user_id = p_user;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'user % belongs to no organisation', p_user USING ERRCODE = '23503';
  END IF;
  INSERT INTO org_credits (org_id, balance, updated_at) VALUES (v_org, 0, p_now)
  ON CONFLICT (org_id) DO NOTHING;
  PERFORM credit_expire_due_org(v_org, p_now);
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = v_org FOR UPDATE;
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
  VALUES (v_org, p_user, p_kind, p_amount, p_amount, p_expires_at, p_source_type, p_source_id, p_now)
  RETURNING id INTO v_lot;
  v_balance := v_balance + p_amount;
  UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = v_org;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, actor_id, lots, note, created_at)
  VALUES (v_org, p_user, p_amount, v_balance, p_kind, p_source_type, p_source_id, p_actor,
          jsonb_build_array(jsonb_build_object('lot_id', v_lot, 'amount', p_amount)), p_note, p_now)
  RETURNING id INTO v_ledger;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_lot;
END
$$;--> statement-breakpoint

-- Deducts credits from the member's organisation, soonest-expiring lots first. Refused (ok =
-- false, nothing written but a limit notice): refusal 'member_limit' when a consumption would
-- take the member's month past their monthly_credit_limit (their org_members row is locked
-- before the month's use is read, so concurrent charges cannot both pass it), else
-- 'insufficient_credits'. kind 'consumption' also records a credit_consumptions row.
DROP FUNCTION IF EXISTS credit_charge(uuid, integer, text, text, text, uuid, text, timestamptz);--> statement-breakpoint
CREATE FUNCTION credit_charge(
  p_user uuid, p_cost integer, p_kind text, p_operation text, p_note text, p_actor uuid,
  p_idempotency_key text, p_now timestamptz)
RETURNS TABLE (ok boolean, balance integer, ledger_id uuid, consumption_id uuid, refusal text,
               member_limit integer, member_used integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid;
  v_limit integer;
  v_used integer;
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
  SELECT m.org_id, m.monthly_credit_limit INTO v_org, v_limit FROM org_members m
  WHERE m.user_id = p_user;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, 0, NULL::uuid, NULL::uuid, 'insufficient_credits'::text,
                        NULL::integer, NULL::integer;
    RETURN;
  END IF;
  -- Admin adjustments are not limited; members without a limit take no member lock.
  IF p_kind = 'consumption' AND v_limit IS NOT NULL THEN
    SELECT m.org_id, m.monthly_credit_limit INTO v_org, v_limit FROM org_members m
    WHERE m.user_id = p_user FOR UPDATE;
    IF v_limit IS NOT NULL THEN
      -- A statement of its own after the lock: it sees the charges of whoever held it before.
      v_used := member_credits_used_month(p_user, v_org, p_now);
      IF v_used + p_cost > v_limit THEN
        PERFORM member_limit_notify(p_user, v_org, 100, v_limit, v_used, p_now);
        RETURN QUERY SELECT false,
          coalesce((SELECT oc.balance FROM org_credits oc WHERE oc.org_id = v_org), 0),
          NULL::uuid, NULL::uuid, 'member_limit'::text, v_limit, v_used;
        RETURN;
      END IF;
    END IF;
  END IF;
  PERFORM credit_expire_due_org(v_org, p_now);
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = v_org FOR UPDATE;
  IF NOT FOUND OR v_balance < p_cost THEN
    RETURN QUERY SELECT false, coalesce(v_balance, 0), NULL::uuid, NULL::uuid,
                        'insufficient_credits'::text, v_limit, v_used;
    RETURN;
  END IF;
  FOR v_lot IN
    SELECT l.id, l.remaining FROM credit_lots l
    WHERE l.org_id = v_org AND l.remaining > 0
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
    RAISE EXCEPTION 'credit lots of organisation % do not cover the balance', v_org USING ERRCODE = 'XX000';
  END IF;
  v_balance := v_balance - p_cost;
  UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = v_org;
  IF p_kind = 'consumption' THEN
    v_consumption := gen_random_uuid();
    v_source_type := 'consumption';
    v_source_id := v_consumption::text;
  END IF;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, operation, actor_id, lots, note, created_at)
  VALUES (v_org, p_user, -p_cost, v_balance, p_kind, v_source_type, v_source_id, p_operation, p_actor, v_spent, p_note, p_now)
  RETURNING id INTO v_ledger;
  IF v_consumption IS NOT NULL THEN
    INSERT INTO credit_consumptions (id, org_id, user_id, operation, cost, ledger_id, idempotency_key, created_at)
    VALUES (v_consumption, v_org, p_user, p_operation, p_cost, v_ledger, p_idempotency_key, p_now);
  END IF;
  IF v_used IS NOT NULL THEN
    IF v_used * 4 < v_limit * 3 AND (v_used + p_cost) * 4 >= v_limit * 3 THEN
      PERFORM member_limit_notify(p_user, v_org, 75, v_limit, v_used + p_cost, p_now);
    END IF;
    IF v_used < v_limit AND v_used + p_cost >= v_limit THEN
      PERFORM member_limit_notify(p_user, v_org, 100, v_limit, v_used + p_cost, p_now);
    END IF;
    v_used := v_used + p_cost;
  END IF;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_consumption, NULL::text, v_limit, v_used;
END
$$;--> statement-breakpoint

-- Gives a consumption's credits back to the lots it was spent from, once, in the organisation
-- it was charged to (whichever one the member is in now).
CREATE OR REPLACE FUNCTION credit_refund(p_consumption uuid, p_note text, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
  v_org uuid;
  v_cost integer;
  v_operation text;
  v_status text;
  v_lots jsonb;
  v_item jsonb;
  v_balance integer;
  v_ledger uuid;
BEGIN
  SELECT c.user_id, c.org_id INTO v_user, v_org FROM credit_consumptions c WHERE c.id = p_consumption;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, NULL::integer, NULL::uuid;
    RETURN;
  END IF;
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = v_org FOR UPDATE;
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
  UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = v_org;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, operation, lots, note, created_at)
  VALUES (v_org, v_user, v_cost, v_balance, 'refund', 'consumption', p_consumption::text, v_operation, v_lots, p_note, p_now)
  RETURNING id INTO v_ledger;
  UPDATE credit_consumptions SET status = 'refunded', refund_ledger_id = v_ledger, refunded_at = p_now
  WHERE id = p_consumption;
  -- A refunded allowance lot that has meanwhile expired goes straight back out, with its row.
  PERFORM credit_expire_due_org(v_org, p_now);
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = v_org;
  RETURN QUERY SELECT true, v_balance, v_ledger;
END
$$;--> statement-breakpoint

-- credit_refund_part (0019) on the consumption's organisation's wallet.
CREATE OR REPLACE FUNCTION credit_refund_part(
  p_consumption uuid, p_amount integer, p_note text, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid, amount integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
  v_org uuid;
  v_cost integer;
  v_operation text;
  v_status text;
  v_lots jsonb;
  v_item jsonb;
  v_left integer;
  v_give integer;
  v_amount integer;
  v_restored jsonb := '[]'::jsonb;
  v_balance integer;
  v_ledger uuid;
BEGIN
  SELECT c.user_id, c.org_id INTO v_user, v_org FROM credit_consumptions c WHERE c.id = p_consumption;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, NULL::integer, NULL::uuid, 0;
    RETURN;
  END IF;
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = v_org FOR UPDATE;
  SELECT c.cost, c.operation, c.status, l.lots INTO v_cost, v_operation, v_status, v_lots
  FROM credit_consumptions c JOIN credit_ledger l ON l.id = c.ledger_id
  WHERE c.id = p_consumption FOR UPDATE OF c;
  v_amount := least(coalesce(p_amount, 0), v_cost);
  IF v_status <> 'charged' OR v_amount <= 0 THEN
    RETURN QUERY SELECT false, v_balance, NULL::uuid, 0;
    RETURN;
  END IF;
  v_left := v_amount;
  FOR v_item IN SELECT * FROM jsonb_array_elements(v_lots) LOOP
    EXIT WHEN v_left = 0;
    v_give := least(v_left, (v_item->>'amount')::integer);
    CONTINUE WHEN v_give <= 0;
    UPDATE credit_lots SET remaining = remaining + v_give WHERE id = (v_item->>'lot_id')::uuid;
    v_restored := v_restored || jsonb_build_object('lot_id', v_item->>'lot_id', 'amount', v_give);
    v_left := v_left - v_give;
  END LOOP;
  v_balance := v_balance + v_amount;
  UPDATE org_credits SET balance = v_balance, updated_at = p_now WHERE org_id = v_org;
  INSERT INTO credit_ledger (org_id, user_id, delta, balance_after, kind, source_type, source_id, operation, lots, note, created_at)
  VALUES (v_org, v_user, v_amount, v_balance, 'refund', 'consumption', p_consumption::text, v_operation, v_restored, p_note, p_now)
  RETURNING id INTO v_ledger;
  UPDATE credit_consumptions SET status = 'refunded', refund_ledger_id = v_ledger, refunded_at = p_now
  WHERE id = p_consumption;
  PERFORM credit_expire_due_org(v_org, p_now);
  SELECT oc.balance INTO v_balance FROM org_credits oc WHERE oc.org_id = v_org;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_amount;
END
$$;--> statement-breakpoint

-- bring_data (issue #22 item 2): what is left in p_from's wallet moves to p_to's, in the name
-- of p_user: the lots of p_from are emptied and p_to gets one lot per expiry date (so allowance
-- credits still expire when they would have), with an 'org_transfer' ledger row on each side
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
    SELECT e.expires_at, sum(e.amount)::integer AS amount
    FROM (SELECT l.expires_at, (x->>'amount')::integer AS amount
          FROM jsonb_array_elements(v_out) x JOIN credit_lots l ON l.id = (x->>'lot_id')::uuid) e
    GROUP BY e.expires_at ORDER BY e.expires_at NULLS LAST
  LOOP
    INSERT INTO credit_lots (org_id, user_id, kind, granted, remaining, expires_at, source_type, source_id, created_at)
    VALUES (p_to, p_user, 'org_transfer', v_lot.amount, v_lot.amount, v_lot.expires_at, 'org_move', v_move, p_now)
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
$$;
--> statement-breakpoint

-- 0024's personal organisation of a new account, unless the statement that inserted it made
-- one (a sign-in statement makes it with the trial); its id the account's id when free (always,
-- for a new account), as a sign-in statement's is: a sign-up opens the wallet (org_credits) and
-- writes the registration grant before this AFTER trigger runs, naming the organisation so.
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
  INSERT INTO orgs (id, name, plan, plan_expires_at, trial_ends_at, created_at, updated_at)
  VALUES (v_org,
    coalesce(nullif(btrim(NEW.company), ''), nullif(btrim(NEW.name), ''),
             nullif(split_part(NEW.email, '@', 1), ''), 'My company'),
    NEW.plan, NEW.plan_expires_at, NEW.trial_ends_at, NEW.created_at, NEW.created_at);
  INSERT INTO org_members (user_id, org_id, role, joined_at) VALUES (NEW.id, v_org, 'owner', NEW.created_at);
  RETURN NULL;
END
$$;
