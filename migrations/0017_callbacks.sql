CREATE TABLE "qstash_deliveries" (
	"jti" text PRIMARY KEY NOT NULL,
	"message_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wechat_webhook_nonces" (
	"nonce" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"message_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wechat_webhook_nonces_nonce_timestamp_pk" PRIMARY KEY("nonce","timestamp")
);
--> statement-breakpoint
CREATE INDEX "qstash_deliveries_expires_idx" ON "qstash_deliveries" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "wechat_webhook_nonces_expires_idx" ON "wechat_webhook_nonces" USING btree ("expires_at");