import { type SQL, sql } from "drizzle-orm";
import { queryRowsPrepared } from "../../db/client";
import type { Deps } from "../../deps";
import { ApiError, unauthorized } from "../../http/errors";
import { nowIso } from "../../lib/clock";
import { describePlanLimit, type PlanLimitName, planLimitHit } from "./limits";
import type { Feature, PlanLimitsUsage } from "./schemas";

/**
 * What a plan lets its holder use. A plan's `features` decide which routes its holder may call
 * (requireFeature in src/http/entitlements.ts) and its `limits` how much they may keep (SQL
 * triggers, ./limits.ts). The plan in effect is `users.plan` unless it has ended: a paid plan or
 * trial past `plan_expires_at` counts as free at once, before the downgrade task rewrites the
 * row. "Now" is the app clock, passed as a parameter.
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

/** The plan code in effect (SQL's effective_plan, with the app clock instead of now()). */
export function effectivePlanSql(plan: SQL | unknown, expiresAt: SQL | unknown, now: SQL): SQL {
  return sql`(case when ${plan} <> 'free' and ${expiresAt} <= ${now}
    then 'free' else ${plan} end)`;
}

/** Usage of a countable limit by the user `userId` (an SQL expression), as of `now`. */
function limitUsageSql(limit: PlanLimitName, userId: SQL | unknown, now: SQL): SQL {
  return limit === "customers"
    ? sql`coalesce((select uu.customers from user_usage uu where uu.user_id = ${userId}), 0)`
    : sql`(select count(*)::int from agent_pipelines a where a.user_id = ${userId}
        and a.created_at >= date_trunc('month', ${now} at time zone 'UTC') at time zone 'UTC')`;
}

/**
 * One JSON value `{plan, features, limits: {name: {max, used}}}` for the user whose columns are
 * given: what /me and the balance show so a frontend can grey out what is locked.
 */
export function entitlementsJsonSql(
  user: { id: SQL | unknown; plan: SQL | unknown; expiresAt: SQL | unknown },
  now: SQL,
): SQL {
  const limit = (name: PlanLimitName) =>
    sql`json_build_object('max', (p.limits ->> ${sql.raw(`'${name}'`)})::int,
      'used', ${limitUsageSql(name, user.id, now)})`;
  return sql`(select json_build_object('plan', ep.code,
        'features', coalesce(p.features, '[]'::jsonb),
        'limits', json_build_object('customers', ${limit("customers")},
          'agent_runs_per_month', ${limit("agent_runs_per_month")}))
      from (select ${effectivePlanSql(user.plan, user.expiresAt, now)} as code) ep
      left join subscription_plans p on p.code = ep.code)`;
}

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

interface GateRow {
  status: string;
  plan: string;
  allowed: boolean;
  plans: { code: string; name: string }[] | string | null;
  max: number | null;
  used: number | null;
}

/**
 * The gate: one statement reads the user's plan in effect, whether its features hold `feature`,
 * the plans on sale that do, and (with `limit`) the limit's max and this user's usage. A plan
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
  const [row] = await queryRowsPrepared<GateRow>(
    deps.db,
    sql`select u.status, ep.code as plan,
          coalesce(p.features, '[]'::jsonb) @> jsonb_build_array(${feature}::text) as allowed,
          (select json_agg(json_build_object('code', q.code, 'name', q.name)
                           order by q.tier, q.sort_order)
           from subscription_plans q
           where q.active and q.features @> jsonb_build_array(${feature}::text)) as plans,
          ${limit ? sql`(p.limits ->> ${limit})::int` : sql`null::int`} as max,
          ${limit ? limitUsageSql(limit, sql`u.id`, now) : sql`null::int`} as used
        from users u
        cross join lateral (select ${effectivePlanSql(sql`u.plan`, sql`u.plan_expires_at`, now)}
          as code) ep
        left join subscription_plans p on p.code = ep.code
        where u.id = ${userId}`,
  );
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
      { extra: { feature, plan: row.plan, plans: including.map((p) => p.code) } },
    );
  }
  if (limit && row.max !== null && row.used !== null && row.used >= row.max) {
    const denial = await describePlanLimit(deps.db, { limit, max: row.max });
    throw new ApiError(403, denial.detail, {
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
  return new ApiError(403, detail, { extra });
}
