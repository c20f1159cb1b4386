import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, tstz } from "./columns";
import { creditConsumptions } from "./credits";
import { orgs } from "./orgs";
import { users } from "./users";

/**
 * A price given before a billable operation runs (issue #24, ADR 0108): POST /credits/quote
 * prices `operation` at `credits` for the member `user_id` until `expires_at`; the route called
 * with its id charges exactly that, once. `used_at` and `consumption_id` are set by the very
 * statement that charges it (credits/queries/balance.ts); a refunded consumption gives the
 * quote back for the retry.
 */
export const creditQuotes = pgTable(
  "credit_quotes",
  {
    id: id(),
    /** The wallet it was priced against (the member's organisation at the time). */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** The member it was given to: nobody else may charge with it. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    credits: integer("credits").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    consumptionId: uuid("consumption_id").references(() => creditConsumptions.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_quotes_user_idx").on(t.userId),
    index("credit_quotes_expires_idx").on(t.expiresAt),
    check("credit_quotes_credits_check", sql`${t.credits} >= 0`),
  ],
);
