import { sql } from "drizzle-orm";
import { ApiError, planLimitCode, unauthorized } from "../../http/errors";
import { nowIso } from "../../lib/clock";
import { type Feature, type PlanLimitName, planLimitHit } from "../../lib/plans";
import type { Deps } from "../../ports";
import { describePlanLimit } from "./limits";
import { getFeatureGate } from "./queries";
import type { PlanLimitsUsage } from "./schemas";

export { entitlementsJsonSql } from "./queries";

/**
 * What a plan lets its holder use. A plan's `features` decide which routes its holder may call
 * (requireFeature in src/http/entitlements.ts) and its `limits` how much they may keep (SQL
 * triggers, ./limits.ts). The plan, the trial and the quotas belong to the organisation
 * (issue #22, ADR 0101): a member has what their organisation's plan gives, and the limits count
 * the organisation's customers, agent runs and members. The plan in effect is `orgs.plan` unless
 * it has ended: a paid plan or trial past `plan_expires_at` counts as free at once, before the
 * downgrade task rewrites the row. "Now" is the app clock, passed as a parameter.
 */

const FEATURE_LABELS: Record<Feature, string> = {
  translate: "translation",
  customers: "customers",
  products: "products",
  quotations: "quotations",
  marketing: "marketing",
  discovery: "discovery",
  ai_assistant: "AI assistant",
  followup_engine: "follow-up engine",
  agent: "agent",
  priority_support: "priority support",
};

export interface Entitlements {
  plan: string;
  features: string[];
  limits: PlanLimitsUsage;
}

/** An entitlements value as a driver returns it (parsed JSON, or text on some drivers). */
export function parseEntitlements(value: unknown): Entitlements {
  const parsed = (typeof value === "string" ? JSON.parse(value) : value) as Entitlements;
  return {
    plan: parsed.plan,
    features: parsed.features ?? [],
    limits: parsed.limits,
  };
}

/**
 * The gate: one statement reads the plan in effect of the user's organisation, whether its
 * features hold `feature`, the plans on sale that do, and (with `limit`) the limit's max and the
 * organisation's usage. A plan
 * without the feature is a 403 naming the feature and the plans that include it; a limit
 * already used up is the limit's 403 (the trigger stays the authority under concurrency; this
 * check only spares a charge and its refund). Nothing is written.
 */
export async function checkFeature(
  deps: Deps,
  userId: string,
  feature: Feature,
  options: { limit?: PlanLimitName } = {},
): Promise<void> {
  const now = sql`${nowIso(deps)}::timestamptz`;
  const limit = options.limit;
  const row = await getFeatureGate(deps.db, { userId, feature, limit, now });
  if (row?.status !== "active") throw unauthorized("Account is not active");
  if (!row.allowed) {
    const plans = (typeof row.plans === "string" ? JSON.parse(row.plans) : row.plans) as
      | { code: string; name: string }[]
      | null;
    const including = plans ?? [];
    const which =
      including.length > 0
        ? `Plans that include it: ${including.map((p) => p.name).join(", ")}.`
        : "No plan on sale includes it.";
    throw new ApiError(
      403,
      `The ${FEATURE_LABELS[feature]} feature is not in your plan (${row.plan}). ${which}`,
      {
        code: "feature_not_in_plan",
        extra: { feature, plan: row.plan, plans: including.map((p) => p.code) },
      },
    );
  }
  if (limit && row.max !== null && row.used !== null && row.used >= row.max) {
    const denial = await describePlanLimit(deps.db, { limit, max: row.max });
    throw new ApiError(403, denial.detail, {
      code: planLimitCode(limit),
      extra: { limit, max: denial.max, plan: row.plan, plans: denial.plans },
    });
  }
}

/**
 * A driver error of a reached plan limit (SQLSTATE PL001) as its 403, or undefined for any
 * other error. `outcome` ends the sentence ("nothing was imported").
 */
export async function planLimitError(
  deps: Deps,
  error: unknown,
  outcome?: string,
): Promise<ApiError | undefined> {
  const hit = planLimitHit(error);
  if (!hit) return undefined;
  const { detail, ...extra } = await describePlanLimit(deps.db, hit, outcome);
  return new ApiError(403, detail, { code: planLimitCode(hit.limit), extra });
}
