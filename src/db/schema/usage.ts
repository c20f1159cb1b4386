import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

export const usageLogs = pgTable(
  "usage_logs",
  {
    id: id(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** register, login, guest_login, wechat_login, and billable operations. */
    event: text("event").notNull(),
    ip: text("ip"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("usage_logs_user_created_idx").on(t.userId, t.createdAt),
    index("usage_logs_created_idx").on(t.createdAt),
  ],
);
