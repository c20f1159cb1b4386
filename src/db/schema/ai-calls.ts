import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { creditConsumptions } from "./credits";
import { orgs } from "./orgs";
import { users } from "./users";

/**
 * How one provider call ended: `ok` answered (and its answer was used), `error` failed (HTTP
 * error, refused, empty answer, a stream that broke off), `timeout` did not answer in the
 * provider's time, `unusable` answered something the feature could not use (no JSON where JSON
 * was asked), `cancelled` a stream its client left before the end (not the provider's failure).
 */
export const AI_CALL_OUTCOMES = ["ok", "error", "timeout", "unusable", "cancelled"] as const;
export type AiCallOutcome = (typeof AI_CALL_OUTCOMES)[number];

/**
 * Every AI call on record (issue #24 item 7, ADR 0114): one row per provider attempt, LLM or
 * machine translation, a failed attempt included. `credits` is what the billed operation cost,
 * on the attempt that answered it (0 on the others); `consumption_id` links the attempts of a
 * billed operation to its charge. Written off the request's path (modules/ai/call-log.ts); the
 * caller's organisation is read in the insert. Owned by modules/ai (queries.ts).
 */
export const aiCalls = pgTable(
  "ai_calls",
  {
    id: id(),
    /** The caller's organisation at the call; null for calls with no known caller. */
    orgId: uuid("org_id").references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The routed task (`chat`, `translate`, `followup_draft`, ...). */
    task: text("task").notNull(),
    /** The provider's name as configured by the admin, and the model asked. */
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    /** As the provider reported them (OpenAI's `usage`); null when it reported none. */
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    latencyMs: integer("latency_ms").notNull(),
    outcome: text("outcome", { enum: AI_CALL_OUTCOMES }).notNull(),
    credits: integer("credits").notNull().default(0),
    consumptionId: uuid("consumption_id").references(() => creditConsumptions.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
  },
  (t) => [
    index("ai_calls_org_created_idx").on(t.orgId, t.createdAt),
    index("ai_calls_user_created_idx").on(t.userId, t.createdAt),
    index("ai_calls_created_idx").on(t.createdAt),
    index("ai_calls_task_created_idx").on(t.task, t.createdAt),
    index("ai_calls_provider_created_idx").on(t.provider, t.createdAt),
    index("ai_calls_outcome_created_idx").on(t.outcome, t.createdAt),
    check("ai_calls_credits_non_negative", sql`${t.credits} >= 0`),
    check("ai_calls_latency_non_negative", sql`${t.latencyMs} >= 0`),
  ],
);
