import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, queryRowsPrepared } from "../../../db/client";
import {
  agentPipelines,
  orgMembers,
  orgs,
  orgUsage,
  subscriptionPlans,
  systemConfig,
  users,
} from "../../../db/schema";
import { type ColumnName, col, columnList, columnNames, type DbRow } from "../../../db/sql";
import { type Feature, PLAN_LIMITS, type PlanLimitName } from "../../../lib/plans";
import type { Actor } from "../../admin/queries/audit";
import {
  type AuditedUpdate,
  auditedInsert,
  auditedUpdate,
} from "../../admin/queries/audited-write";

type PlanRow = DbRow<typeof subscriptionPlans>;

/** The plan code in effect (SQL's effective_plan, with the app clock instead of now()). */
export function effectivePlanSql(plan: SQL | unknown, expiresAt: SQL | unknown, now: SQL): SQL {
  return sql`(case when ${plan} <> 'free' and ${expiresAt} <= ${now}
    then 'free' else ${plan} end)`;
}

/**
 * How many customers the organisation `orgId` (an SQL expression) keeps, wherever they are
 * (held by a member or in the pool): the count every insert, delete and move of a customer
 * between organisations updates in its own statement (migration 0025), so reading it is one
 * row, not a count of the organisation's customers.
 */
export function customersKeptSql(orgId: SQL | unknown): SQL {
  const ou = alias(orgUsage, "ou");
  return sql`coalesce((select ${ou.customers} from ${orgUsage} ${ou} where ${ou.orgId} = ${orgId}), 0)`;
}

/** Usage of a countable limit by the organisation `orgId` (an SQL expression), as of `now`. */
function limitUsageSql(limit: PlanLimitName, orgId: SQL | unknown, now: SQL): SQL {
  if (limit === "customers") return customersKeptSql(orgId);
  if (limit === "seats") {
    const m = alias(orgMembers, "sm");
    return sql`(select count(*)::int from ${orgMembers} ${m} where ${m.orgId} = ${orgId})`;
  }
  const a = alias(agentPipelines, "a");
  return sql`(select count(*)::int from ${agentPipelines} ${a} where ${a.orgId} = ${orgId}
        and ${a.createdAt} >= date_trunc('month', ${now} at time zone 'UTC') at time zone 'UTC')`;
}

/**
 * One JSON value `{plan, features, limits: {name: {max, used}}}` for the organisation whose
 * columns are given: what /me and the balance show so a frontend can grey out what is locked.
 */
export function entitlementsJsonSql(
  org: { id: SQL | unknown; plan: SQL | unknown; expiresAt: SQL | unknown },
  now: SQL,
): SQL {
  const p = alias(subscriptionPlans, "p");
  const limit = (name: PlanLimitName) =>
    sql`json_build_object('max', (${p.limits} ->> ${sql.raw(`'${name}'`)})::int,
      'used', ${limitUsageSql(name, org.id, now)})`;
  return sql`(select json_build_object('plan', ep.code,
        'features', coalesce(${p.features}, '[]'::jsonb),
        'limits', json_build_object(${sql.join(
          PLAN_LIMITS.map((name) => sql`${sql.raw(`'${name}'`)}, ${limit(name)}`),
          sql`, `,
        )}))
      from (select ${effectivePlanSql(org.plan, org.expiresAt, now)} as code) ep
      left join ${subscriptionPlans} ${p} on ${p.code} = ep.code)`;
}

/** The plan columns of an organisation: what a statement over the plan in effect reads. */
export type OrgPlanColumns = Pick<DbRow<typeof orgs>, "plan_expires_at" | "trial_ends_at">;

/**
 * `join`s from the users row `userId` (an SQL expression) to its organisation, aliased
 * `plan_org`, whose plan columns `planOrg` names: for statements of other modules that read
 * the plan in effect next to their own rows (the balance).
 */
export function planOrgJoin(userId: SQL | unknown): SQL {
  return sql`join ${orgMembers} plan_member on plan_member.user_id = ${userId}
    join ${orgs} plan_org on plan_org.id = plan_member.org_id`;
}

/** The plan columns over planOrgJoin's alias. */
export const planOrg = {
  plan: sql`plan_org.plan`,
  planExpiresAt: sql`plan_org.plan_expires_at`,
  trialEndsAt: sql`plan_org.trial_ends_at`,
};

type GateRow = Pick<DbRow<typeof users>, "status"> & {
  plan: string;
  allowed: boolean;
  plans: Pick<PlanRow, "code" | "name">[] | string | null;
  max: number | null;
  used: number | null;
};

/**
 * The gate's one statement: the plan in effect of the user's organisation, whether its features
 * hold `feature`, the plans on sale that do, and (with `limit`) the limit's max and the
 * organisation's usage.
 */
export async function getFeatureGate(
  db: Db,
  params: { userId: string; feature: Feature; limit?: PlanLimitName; now: SQL },
): Promise<GateRow | undefined> {
  const { feature, limit, now } = params;
  const u = alias(users, "u");
  const m = alias(orgMembers, "m");
  const o = alias(orgs, "o");
  const p = alias(subscriptionPlans, "p");
  const q = alias(subscriptionPlans, "q");
  const [row] = await queryRowsPrepared<GateRow>(
    db,
    sql`select ${u.status}, ep.code as plan,
          coalesce(${p.features}, '[]'::jsonb) @> jsonb_build_array(${feature}::text) as allowed,
          (select json_agg(json_build_object('code', ${q.code}, 'name', ${q.name})
                           order by ${q.tier}, ${q.sortOrder})
           from ${subscriptionPlans} ${q}
           where ${q.active} and ${q.features} @> jsonb_build_array(${feature}::text)) as plans,
          ${limit ? sql`(${p.limits} ->> ${limit})::int` : sql`null::int`} as max,
          ${limit ? limitUsageSql(limit, o.id, now) : sql`null::int`} as used
        from ${users} ${u} join ${orgMembers} ${m} on ${m.userId} = ${u.id}
          join ${orgs} ${o} on ${o.id} = ${m.orgId}
        cross join lateral (select ${effectivePlanSql(o.plan, o.planExpiresAt, now)}
          as code) ep
        left join ${subscriptionPlans} ${p} on ${p.code} = ep.code
        where ${u.id} = ${params.userId}`,
  );
  return row;
}

/** Plans on sale whose limit `limit` is missing (unlimited) or above `max`, lowest tier first. */
export function listPlansAllowingMore(
  db: Db,
  params: { limit: string; max: number },
): Promise<Pick<PlanRow, "code" | "name">[]> {
  const p = subscriptionPlans;
  return queryRows<Pick<PlanRow, "code" | "name">>(
    db,
    sql`select ${p.code}, ${p.name} from ${p}
        where ${p.active} and (${p.limits} ->> ${params.limit} is null
          or (${p.limits} ->> ${params.limit})::numeric > ${params.max})
        order by ${p.tier}, ${p.sortOrder}`,
  );
}

/* ------------------------------------------------------------------ the plans on sale */

/** `plans.yearly_discount` (system config) as a select item `discount`, 0.15 when unset. */
const discountSql = () => {
  const c = systemConfig;
  return sql`coalesce((select (${c.value} #>> '{}')::float8 from ${c}
    where ${c.key} = 'plans.yearly_discount'), 0.15) as discount`;
};
type WithDiscount = { discount: number };

type PublicPlanRow = Pick<
  PlanRow,
  "id" | "code" | "name" | "currency" | "monthly_price" | "monthly_credits" | "features" | "tier"
> &
  WithDiscount;

/** Active plans in catalogue order, with the yearly discount. */
export function listActivePlans(db: Db): Promise<PublicPlanRow[]> {
  const p = alias(subscriptionPlans, "p");
  return queryRows<PublicPlanRow>(
    db,
    sql`select ${columnList([p.id, p.code, p.name, p.currency, p.monthlyPrice, p.monthlyCredits, p.features, p.tier])},
          ${discountSql()}
        from ${subscriptionPlans} ${p} where ${p.active} order by ${p.sortOrder}, ${p.tier}`,
  );
}

type AdminPlanRow = Pick<
  PlanRow,
  | "id"
  | "code"
  | "name"
  | "currency"
  | "monthly_price"
  | "monthly_credits"
  | "features"
  | "limits"
  | "tier"
  | "active"
  | "sort_order"
  | "created_at"
  | "updated_at"
> &
  WithDiscount;

const sp = subscriptionPlans;
/** What a create writes. */
const PLAN_CREATED = [
  sp.code,
  sp.name,
  sp.currency,
  sp.monthlyPrice,
  sp.monthlyCredits,
  sp.features,
  sp.tier,
  sp.active,
  sp.sortOrder,
];
/** Bare names (read from the table or a CTE over it) and the discount. */
const PLAN_SELECT = sql`${columnNames([
  sp.id,
  ...PLAN_CREATED,
  sp.limits,
  sp.createdAt,
  sp.updatedAt,
])}, ${discountSql()}`;

/** The columns an admin may patch (the code is permanent; features go as jsonb). */
export const PLAN_COLUMNS = [
  "name",
  "currency",
  "monthly_price",
  "monthly_credits",
  "tier",
  "active",
  "sort_order",
] as const satisfies readonly ColumnName<typeof subscriptionPlans>[];

export type PlanValues = Pick<PlanRow, (typeof PLAN_COLUMNS)[number] | "code" | "features"> & {
  /** The plan's quotas (customers, agent_runs_per_month, seats); missing: none (unlimited). */
  limits?: Partial<Record<PlanLimitName, number | null>>;
};

export function listAllPlans(db: Db): Promise<AdminPlanRow[]> {
  return queryRows<AdminPlanRow>(
    db,
    sql`select ${PLAN_SELECT} from ${sp} order by ${sp.sortOrder}, ${sp.tier}`,
  );
}

/** Creates a plan with its audit row, in one statement (a taken code: unique violation). */
export async function insertPlan(
  db: Db,
  params: { actor: Actor; values: PlanValues; fields: readonly string[] },
): Promise<AdminPlanRow | undefined> {
  const v = params.values;
  const [row] = await queryRows<AdminPlanRow>(
    db,
    auditedInsert(params.actor, {
      insert: sql`insert into ${sp} (${columnNames([...PLAN_CREATED, sp.limits])})
        values (${v.code}, ${v.name}, ${v.currency}, ${v.monthly_price},
          ${v.monthly_credits}, ${JSON.stringify(v.features)}::jsonb, ${v.tier},
          ${v.active}, ${v.sort_order}, ${limitsJson(v.limits ?? {})}::jsonb)`,
      select: PLAN_SELECT,
      audit: { action: "credit_plan.create", target: "credit_plan", fields: params.fields },
    }),
  );
  return row;
}

/** Quotas as stored: a null (unlimited) is a missing key. */
const limitsJson = (limits: Partial<Record<PlanLimitName, number | null>>) =>
  JSON.stringify(Object.fromEntries(Object.entries(limits).filter(([, max]) => max !== null)));

/**
 * `limits = ...` for a plan patch: the quotas sent replace the stored ones (null: unlimited,
 * the key removed), the others stay.
 */
export const planLimitsSet = (limits: Partial<Record<PlanLimitName, number | null>>): SQL => {
  const removed = Object.keys(limits).filter((name) => limits[name as PlanLimitName] === null);
  return sql`${col(sp.limits)} = (${sp.limits} || ${limitsJson(limits)}::jsonb)
    - ${`{${removed.join(",")}}`}::text[]`;
};

/** `features = ...` for a plan patch. */
export const planFeaturesSet = (features: string[]): SQL =>
  sql`${col(sp.features)} = ${JSON.stringify(features)}::jsonb`;

/** Sets `sets` on plan `id` with its audit row (`action`), in one statement. */
export async function updatePlanAudited(
  db: Db,
  params: AuditedUpdate,
): Promise<AdminPlanRow | undefined> {
  const [row] = await queryRows<AdminPlanRow>(
    db,
    auditedUpdate(params, {
      table: sp,
      target: "credit_plan",
      select: PLAN_SELECT,
      update: (set, old) => sql`update ${sp} set ${set} from ${old.from} where ${old.where}`,
    }),
  );
  return row;
}
