CREATE TABLE "wechat_inbound_messages" (
	"msg_id" text PRIMARY KEY NOT NULL,
	"openid" text NOT NULL,
	"user_id" uuid,
	"content" text NOT NULL,
	"reply" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "wechat_inbound_messages" ADD CONSTRAINT "wechat_inbound_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wechat_inbound_messages_created_idx" ON "wechat_inbound_messages" USING btree ("created_at");