/**
 * Plan features and limits as the HTTP layer and the modules both name them (the entitlements
 * module owns the plans; src/http gates routes with these names and turns a reached limit into
 * its 403). No I/O here.
 */

/** Feature codes a plan's `features` may hold (src/modules/credits/catalog.ts seeds them). */
export const FEATURES = [
  "translate",
  "customers",
  "products",
  "quotations",
  "marketing",
  "discovery",
  "ai_assistant",
  "followup_engine",
  "agent",
  "priority_support",
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * Quotas a plan may set (subscription_plans.limits; a missing key is unlimited), each counted
 * per organisation: customers kept at once, agent runs this calendar month, members (`seats`).
 */
export const PLAN_LIMITS = ["customers", "agent_runs_per_month", "seats"] as const;
export type PlanLimitName = (typeof PLAN_LIMITS)[number];

/**
 * The seats of the shipped plans (issue #22): seeded with them, and set on the existing rows by
 * migration 0025; admins change them like any limit afterwards.
 */
export const DEFAULT_PLAN_SEATS: Record<string, number> = { free: 1, pro: 5, business: 50 };

/**
 * AFTER INSERT triggers on the counted tables (migration 0013) raise this SQLSTATE with DETAIL
 * `{"limit", "max"}` when a statement takes a user past a limit.
 */
const PLAN_LIMIT_SQLSTATE = "PL001";

export interface PlanLimitHit {
  limit: string;
  max: number;
}

/** The limit a driver error reports (SQLSTATE PL001), walking wrapped causes; else undefined. */
export function planLimitHit(error: unknown): PlanLimitHit | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const { code, detail } = current as { code?: unknown; detail?: unknown };
    if (code === PLAN_LIMIT_SQLSTATE) {
      try {
        const parsed = JSON.parse(String(detail)) as { limit?: unknown; max?: unknown };
        return { limit: String(parsed.limit ?? "unknown"), max: Number(parsed.max ?? 0) };
      } catch {
        return { limit: "unknown", max: 0 };
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The 403 body of a reached limit. */
export interface PlanLimitDenial {
  detail: string;
  limit: string;
  max: number;
  /** Codes of the plans on sale that allow more, lowest tier first. */
  plans: string[];
}
