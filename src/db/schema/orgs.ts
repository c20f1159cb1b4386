import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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
import { users } from "./users";

/** owner (one; billing, ownership transfer) > admin (members, settings) > manager (all data) > member. */
export const ORG_ROLES = ["owner", "admin", "manager", "member"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/**
 * A company workspace (issue #22, docs/teams.md): the plan, the trial, the credit wallet and
 * every work record belong to it. Registering (or a guest) creates a personal one.
 */
export const orgs = pgTable(
  "orgs",
  {
    id: id(),
    name: text("name").notNull(),
    /** Plan code; the trial gives the paid tier until trial_ends_at (moved here from users). */
    plan: text("plan").notNull().default("free"),
    planExpiresAt: tstz("plan_expires_at"),
    trialEndsAt: tstz("trial_ends_at"),
    /** Pool rules and other organisation settings (docs/teams.md), validated on write. */
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("orgs_created_at_idx").on(t.createdAt),
    // The hourly downgrade's due organisations (plan ended, still paid), soonest ended first.
    index("orgs_paid_plan_expiry_idx").on(t.planExpiresAt, t.id).where(sql`${t.plan} <> 'free'`),
  ],
);

/**
 * What an organisation holds of each counted plan quota, kept by triggers on the counted tables
 * (migration 0025, after user_usage of 0014): the quota check and `/me` read one row instead of
 * counting an organisation's customers on every request. Customers count wherever they are in
 * the organisation (held by a member or in the pool).
 */
export const orgUsage = pgTable(
  "org_usage",
  {
    orgId: uuid("org_id")
      .primaryKey()
      .references((): AnyPgColumn => orgs.id, { onDelete: "cascade" }),
    customers: integer("customers").notNull().default(0),
  },
  (t) => [check("org_usage_customers_non_negative", sql`${t.customers} >= 0`)],
);

/**
 * The seller block every document of the organisation prints (GET/PUT
 * /api/v1/org/document-settings, ADR 0106): its own table, so the logo (up to 512 KB, kept as
 * base64) is read by the documents alone, never with the organisation's row.
 */
export const orgDocumentSettings = pgTable(
  "org_document_settings",
  {
    orgId: uuid("org_id")
      .primaryKey()
      .references((): AnyPgColumn => orgs.id, { onDelete: "cascade" }),
    legalName: text("legal_name"),
    address: text("address"),
    phone: text("phone"),
    email: text("email"),
    website: text("website"),
    /** The image's bytes as base64 (checked PNG or JPEG on write), and its media type. */
    logo: text("logo"),
    logoType: text("logo_type"),
    bankDetails: text("bank_details"),
    paymentTerms: text("payment_terms"),
    validityDays: integer("validity_days"),
    footer: text("footer"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "org_document_settings_logo_type_check",
      sql`${t.logoType} in ('image/png', 'image/jpeg')`,
    ),
    check("org_document_settings_validity_days_check", sql`${t.validityDays} between 1 and 3650`),
  ],
);

/** Every account belongs to exactly one organisation at a time: user_id is the key. */
export const orgMembers = pgTable(
  "org_members",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    orgId: uuid("org_id")
      .notNull()
      .references((): AnyPgColumn => orgs.id, { onDelete: "cascade" }),
    role: text("role", { enum: ORG_ROLES }).notNull(),
    /** Credits the member may spend per calendar month (UTC) of the wallet; null: no limit. */
    monthlyCreditLimit: integer("monthly_credit_limit"),
    joinedAt: tstz("joined_at").notNull().defaultNow(),
  },
  (t) => [
    index("org_members_org_role_idx").on(t.orgId, t.role),
    // At most one owner per organisation: a transfer swaps roles in one statement.
    uniqueIndex("org_members_one_owner_key").on(t.orgId).where(sql`${t.role} = 'owner'`),
    check("org_members_role_check", sql`${t.role} in ('owner', 'admin', 'manager', 'member')`),
    check("org_members_limit_non_negative", sql`${t.monthlyCreditLimit} >= 0`),
  ],
);

/** An invitation by e-mail: single use (the token's SHA-256 is stored), expiring, revocable. */
export const orgInvitations = pgTable(
  "org_invitations",
  {
    id: id(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** Stored lower-cased: the accepting account's verified address must be this one. */
    email: text("email").notNull(),
    role: text("role", { enum: ORG_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: tstz("expires_at").notNull(),
    acceptedAt: tstz("accepted_at"),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: tstz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("org_invitations_token_hash_key").on(t.tokenHash),
    index("org_invitations_org_created_idx").on(t.orgId, t.createdAt),
    check("org_invitations_role_check", sql`${t.role} in ('admin', 'manager', 'member')`),
    check("org_invitations_email_lower", sql`${t.email} = lower(${t.email})`),
  ],
);

export const OWNERSHIP_ACTIONS = [
  "create",
  "claim",
  "release",
  "transfer",
  "recycle",
  "member_removed",
] as const;
export type OwnershipAction = (typeof OWNERSHIP_ACTIONS)[number];

/** Who held a customer when: one row per change of customers.user_id (null: the pool). */
export const customerOwnershipEvents = pgTable(
  "customer_ownership_events",
  {
    id: id(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** No foreign key to customers: the history outlives a deleted customer's row. */
    customerId: uuid("customer_id").notNull(),
    fromUserId: uuid("from_user_id").references(() => users.id, { onDelete: "set null" }),
    toUserId: uuid("to_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: OWNERSHIP_ACTIONS }).notNull(),
    reason: text("reason"),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    at: tstz("at").notNull().defaultNow(),
  },
  (t) => [
    index("customer_ownership_customer_at_idx").on(t.customerId, t.at),
    // The claim caps and the reclaim cooldown read a member's claims and releases by time.
    index("customer_ownership_org_actor_at_idx").on(t.orgId, t.actorId, t.action, t.at),
    check(
      "customer_ownership_action_check",
      sql`${t.action} in ('create', 'claim', 'release', 'transfer', 'recycle', 'member_removed')`,
    ),
  ],
);
