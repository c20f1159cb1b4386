import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { aiConversations, aiMessages, translations } from "./ai";
import { createdAt, id, tstz, updatedAt } from "./columns";
import { orgs } from "./orgs";
import { users } from "./users";

export const ORG_FAQ_STATUSES = ["candidate", "active"] as const;
export type OrgFaqStatus = (typeof ORG_FAQ_STATUSES)[number];

/**
 * An organisation's own FAQ (issue #24 item 6, ADR 0113), apart from the platform FAQ `faqs`
 * that admins keep: a reply a seller sent (POST /ai/replies/:id/accept) becomes a `candidate`;
 * an admin+ of the organisation approves it (`active`), and the assistant then answers a
 * matching question with it, free, in any language (`hit_count` counts those answers).
 */
export const orgFaqs = pgTable(
  "org_faqs",
  {
    id: id(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    /** The language question and answer are in (lower-case code, "und" when unknown). */
    language: text("language").notNull(),
    status: text("status", { enum: ORG_FAQ_STATUSES }).notNull().default("candidate"),
    /** The accepted reply suggestion it came from (translations.replies[].id): accepted once. */
    sourceReplyId: text("source_reply_id"),
    sourceTranslationId: uuid("source_translation_id").references(() => translations.id, {
      onDelete: "set null",
    }),
    hitCount: integer("hit_count").notNull().default(0),
    lastHitAt: tstz("last_hit_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("org_faqs_org_status_idx").on(t.orgId, t.status, t.createdAt),
    uniqueIndex("org_faqs_source_reply_key")
      .on(t.orgId, t.sourceReplyId)
      .where(sql`${t.sourceReplyId} is not null`),
    check("org_faqs_status_check", sql`${t.status} in ('candidate', 'active')`),
    check("org_faqs_hit_count_check", sql`${t.hitCount} >= 0`),
  ],
);

export const AI_ACTION_TYPES = ["add_customer", "log_followup", "create_quotation"] as const;
export type AiActionType = (typeof AI_ACTION_TYPES)[number];

/**
 * An action the assistant proposed in a message (its `action.id`), performed at most once by
 * POST /ai/actions/:id/confirm: `performed_at`, `result_id` (the customer, follow-up or
 * quotation made) and `result` (the answer given, replayed to a second confirm) are set in the
 * transaction that performs it.
 */
export const aiActions = pgTable(
  "ai_actions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => aiConversations.id, { onDelete: "cascade" }),
    messageId: uuid("message_id")
      .notNull()
      .references(() => aiMessages.id, { onDelete: "cascade" }),
    type: text("type", { enum: AI_ACTION_TYPES }).notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    performedAt: tstz("performed_at"),
    resultId: uuid("result_id"),
    result: jsonb("result").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("ai_actions_user_idx").on(t.userId),
    uniqueIndex("ai_actions_message_key").on(t.messageId),
    check(
      "ai_actions_type_check",
      sql`${t.type} in ('add_customer', 'log_followup', 'create_quotation')`,
    ),
  ],
);
