import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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

export const USER_ROLES = ["user", "admin"] as const;
export const USER_STATUSES = ["active", "disabled"] as const;

export const users = pgTable(
  "users",
  {
    id: id(),
    /** Stored lower-cased; null for guests and WeChat-only accounts. */
    email: text("email"),
    /** When the owner proved they read mail at `email` (null: not yet verified). */
    emailVerifiedAt: tstz("email_verified_at"),
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
    referralCode: text("referral_code").notNull(),
    referredBy: uuid("referred_by").references((): AnyPgColumn => users.id, {
      onDelete: "set null",
    }),
    lastLoginAt: tstz("last_login_at"),
    /**
     * Wrong passwords since the last success; past a free allowance each further attempt waits
     * a delay that grows with it (login throttling per account,
     * docs/adr/0061-per-account-login-delay.md).
     */
    failedLoginCount: integer("failed_login_count").notNull().default(0),
    lastFailedLoginAt: tstz("last_failed_login_at"),
    /**
     * Client addresses (rate-limit keys: IPv4, IPv6 /64) of the last successful password
     * logins, newest first: the per-account delay never applies to them, so an attacker's
     * failures cannot keep the owner out (OWASP's device-cookie idea, by address).
     */
    loginAddresses: text("login_addresses").array().notNull().default(sql`'{}'::text[]`),
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

/**
 * Access-token sessions (refresh-token families) that were ended before their tokens expire:
 * logout, password change or reset, reuse detection, a disabled or deleted account. Written by
 * triggers (migration 0013) whenever a family is revoked, so no code path can forget it; every
 * instance polls it (src/http/session-guard.ts) and refuses those access tokens.
 */
export const sessionRevocations = pgTable(
  "session_revocations",
  {
    sessionId: uuid("session_id").primaryKey(),
    /** No foreign key: the row must outlive a deleted account. */
    userId: uuid("user_id").notNull(),
    revokedAt: tstz("revoked_at").notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index("session_revocations_revoked_at_idx").on(t.revokedAt)],
);

/**
 * Wrong passwords for addresses no account has, keyed by the address's SHA-256 (no address is
 * stored): the per-account delay (docs/adr/0061) applies to them exactly as to an account, so a
 * throttled answer says nothing about whether the account exists (docs/adr/0084). Rows older
 * than the forgetting window are purged daily.
 */
export const unknownLoginFailures = pgTable(
  "unknown_login_failures",
  {
    addressHash: text("address_hash").primaryKey(),
    failedLoginCount: integer("failed_login_count").notNull(),
    lastFailedLoginAt: tstz("last_failed_login_at").notNull(),
  },
  (t) => [index("unknown_login_failures_last_failed_idx").on(t.lastFailedLoginAt)],
);

export const EMAIL_TOKEN_PURPOSES = ["verify_email", "reset_password", "change_email"] as const;

/** Single-use tokens sent by mail; only their SHA-256 is stored. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address the mail went to (for change_email: the new address). */
    email: text("email").notNull(),
    /**
     * change_email of an account without a password (WeChat sign-in): the first password's
     * argon2id hash, set together with the address when the link is used (ADR 0089).
     */
    passwordHash: text("password_hash"),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_tokens_token_hash_key").on(t.tokenHash),
    index("email_tokens_user_purpose_idx").on(t.userId, t.purpose, t.createdAt),
  ],
);

/** Every admin write: who, what, on which row, the changed fields before and after. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: id(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** `<resource>.<action>`, e.g. `user.update`, `credit_plan.update`, `payment.refund`. */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** `{field: {before, after}}` for the fields the write changed; secrets never appear. */
    changes: jsonb("changes").$type<Record<string, { before: unknown; after: unknown }>>(),
    /** The server's own request id (the response's X-Request-Id, the access log's). */
    requestId: text("request_id"),
    /** The caller's X-Request-Id when it sent a well-formed one: kept beside ours, never as it. */
    clientRequestId: text("client_request_id"),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [
    index("admin_audit_log_created_idx").on(t.createdAt),
    index("admin_audit_log_actor_created_idx").on(t.actorId, t.createdAt),
    index("admin_audit_log_target_created_idx").on(t.targetType, t.targetId, t.createdAt),
    index("admin_audit_log_action_created_idx").on(t.action, t.createdAt),
  ],
);
