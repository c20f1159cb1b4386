import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, tstz, updatedAt } from "./columns";
import { paymentTransactions } from "./payments";
import { users } from "./users";

/** One reward per referred user; both parties get `days` of the paid tier. */
export const referralRewards = pgTable(
  "referral_rewards",
  {
    id: id(),
    referrerId: uuid("referrer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    referredId: uuid("referred_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    days: integer("days").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("referral_rewards_referred_key").on(t.referredId),
    index("referral_rewards_referrer_idx").on(t.referrerId, t.createdAt),
    check("referral_rewards_not_self", sql`${t.referrerId} <> ${t.referredId}`),
  ],
);

export const CERTIFICATION_STATUSES = ["pending", "approved", "rejected"] as const;

export const certifications = pgTable(
  "certifications",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    companyName: text("company_name").notNull(),
    licenseNo: text("license_no").notNull(),
    contactName: text("contact_name").notNull(),
    contactPhone: text("contact_phone").notNull(),
    status: text("status", { enum: CERTIFICATION_STATUSES }).notNull().default("pending"),
    rejectReason: text("reject_reason"),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: tstz("reviewed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("certifications_user_key").on(t.userId),
    index("certifications_status_created_idx").on(t.status, t.createdAt),
  ],
);

export const INVOICE_STATUSES = ["requested", "issued"] as const;

export const invoices = pgTable(
  "invoices",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orderNo: text("order_no")
      .notNull()
      .references(() => paymentTransactions.orderNo),
    title: text("title").notNull(),
    taxNumber: text("tax_number").notNull(),
    email: text("email").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("requested"),
    invoiceNumber: text("invoice_number"),
    issuedBy: uuid("issued_by").references(() => users.id, { onDelete: "set null" }),
    issuedAt: tstz("issued_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invoices_order_no_key").on(t.orderNo),
    index("invoices_user_created_idx").on(t.userId, t.createdAt),
    index("invoices_status_created_idx").on(t.status, t.createdAt),
  ],
);
