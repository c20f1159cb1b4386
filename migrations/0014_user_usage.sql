CREATE TABLE "user_usage" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_usage_customers_non_negative" CHECK ("user_usage"."customers" >= 0)
);
--> statement-breakpoint
ALTER TABLE "user_usage" ADD CONSTRAINT "user_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Customers kept, counted per user. Each insert statement adds its rows to the user's
-- user_usage row and checks the total against the plan in the same step: the row's lock queues
-- concurrent inserts of one user, and each sees the total the previous one committed, so two
-- inserts can never both take the last free slot. O(1) whatever the user holds (the count(*)
-- of 0013 read every customer of the user on each insert). Raises PL001 as before.
CREATE OR REPLACE FUNCTION enforce_customers_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_total integer;
  v_limit integer;
BEGIN
  FOR r IN SELECT user_id, count(*)::int AS n FROM new_rows GROUP BY user_id ORDER BY user_id LOOP
    INSERT INTO user_usage AS uu (user_id, customers) VALUES (r.user_id, r.n)
    ON CONFLICT (user_id) DO UPDATE SET customers = uu.customers + excluded.customers
    RETURNING customers INTO v_total;
    v_limit := plan_limit(r.user_id, 'customers');
    IF v_limit IS NOT NULL AND v_total > v_limit THEN
      RAISE EXCEPTION 'plan limit reached: customers'
        USING ERRCODE = 'PL001',
              DETAIL = json_build_object('limit', 'customers', 'max', v_limit)::text;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_deleted_customers() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT user_id, count(*)::int AS n FROM old_rows GROUP BY user_id ORDER BY user_id LOOP
    UPDATE user_usage SET customers = greatest(customers - r.n, 0) WHERE user_id = r.user_id;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customers_count_deleted
  AFTER DELETE ON customers
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_customers();
--> statement-breakpoint
-- A customer that changes hands (a guest's rows moving to the account it signs into).
CREATE OR REPLACE FUNCTION count_moved_customer() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_usage SET customers = greatest(customers - 1, 0) WHERE user_id = OLD.user_id;
  INSERT INTO user_usage AS uu (user_id, customers) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET customers = uu.customers + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customers_count_moved
  AFTER UPDATE OF user_id ON customers
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION count_moved_customer();
--> statement-breakpoint
INSERT INTO user_usage (user_id, customers)
SELECT user_id, count(*)::int FROM customers GROUP BY user_id
ON CONFLICT (user_id) DO UPDATE SET customers = excluded.customers;
