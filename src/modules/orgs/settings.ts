import { z } from "@hono/zod-openapi";
import { CUSTOMER_STATUSES } from "../../db/schema";

/** Upper bound of the day counts: ten years is "never" in practice, and it keeps date maths in range. */
const MAX_DAYS = 3650;

const days = (min: number) => z.number().int().min(min).max(MAX_DAYS).nullable();
const count = (min: number) => z.number().int().min(min).max(1_000_000).nullable();

/**
 * The pool rules of an organisation (docs/teams.md); null: no rule. The one definition: the
 * PATCH body, the GET response and the pool's readers (parseOrgSettings) all come from it.
 */
const PoolRulesSchema = z
  .object({
    recycle_after_days: days(1).openapi({
      description: "A held customer with no follow-up for N days returns to the pool overnight",
    }),
    warn_days_before: days(1).openapi({
      description: "Days before recycling that the holder is notified",
    }),
    exempt_statuses: z
      .array(z.enum(CUSTOMER_STATUSES))
      .max(CUSTOMER_STATUSES.length)
      .openapi({ description: "Statuses never recycled" }),
    max_claims_per_day: count(0).openapi({
      description: "Claims from the pool per member per UTC day",
    }),
    max_customers_per_member: count(0).openapi({ description: "Customers one member may hold" }),
    reclaim_cooldown_days: days(1).openapi({
      description: "Days before a former holder may claim a customer they released or lost",
    }),
  })
  .strict()
  .openapi("PoolRules");
export type PoolRules = z.infer<typeof PoolRulesSchema>;

export const OrgSettingsSchema = z
  .object({ pool: PoolRulesSchema })
  .strict()
  .openapi("OrgSettings");
type OrgSettings = z.infer<typeof OrgSettingsSchema>;

/** PATCH body: any subset of the rules; the rest of the stored JSON is kept (merged in SQL). */
export const OrgSettingsPatchSchema = z
  .object({ pool: PoolRulesSchema.partial().strict().optional() })
  .strict()
  .openapi("OrgSettingsPatch");
type OrgSettingsPatch = z.infer<typeof OrgSettingsPatchSchema>;

const DEFAULT_POOL_RULES: PoolRules = Object.freeze({
  recycle_after_days: null,
  warn_days_before: null,
  exempt_statuses: ["won"],
  max_claims_per_day: null,
  max_customers_per_member: null,
  reclaim_cooldown_days: null,
}) as PoolRules;

/**
 * The stored orgs.settings as rules with defaults. Each key is read on its own: a missing or
 * unreadable key (settings written before a rule existed) means its default, never a failure.
 */
export const parseOrgSettings = (json: unknown): { pool: PoolRules } => {
  const stored =
    json && typeof json === "object" ? (json as Record<string, unknown>).pool : undefined;
  const pool: Record<string, unknown> = { ...DEFAULT_POOL_RULES, exempt_statuses: ["won"] };
  if (stored && typeof stored === "object") {
    const shape = PoolRulesSchema.shape;
    for (const key of Object.keys(shape) as (keyof PoolRules)[]) {
      const value = (stored as Record<string, unknown>)[key];
      if (value === undefined) continue;
      const parsed = shape[key].safeParse(value);
      if (parsed.success) pool[key] = parsed.data;
    }
  }
  return { pool: pool as PoolRules };
};
