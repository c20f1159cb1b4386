CREATE TABLE "credit_holds" (
	"consumption_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"instance_id" text NOT NULL,
	"idempotency_key" text,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "instance_id" text;--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD COLUMN "instance_id" text;--> statement-breakpoint
ALTER TABLE "agent_pipelines" ADD COLUMN "checkpoint" jsonb;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_consumption_id_credit_consumptions_id_fk" FOREIGN KEY ("consumption_id") REFERENCES "public"."credit_consumptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_holds_heartbeat_idx" ON "credit_holds" USING btree ("heartbeat_at");--> statement-breakpoint
CREATE INDEX "credit_holds_instance_idx" ON "credit_holds" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "credit_holds_user_key_idx" ON "credit_holds" USING btree ("user_id","idempotency_key") WHERE "credit_holds"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "idempotency_keys_in_flight_idx" ON "idempotency_keys" USING btree ("instance_id") WHERE "idempotency_keys"."status" = 'in_flight';