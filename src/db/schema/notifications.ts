import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, tstz } from "./columns";
import { users } from "./users";

export const PUSH_STATES = ["pending", "sending", "sent", "failed", "skipped"] as const;
export type PushState = (typeof PUSH_STATES)[number];

export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** trial_ended, subscription_ended, payment_succeeded, certification_approved, ... */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>(),
    /** Dedupe key: one notification per (user, dedupe_key), e.g. one per episode. */
    dedupeKey: text("dedupe_key"),
    isRead: boolean("is_read").notNull().default(false),
    readAt: tstz("read_at"),
    createdAt: createdAt(),
    /**
     * Push through the user's messaging channel (WeChat): pending -> sending (claimed until
     * push_claimed_until) -> sent | failed (attempts used up) | skipped (no channel). Rows that
     * existed before pushing shipped were marked skipped by the migration.
     */
    pushState: text("push_state", { enum: PUSH_STATES }).notNull().default("pending"),
    pushAttempts: integer("push_attempts").notNull().default(0),
    pushClaimedUntil: tstz("push_claimed_until"),
    pushedAt: tstz("pushed_at"),
    pushError: text("push_error"),
  },
  (t) => [
    index("notifications_user_read_created_idx").on(t.userId, t.isRead, t.createdAt),
    uniqueIndex("notifications_user_dedupe_key").on(t.userId, t.dedupeKey),
    index("notifications_push_due_idx")
      .on(t.createdAt)
      .where(sql`${t.pushState} in ('pending', 'sending')`),
    check(
      "notifications_push_state_check",
      sql`${t.pushState} in ('pending', 'sending', 'sent', 'failed', 'skipped')`,
    ),
  ],
);
