CREATE TABLE "discovery_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"product" text NOT NULL,
	"market" text NOT NULL,
	"max_companies" integer,
	"consumption_id" uuid,
	"credits_charged" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"progress" jsonb NOT NULL,
	"result" jsonb,
	"record_id" uuid,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discovery_jobs_status_check" CHECK ("discovery_jobs"."status" in ('queued', 'running', 'succeeded', 'failed')),
	CONSTRAINT "discovery_jobs_max_companies_check" CHECK ("discovery_jobs"."max_companies" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "agent_pipelines" DROP CONSTRAINT "agent_pipelines_status_check";--> statement-breakpoint
ALTER TABLE "discovery_jobs" ADD CONSTRAINT "discovery_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_jobs" ADD CONSTRAINT "discovery_jobs_record_id_discovery_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."discovery_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discovery_jobs_user_created_idx" ON "discovery_jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "discovery_jobs_open_idx" ON "discovery_jobs" USING btree ("created_at") WHERE "discovery_jobs"."status" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD CONSTRAINT "agent_pipelines_status_check" CHECK ("agent_pipelines"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled'));--> statement-breakpoint
-- Gives back part of a consumption (a cancelled agent run's unused stages), once: the same
-- rules as credit_refund (the balance row locked first; one 'refund' ledger row per
-- consumption, so a later full refund of it changes nothing). The amount, capped at the cost,
-- goes back to the lots it was spent from, in the order they were spent. An amount of 0 or less
-- writes nothing and leaves the consumption charged.
CREATE OR REPLACE FUNCTION credit_refund_part(
  p_consumption uuid, p_amount integer, p_note text, p_now timestamptz)
RETURNS TABLE (applied boolean, balance integer, ledger_id uuid, amount integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
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
  SELECT c.user_id INTO v_user FROM credit_consumptions c WHERE c.id = p_consumption;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, NULL::integer, NULL::uuid, 0;
    RETURN;
  END IF;
  SELECT uc.balance INTO v_balance FROM user_credits uc WHERE uc.user_id = v_user FOR UPDATE;
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
  UPDATE user_credits SET balance = v_balance, updated_at = p_now WHERE user_id = v_user;
  INSERT INTO credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, operation, lots, note, created_at)
  VALUES (v_user, v_amount, v_balance, 'refund', 'consumption', p_consumption::text, v_operation, v_restored, p_note, p_now)
  RETURNING id INTO v_ledger;
  UPDATE credit_consumptions SET status = 'refunded', refund_ledger_id = v_ledger, refunded_at = p_now
  WHERE id = p_consumption;
  -- A refunded allowance lot that has meanwhile expired goes straight back out, with its row.
  PERFORM credit_expire_due(v_user, p_now);
  SELECT uc.balance INTO v_balance FROM user_credits uc WHERE uc.user_id = v_user;
  RETURN QUERY SELECT true, v_balance, v_ledger, v_amount;
END
$$;
