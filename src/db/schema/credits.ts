import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

export const LEDGER_KINDS = [
  "registration_grant",
  "referral",
  "purchase",
  "plan_allowance",
  "consumption",
  "refund",
  "expiry",
  "admin_adjustment",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const userCredits = pgTable(
  "user_credits",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    balance: integer("balance").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("user_credits_balance_non_negative", sql`${t.balance} >= 0`)],
);

/** Every change of a balance writes one row here; the balance always equals the sum of delta. */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    /** What caused it: user (registration), order, operation, admin. */
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id"),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_ledger_user_created_idx").on(t.userId, t.createdAt),
    check("credit_ledger_balance_after_non_negative", sql`${t.balanceAfter} >= 0`),
  ],
);
