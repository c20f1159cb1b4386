-- Rows that change hands count against the receiving account's plan like new ones: a guest's
-- customers brought into a free account by a login with the guest's token may not take it past
-- its limit (PL001, answered 403, and the login that moved them is undone).
CREATE OR REPLACE FUNCTION count_moved_customer() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_total integer;
  v_limit integer;
BEGIN
  UPDATE user_usage SET customers = greatest(customers - 1, 0) WHERE user_id = OLD.user_id;
  INSERT INTO user_usage AS uu (user_id, customers) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET customers = uu.customers + 1
  RETURNING customers INTO v_total;
  v_limit := plan_limit(NEW.user_id, 'customers');
  IF v_limit IS NOT NULL AND v_total > v_limit THEN
    RAISE EXCEPTION 'plan limit reached: customers'
      USING ERRCODE = 'PL001',
            DETAIL = json_build_object('limit', 'customers', 'max', v_limit)::text;
  END IF;
  RETURN NULL;
END $$;
