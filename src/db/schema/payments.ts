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
import { createdAt, id, tstz, updatedAt } from "./columns";
import { creditPackages, subscriptionPlans } from "./credits";
import { orgs } from "./orgs";
import { users } from "./users";

export const PAY_TYPES = ["alipay", "wxpay", "card"] as const;
export type PayType = (typeof PAY_TYPES)[number];
export const ORDER_STATUSES = [
  "pending",
  "paid",
  "expired",
  "cancelled",
  "refunded",
  "partially_refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One per order (spec: "a transaction is created per order"), for credits and subscriptions. */
export const paymentTransactions = pgTable(
  "payment_transactions",
  {
    id: id(),
    /** Unguessable, also the gateway's out_trade_no. */
    orderNo: text("order_no").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /**
     * The organisation the order pays for, the payer's when it was created (issue #22; filled by
     * a trigger): fulfilment, allowances and refunds act on it wherever the payer is now.
     */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: ["credits", "subscription"] }).notNull(),
    packageId: uuid("package_id").references(() => creditPackages.id),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    planCode: text("plan_code"),
    billingCycle: text("billing_cycle", { enum: ["monthly", "yearly"] }),
    /** What was bought, copied at order time so later catalogue edits do not change it. */
    credits: integer("credits"),
    subject: text("subject").notNull(),
    payType: text("pay_type", { enum: PAY_TYPES }).notNull(),
    provider: text("provider", { enum: ["gateway", "sandbox", "stripe"] }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    providerTradeNo: text("provider_trade_no"),
    payUrl: text("pay_url"),
    expiresAt: tstz("expires_at").notNull(),
    paidAt: tstz("paid_at"),
    /** Paid after the order had expired: honoured anyway, the buyer's money was taken. */
    paidLate: boolean("paid_late").notNull().default(false),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payment_transactions_order_no_key").on(t.orderNo),
    index("payment_transactions_user_created_idx").on(t.userId, t.createdAt),
    index("payment_transactions_org_created_idx").on(t.orgId, t.createdAt),
    index("payment_transactions_status_created_idx").on(t.status, t.createdAt),
    index("payment_transactions_pay_type_created_idx").on(t.payType, t.createdAt),
    index("payment_transactions_created_idx").on(t.createdAt),
    // (expiry, id): the scheduled expiry resumes after its last order (a scan from the start
    // re-read every order a previous batch expired: their index entries outlive them).
    index("payment_transactions_pending_expiry_id_idx")
      .on(t.expiresAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    check("payment_transactions_amount_positive", sql`${t.amount} > 0`),
    check(
      "payment_transactions_refund_range",
      sql`${t.refundedAmount} >= 0 and ${t.refundedAmount} <= ${t.amount}`,
    ),
  ],
);

/** Spec table: the credit-purchase side of an order. */
export const creditPurchases = pgTable(
  "credit_purchases",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    orderNo: text("order_no")
      .notNull()
      .references(() => paymentTransactions.orderNo),
    packageId: uuid("package_id").references(() => creditPackages.id),
    credits: integer("credits").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    paidAt: tstz("paid_at"),
  },
  (t) => [
    uniqueIndex("credit_purchases_order_no_key").on(t.orderNo),
    index("credit_purchases_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/** Paid subscription periods; a monthly allowance lot is granted for each month. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: id(),
    /** The member who paid (or was rewarded). */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The organisation whose plan this row runs: its order's (issue #22; filled by a trigger). */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    planCode: text("plan_code").notNull(),
    billingCycle: text("billing_cycle", { enum: ["monthly", "yearly", "referral"] }).notNull(),
    orderNo: text("order_no"),
    monthlyCredits: integer("monthly_credits").notNull().default(0),
    startsAt: tstz("starts_at").notNull(),
    endsAt: tstz("ends_at").notNull(),
    cancelledAt: tstz("cancelled_at"),
    /** The holder asked not to renew: the plan runs to ends_at, then the downgrade applies. */
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    cancelRequestedAt: tstz("cancel_requested_at"),
    /**
     * When the monthly allowance task next has to look at this subscription (ADR 0122): never
     * later than its next ungranted month's start. '-infinity' (a new row, or one whose period
     * moved: trigger subscriptions_allowance_due_reset) means at the next run; the task moves it
     * to the next month's start, or 'infinity' once the period has no month left.
     */
    allowanceDueAt: tstz("allowance_due_at").notNull().default(sql`'-infinity'`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subscriptions_order_no_key").on(t.orderNo),
    // The allowance task's walk: what is due, not every running subscription.
    index("subscriptions_allowance_due_idx")
      .on(t.allowanceDueAt, t.id)
      .where(sql`${t.cancelledAt} is null and ${t.monthlyCredits} > 0`),
    index("subscriptions_user_ends_idx").on(t.userId, t.endsAt),
    index("subscriptions_org_ends_idx").on(t.orgId, t.endsAt),
    index("subscriptions_active_idx").on(t.endsAt).where(sql`${t.cancelledAt} is null`),
  ],
);

/** Every callback or webhook delivery; (provider, event_id) makes a repeat a no-op. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: id(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    orderNo: text("order_no"),
    type: text("type").notNull(),
    /** applied, duplicate, amount_mismatch, unknown_order, ignored. */
    result: text("result").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_events_provider_event_key").on(t.provider, t.eventId),
    index("payment_events_order_idx").on(t.orderNo),
  ],
);

/** Callback nonces seen within the timestamp tolerance: a replay is refused. */
export const paymentNonces = pgTable(
  "payment_nonces",
  {
    nonce: text("nonce").primaryKey(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("payment_nonces_expires_idx").on(t.expiresAt)],
);

export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: id(),
    orderNo: text("order_no")
      .notNull()
      .references(() => paymentTransactions.orderNo),
    refundNo: text("refund_no").notNull(),
    amount: integer("amount").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    reason: text("reason").notNull(),
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    /** Credits taken back from the buyer's balance with the refund. */
    creditsReversed: integer("credits_reversed").notNull().default(0),
    createdAt: createdAt(),
    completedAt: tstz("completed_at"),
  },
  (t) => [
    uniqueIndex("payment_refunds_refund_no_key").on(t.refundNo),
    index("payment_refunds_order_idx").on(t.orderNo),
    index("payment_refunds_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    check("payment_refunds_amount_positive", sql`${t.amount} > 0`),
  ],
);
