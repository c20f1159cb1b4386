ALTER TABLE "subscriptions" ADD COLUMN "allowance_due_at" timestamp with time zone DEFAULT '-infinity' NOT NULL;--> statement-breakpoint
-- ADR 0122: allowance_due_at is never later than the subscription's next ungranted month. A
-- change that can bring a month back (the period starts elsewhere or ends later, the row is
-- uncancelled, its allowance grows) puts it back to '-infinity': the next run looks again.
CREATE OR REPLACE FUNCTION subscriptions_allowance_due_reset() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.starts_at IS DISTINCT FROM OLD.starts_at OR NEW.ends_at > OLD.ends_at
     OR (OLD.cancelled_at IS NOT NULL AND NEW.cancelled_at IS NULL)
     OR NEW.monthly_credits > OLD.monthly_credits THEN
    NEW.allowance_due_at := '-infinity';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER subscriptions_allowance_due_reset
  BEFORE UPDATE OF starts_at, ends_at, cancelled_at, monthly_credits ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION subscriptions_allowance_due_reset();
