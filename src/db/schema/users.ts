import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, tstz, updatedAt } from "./columns";

export const USER_ROLES = ["user", "admin"] as const;
export const USER_STATUSES = ["active", "disabled"] as const;

export const users = pgTable(
  "users",
  {
    id: id(),
    /** Stored lower-cased; null for guests and WeChat-only accounts. */
    email: text("email"),
    passwordHash: text("password_hash"),
    name: text("name"),
    company: text("company"),
    phone: text("phone"),
    country: text("country"),
    language: text("language"),
    role: text("role", { enum: USER_ROLES }).notNull().default("user"),
    status: text("status", { enum: USER_STATUSES }).notNull().default("active"),
    isGuest: boolean("is_guest").notNull().default(false),
    wechatOpenid: text("wechat_openid"),
    wechatUnionid: text("wechat_unionid"),
    /** Plan code; the trial gives the paid tier until trial_ends_at. */
    plan: text("plan").notNull().default("free"),
    planExpiresAt: tstz("plan_expires_at"),
    trialEndsAt: tstz("trial_ends_at"),
    referralCode: text("referral_code").notNull(),
    referredBy: uuid("referred_by").references((): AnyPgColumn => users.id, {
      onDelete: "set null",
    }),
    lastLoginAt: tstz("last_login_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    uniqueIndex("users_wechat_openid_key").on(t.wechatOpenid),
    uniqueIndex("users_referral_code_key").on(t.referralCode),
    index("users_referred_by_idx").on(t.referredBy),
    index("users_created_at_idx").on(t.createdAt),
    check("users_email_lower", sql`${t.email} = lower(${t.email})`),
  ],
);

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** One family per login; rotation keeps the family, reuse of a rotated token revokes it. */
    familyId: uuid("family_id").notNull(),
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    rotatedAt: tstz("rotated_at"),
    revokedAt: tstz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_token_hash_key").on(t.tokenHash),
    index("refresh_tokens_family_idx").on(t.familyId),
    index("refresh_tokens_user_idx").on(t.userId),
  ],
);

export type User = typeof users.$inferSelect;
