import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, tstz, updatedAt } from "./columns";
import { orgs } from "./orgs";
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
  "org_transfer",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The wallet of an organisation (ADR 0098): every member spends it. Every change goes through
 * the credit_* SQL functions with a ledger row naming the member; its row lock serialises them.
 */
export const orgCredits = pgTable(
  "org_credits",
  {
    orgId: uuid("org_id")
      .primaryKey()
      .references(() => orgs.id, { onDelete: "cascade" }),
    balance: integer("balance").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("org_credits_balance_non_negative", sql`${t.balance} >= 0`)],
);

/**
 * A view (migration 0026): each member's row of their organisation's wallet, so every reader of
 * "the balance this user spends" (the /me statement, admin user views) reads the organisation's.
 * Written only through org_credits.
 */
export const userCredits = pgView("user_credits", {
  userId: uuid("user_id").notNull(),
  orgId: uuid("org_id").notNull(),
  balance: integer("balance").notNull(),
  updatedAt: tstz("updated_at").notNull(),
}).existing();

/**
 * Where credits came from and how many of them are left. A charge spends the lots that expire
 * soonest first; registration, purchase and referral lots never expire, plan allowances do.
 */
export const creditLots = pgTable(
  "credit_lots",
  {
    id: id(),
    /** The wallet the lot is in. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** The member it was granted to (bought, allowance, adjustment, moved in). */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    granted: integer("granted").notNull(),
    remaining: integer("remaining").notNull(),
    expiresAt: tstz("expires_at"),
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_lots_user_open_idx").on(t.userId, t.expiresAt).where(sql`${t.remaining} > 0`),
    index("credit_lots_org_open_idx").on(t.orgId, t.expiresAt).where(sql`${t.remaining} > 0`),
    // (expiry, id): the hourly write-off resumes after its last lot; on expiry alone every batch
    // read and sorted all the due lots sharing a time to find its next ones (ADR 0122).
    index("credit_lots_expiring_id_idx")
      .on(t.expiresAt, t.id)
      .where(sql`${t.remaining} > 0 and ${t.expiresAt} is not null`),
    check(
      "credit_lots_remaining_range",
      sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.granted}`,
    ),
  ],
);

/** Every change of a balance writes one row here; the balance always equals the sum of delta. */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: id(),
    /** The wallet changed: its balance is the sum of its rows' delta. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** The member who spent, bought, was granted or moved the credits. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    /** What caused it: user (registration), order, consumption, lot (expiry), admin. */
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id"),
    /** The billable operation for consumptions and their refunds (translate, chat, ...). */
    operation: text("operation"),
    /** The admin who made an adjustment. */
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** Lots a charge spent from or a refund restored: [{lot_id, amount}]. */
    lots: jsonb("lots").$type<{ lot_id: string; amount: number }[]>(),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_ledger_user_created_idx").on(t.userId, t.createdAt),
    index("credit_ledger_org_created_idx").on(t.orgId, t.createdAt),
    index("credit_ledger_kind_created_idx").on(t.kind, t.createdAt),
    // The admin stats' day range over all kinds.
    index("credit_ledger_created_idx").on(t.createdAt),
    // A source grants, refunds or expires at most once, whatever the retries.
    uniqueIndex("credit_ledger_source_once_key")
      .on(t.kind, t.sourceType, t.sourceId)
      .where(sql`${t.kind} not in ('consumption', 'admin_adjustment', 'expiry')`),
    check("credit_ledger_balance_after_non_negative", sql`${t.balanceAfter} >= 0`),
  ],
);

/** One row per deduction (spec: credit_consumptions), refunded at most once. */
export const creditConsumptions = pgTable(
  "credit_consumptions",
  {
    id: id(),
    /** The wallet charged; a refund goes back to it whichever organisation the member is in. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** The member charged: their month's use is what their monthly_credit_limit caps. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    cost: integer("cost").notNull(),
    status: text("status", { enum: ["charged", "refunded"] })
      .notNull()
      .default("charged"),
    ledgerId: uuid("ledger_id")
      .notNull()
      .references(() => creditLedger.id),
    refundLedgerId: uuid("refund_ledger_id").references(() => creditLedger.id),
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
    refundedAt: tstz("refunded_at"),
  },
  (t) => [
    index("credit_consumptions_user_created_idx").on(t.userId, t.createdAt),
    index("credit_consumptions_operation_created_idx").on(t.operation, t.createdAt),
    check("credit_consumptions_cost_positive", sql`${t.cost} > 0`),
  ],
);

/**
 * A charge whose work has not answered yet (issue #10, crash-safe billing): the instance doing
 * the work renews `heartbeat_at` while it runs and deletes the row when the work answers; the
 * work failing, the instance restarting, or the heartbeat stopping for HOLD_STALE_MS refunds
 * the consumption in the statement that deletes the hold, so it happens once.
 */
export const creditHolds = pgTable(
  "credit_holds",
  {
    consumptionId: uuid("consumption_id")
      .primaryKey()
      .references(() => creditConsumptions.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The instance doing the work (config INSTANCE_ID): it refunds its own holds at start-up. */
    instanceId: text("instance_id").notNull(),
    /** The request's Idempotency-Key: a retry taking over the key refunds the orphaned hold. */
    idempotencyKey: text("idempotency_key"),
    heartbeatAt: tstz("heartbeat_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_holds_heartbeat_idx").on(t.heartbeatAt),
    index("credit_holds_instance_idx").on(t.instanceId),
    index("credit_holds_user_key_idx")
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
  ],
);

/** Client Idempotency-Key per user (IETF draft): the first outcome is replayed for 24 h. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: text("status", { enum: ["in_flight", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    /** While in flight: the instance running the request, which renews the short lease. */
    instanceId: text("instance_id"),
    createdAt: createdAt(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
    // What an instance left in flight, freed when it restarts.
    index("idempotency_keys_in_flight_idx").on(t.instanceId).where(sql`${t.status} = 'in_flight'`),
  ],
);

export const creditPackages = pgTable(
  "credit_packages",
  {
    id: id(),
    name: text("name").notNull(),
    credits: integer("credits").notNull(),
    /** Minor units of `currency`. */
    price: integer("price").notNull(),
    currency: text("currency").notNull().default("CNY"),
    active: boolean("active").notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("credit_packages_credits_positive", sql`${t.credits} > 0`),
    check("credit_packages_price_non_negative", sql`${t.price} >= 0`),
  ],
);

/** The quotas a plan may set; a missing key is unlimited. */
export interface PlanLimits {
  customers?: number;
  agent_runs_per_month?: number;
}

export const subscriptionPlans = pgTable(
  "subscription_plans",
  {
    id: id(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    currency: text("currency").notNull().default("CNY"),
    /** Minor units; the yearly price is derived from it and `plans.yearly_discount`. */
    monthlyPrice: integer("monthly_price").notNull(),
    /** Allowance granted each month of a paid subscription; expires at the period's end. */
    monthlyCredits: integer("monthly_credits").notNull(),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    /**
     * Quotas that come with the plan, enforced in SQL (migration 0013): `customers` kept at
     * once, `agent_runs_per_month`. A missing key means unlimited.
     */
    limits: jsonb("limits").$type<PlanLimits>().notNull().default({}),
    /** 0 = free; higher tiers include lower ones. */
    tier: integer("tier").notNull().default(0),
    active: boolean("active").notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("subscription_plans_code_key").on(t.code),
    check("subscription_plans_price_non_negative", sql`${t.monthlyPrice} >= 0`),
    check("subscription_plans_credits_non_negative", sql`${t.monthlyCredits} >= 0`),
  ],
);

/**
 * What a user holds of each counted plan quota, kept by triggers on the counted tables
 * (migration 0014): the quota check and `/me` read one row instead of counting a user's
 * customers (100,000 of them on a big account) on every request.
 */
export const userUsage = pgTable(
  "user_usage",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    customers: integer("customers").notNull().default(0),
  },
  (t) => [check("user_usage_customers_non_negative", sql`${t.customers} >= 0`)],
);
