ALTER TABLE "customers" ADD COLUMN "held_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "customers_pool_recycle_idx" ON "customers" USING btree ("org_id",greatest(coalesce("last_contact_at", "created_at"), "held_since"),"id") WHERE "customers"."user_id" is not null;--> statement-breakpoint
-- Every customer insert, whatever the path (create, import, assistant, agent, guest merge), writes
-- its `create` event: one statement-level trigger over the inserted rows (a 5,000-row import is
-- one insert into the history, not 5,000).
CREATE OR REPLACE FUNCTION customer_create_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_ownership_events (org_id, customer_id, from_user_id, to_user_id, action, actor_id, at)
  SELECT n.org_id, n.id, NULL, n.user_id, 'create', n.user_id, n.created_at FROM inserted_customers n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER customers_create_event AFTER INSERT ON customers
REFERENCING NEW TABLE AS inserted_customers
FOR EACH STATEMENT EXECUTE FUNCTION customer_create_events();--> statement-breakpoint
-- The customers from before the history: their `create` event at their creation, held by whoever
-- holds them now (who created them, before company workspaces).
INSERT INTO customer_ownership_events (org_id, customer_id, from_user_id, to_user_id, action, actor_id, at)
SELECT c.org_id, c.id, NULL, c.user_id, 'create', c.user_id, c.created_at FROM customers c
WHERE NOT EXISTS (
  SELECT 1 FROM customer_ownership_events e WHERE e.customer_id = c.id AND e.action = 'create'
);
