import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * Nonces of signed WeChat webhook requests, kept for the timestamp window. In plaintext mode the
 * signature covers only token, timestamp and nonce, never the body, so the first message seen
 * under a (timestamp, nonce) is the one bound to it: the same message again is WeChat's retry,
 * any other message is a forgery riding a captured signature.
 */
export const wechatWebhookNonces = pgTable(
  "wechat_webhook_nonces",
  {
    nonce: text("nonce").notNull(),
    timestamp: bigint("timestamp", { mode: "number" }).notNull(),
    /** SHA-256 (hex) of the message the nonce was first used with. */
    messageHash: text("message_hash").notNull(),
    /** timestamp + the window: past it the timestamp check alone refuses the request. */
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.nonce, t.timestamp] }),
    index("wechat_webhook_nonces_expires_idx").on(t.expiresAt),
  ],
);

/**
 * QStash deliveries already run, by the `jti` of their verified Upstash-Signature: each delivery
 * attempt carries a JWT of its own, so a replay of a captured one is a no-op while QStash's retry
 * of a failed attempt (a new JWT) still runs. Kept until the JWT expires.
 */
export const qstashDeliveries = pgTable(
  "qstash_deliveries",
  {
    jti: text("jti").primaryKey(),
    /** Upstash-Message-Id as delivered (not signed: for the log only). */
    messageId: text("message_id"),
    expiresAt: tstz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("qstash_deliveries_expires_idx").on(t.expiresAt)],
);
