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
import { users } from "./users";
import { products } from "./workspace";

export const AI_PROVIDER_KINDS = ["llm", "mt"] as const;
export type AiProviderKind = (typeof AI_PROVIDER_KINDS)[number];

/**
 * AI providers managed by admins: `llm` speaks the OpenAI-compatible chat completions protocol,
 * `mt` the DeepL v2 machine-translation protocol. The API key is stored encrypted
 * (AES-256-GCM under APP_ENCRYPTION_KEY) and never returned; `api_key_hint` is its last 4.
 */
export const aiProviders = pgTable(
  "ai_providers",
  {
    id: id(),
    /** Routing entries name it: `name:model` (system config `ai.routing`). */
    name: text("name").notNull(),
    kind: text("kind", { enum: AI_PROVIDER_KINDS }).notNull(),
    baseUrl: text("base_url").notNull(),
    apiKeyCiphertext: text("api_key_ciphertext"),
    apiKeyHint: text("api_key_hint"),
    /** Models this provider serves (llm); the first is its default. */
    models: jsonb("models").$type<string[]>().notNull().default([]),
    enabled: boolean("enabled").notNull().default(true),
    timeoutMs: integer("timeout_ms").notNull().default(30_000),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("ai_providers_name_key").on(t.name),
    check("ai_providers_kind_check", sql`${t.kind} in ('llm', 'mt')`),
    check("ai_providers_timeout_check", sql`${t.timeoutMs} between 1000 and 300000`),
  ],
);

export const QUOTA_PERIODS = ["day", "month"] as const;
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/**
 * Translation quota of one provider (its tier is the provider's kind: mt or llm): at most
 * `char_limit` characters per period; `chars_used` counts the current period, which starts at
 * `period_start` (UTC day or month) and rolls over on the first use after it ends.
 */
export const translationQuotas = pgTable(
  "translation_quotas",
  {
    id: id(),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => aiProviders.id, { onDelete: "cascade" }),
    period: text("period", { enum: QUOTA_PERIODS }).notNull(),
    charLimit: integer("char_limit").notNull(),
    charsUsed: integer("chars_used").notNull().default(0),
    periodStart: tstz("period_start").notNull().defaultNow(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("translation_quotas_provider_period_key").on(t.providerId, t.period),
    check("translation_quotas_limit_check", sql`${t.charLimit} >= 0`),
    check("translation_quotas_used_check", sql`${t.charsUsed} >= 0`),
  ],
);

/** Translations a user asked for: the history behind the translate screen. */
export const translations = pgTable(
  "translations",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sourceText: text("source_text").notNull(),
    sourceLang: text("source_lang"),
    targetLang: text("target_lang").notNull(),
    translatedText: text("translated_text").notNull(),
    replies: jsonb("replies").$type<unknown[]>().notNull().default([]),
    /** Provider name and tier (mt or llm) that answered. */
    provider: text("provider").notNull(),
    tier: text("tier", { enum: AI_PROVIDER_KINDS }).notNull(),
    chars: integer("chars").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("translations_user_created_idx").on(t.userId, t.createdAt)],
);

/** Admin-maintained answers the assistant gives instantly and free when a question matches. */
export const faqs = pgTable(
  "faqs",
  {
    id: id(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    keywords: jsonb("keywords").$type<string[]>().notNull().default([]),
    enabled: boolean("enabled").notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("faqs_enabled_sort_idx").on(t.enabled, t.sortOrder)],
);

export const aiConversations = pgTable(
  "ai_conversations",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("ai_conversations_user_updated_idx").on(t.userId, t.updatedAt)],
);

export const AI_MESSAGE_ROLES = ["user", "assistant"] as const;

export const aiMessages = pgTable(
  "ai_messages",
  {
    id: id(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => aiConversations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: AI_MESSAGE_ROLES }).notNull(),
    content: text("content").notNull(),
    /** faq (instant, free) or llm, for assistant messages. */
    source: text("source"),
    /** An extracted intent for the user to confirm, e.g. {type: "add_customer", data}. */
    action: jsonb("action").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index("ai_messages_conversation_created_idx").on(t.conversationId, t.createdAt)],
);

/** Generated marketing material, kept so a seller can find and reuse it. */
export const marketingContents = pgTable(
  "marketing_contents",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    audience: text("audience"),
    language: text("language").notNull(),
    tone: text("tone"),
    content: text("content").notNull(),
    provider: text("provider").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("marketing_contents_user_created_idx").on(t.userId, t.createdAt)],
);

/** Marketing effect tracking: what the client reports happened to a piece of material. */
export const marketingEvents = pgTable(
  "marketing_events",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    content: text("content"),
    createdAt: createdAt(),
  },
  (t) => [index("marketing_events_user_type_created_idx").on(t.userId, t.eventType, t.createdAt)],
);

/**
 * Messages buyers' texts forwarded to the service's WeChat Official Account (the messaging-app
 * webhook). WeChat retries a message it got no answer for within 5 s (same MsgId, 3 tries), so
 * the row is the idempotency record: a retry gets the stored reply instead of a second
 * translation and charge.
 */
export const wechatInboundMessages = pgTable(
  "wechat_inbound_messages",
  {
    msgId: text("msg_id").primaryKey(),
    openid: text("openid").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    content: text("content").notNull(),
    /** The passive reply's text once known (a translation, or why there is none). */
    reply: text("reply"),
    createdAt: createdAt(),
    answeredAt: tstz("answered_at"),
  },
  (t) => [index("wechat_inbound_messages_created_idx").on(t.createdAt)],
);
