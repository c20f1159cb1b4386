import { type SQL, sql } from "drizzle-orm";
import { pgErrorCode, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { notFound, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { escapeLike } from "../../lib/sql-text";
import {
  type Actor,
  auditCte,
  changedFields,
  lockBefore,
  patchSets,
  rethrowUnique,
} from "../admin/writes";
import { yearlyPrice } from "./catalog";
import { insufficientCredits } from "./service";

export async function listCreditUsers(
  deps: Deps,
  query: { page: number; size: number; q?: string },
) {
  const filters: SQL[] = [sql`true`];
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    filters.push(sql`(u.email like ${pattern} or lower(u.name) like ${pattern})`);
  }
  const where = sql.join(filters, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<{
      user_id: string;
      email: string | null;
      name: string | null;
      plan: string;
      balance: number;
      updated_at: Date;
    }>(
      deps.db,
      sql`select c.user_id, u.email, u.name, u.plan, c.balance, c.updated_at
          from user_credits c join users u on u.id = c.user_id
          where ${where} order by c.balance desc, c.user_id
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from user_credits c join users u on u.id = c.user_id where ${where}`,
    ),
  ]);
  return {
    items: rows.map((r) => ({ ...r, updated_at: iso(r.updated_at)! })),
    total: count?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

export async function listConsumptions(
  deps: Deps,
  query: { page: number; size: number; user_id?: string; operation?: string; status?: string },
) {
  const filters: SQL[] = [sql`true`];
  if (query.user_id) filters.push(sql`c.user_id = ${query.user_id}`);
  if (query.operation) filters.push(sql`c.operation = ${query.operation}`);
  if (query.status) filters.push(sql`c.status = ${query.status}`);
  const where = sql.join(filters, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<{
      id: string;
      user_id: string;
      email: string | null;
      operation: string;
      cost: number;
      status: "charged" | "refunded";
      created_at: Date;
      refunded_at: Date | null;
    }>(
      deps.db,
      sql`select c.id, c.user_id, u.email, c.operation, c.cost, c.status, c.created_at, c.refunded_at
          from credit_consumptions c join users u on u.id = c.user_id
          where ${where} order by c.created_at desc, c.id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_consumptions c where ${where}`,
    ),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      created_at: iso(r.created_at)!,
      refunded_at: iso(r.refunded_at),
    })),
    total: count?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

export interface PackageInput {
  name: string;
  credits: number;
  price: number;
  currency: string;
  active: boolean;
  sort_order: number;
}

type PackageRow = PackageInput & { id: string; created_at: Date; updated_at: Date };
const PACKAGE_SELECT = sql`id, name, credits, price, currency, active, sort_order, created_at,
  updated_at`;
const packageOut = (r: PackageRow) => ({
  ...r,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export async function adminListPackages(deps: Deps) {
  const rows = await queryRows<PackageRow>(
    deps.db,
    sql`select ${PACKAGE_SELECT} from credit_packages order by sort_order, price`,
  );
  return rows.map(packageOut);
}

export async function createPackage(deps: Deps, actor: Actor, input: PackageInput) {
  const [row] = await queryRows<PackageRow>(
    deps.db,
    sql`with w as (
        insert into credit_packages (name, credits, price, currency, active, sort_order)
        values (${input.name}, ${input.credits}, ${input.price}, ${input.currency},
          ${input.active}, ${input.sort_order})
        returning *),
      ${auditCte(actor, {
        action: "credit_package.create",
        target: "credit_package",
        rows: sql`w`,
        kind: "create",
        fields: changedFields(input),
      })}
      select ${PACKAGE_SELECT} from w`,
  );
  return packageOut(row!);
}

const PACKAGE_COLUMNS = ["name", "credits", "price", "currency", "active", "sort_order"] as const;

/** Changes only the fields sent, with the audit row of what changed in the same statement. */
export async function updatePackage(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: Partial<PackageInput>,
  action = "credit_package.update",
) {
  const old = lockBefore("credit_packages", id);
  const sets = [
    ...patchSets(PACKAGE_COLUMNS, patch),
    sql`updated_at = ${nowIso(deps)}::timestamptz`,
  ];
  const [row] = await queryRows<PackageRow>(
    deps.db,
    sql`with w as (
        update credit_packages set ${sql.join(sets, sql`, `)} from ${old.from}
        where ${old.where}
        returning *),
      ${auditCte(actor, {
        action,
        target: "credit_package",
        rows: sql`w`,
        kind: "update",
        fields: changedFields(patch),
      })}
      select ${PACKAGE_SELECT} from w`,
  );
  if (!row) throw notFound("Package not found");
  return packageOut(row);
}

/** Orders keep their own copy of what was bought, so a package is retired, never deleted. */
export async function retirePackage(deps: Deps, actor: Actor, id: string) {
  return updatePackage(deps, actor, id, { active: false }, "credit_package.retire");
}

export interface PlanInput {
  code: string;
  name: string;
  currency: string;
  monthly_price: number;
  monthly_credits: number;
  features: string[];
  tier: number;
  active: boolean;
  sort_order: number;
}

type PlanRow = PlanInput & { id: string; created_at: Date; updated_at: Date; discount: number };
const PLAN_SELECT = sql`id, code, name, currency, monthly_price, monthly_credits, features, tier,
  active, sort_order, created_at, updated_at,
  coalesce((select (value #>> '{}')::float8 from system_config where key = 'plans.yearly_discount'), 0.15) as discount`;
const planOut = ({ discount, ...r }: PlanRow) => ({
  ...r,
  yearly_price: yearlyPrice(r.monthly_price, discount),
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export async function adminListPlans(deps: Deps) {
  const rows = await queryRows<PlanRow>(
    deps.db,
    sql`select ${PLAN_SELECT} from subscription_plans order by sort_order, tier`,
  );
  return rows.map(planOut);
}

export async function createPlan(deps: Deps, actor: Actor, input: PlanInput) {
  const [row] = await queryRows<PlanRow>(
    deps.db,
    sql`with w as (
        insert into subscription_plans (code, name, currency, monthly_price, monthly_credits,
          features, tier, active, sort_order)
        values (${input.code}, ${input.name}, ${input.currency}, ${input.monthly_price},
          ${input.monthly_credits}, ${JSON.stringify(input.features)}::jsonb, ${input.tier},
          ${input.active}, ${input.sort_order})
        returning *),
      ${auditCte(actor, {
        action: "credit_plan.create",
        target: "credit_plan",
        rows: sql`w`,
        kind: "create",
        fields: changedFields(input),
      })}
      select ${PLAN_SELECT} from w`,
  ).catch(rethrowUnique(`A plan with code ${input.code} exists`));
  return planOut(row!);
}

const PLAN_COLUMNS = [
  "name",
  "currency",
  "monthly_price",
  "monthly_credits",
  "tier",
  "active",
  "sort_order",
] as const;

/** Changes only the fields sent (its code is permanent), audited in the same statement. */
export async function updatePlan(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: Partial<Omit<PlanInput, "code">>,
  action = "credit_plan.update",
) {
  const sets = patchSets(PLAN_COLUMNS, patch);
  if (patch.features) sets.push(sql`features = ${JSON.stringify(patch.features)}::jsonb`);
  sets.push(sql`updated_at = ${nowIso(deps)}::timestamptz`);
  const old = lockBefore("subscription_plans", id);
  const [row] = await queryRows<PlanRow>(
    deps.db,
    sql`with w as (
        update subscription_plans set ${sql.join(sets, sql`, `)} from ${old.from}
        where ${old.where}
        returning *),
      ${auditCte(actor, {
        action,
        target: "credit_plan",
        rows: sql`w`,
        kind: "update",
        fields: changedFields(patch),
      })}
      select ${PLAN_SELECT} from w`,
  );
  if (!row) throw notFound("Plan not found");
  return planOut(row);
}

/** Subscribers keep a retired plan until their period ends. */
export async function retirePlan(deps: Deps, actor: Actor, id: string) {
  return updatePlan(deps, actor, id, { active: false }, "credit_plan.retire");
}

/**
 * Admin correction with its audit row, in one statement: a positive delta adds a non-expiring
 * lot (credit_grant), a negative one deducts (credit_charge; 402 when not covered, nothing
 * written). The audit row shows the balance before and after and the reason; an unknown user
 * is 404 with nothing written.
 */
export async function adminAdjustCredits(
  deps: Deps,
  actor: Actor,
  input: { userId: string; delta: number; reason: string },
) {
  const now = nowIso(deps);
  const change =
    input.delta > 0
      ? sql`select g.applied as ok, g.balance, g.ledger_id
          from target cross join lateral credit_grant(target.id, ${input.delta}, 'admin_adjustment',
            'admin', ${actor.id}, null, ${input.reason}, ${actor.id}::uuid, ${now}::timestamptz) g`
      : sql`select c.ok, c.balance, c.ledger_id
          from target cross join lateral credit_charge(target.id, ${-input.delta},
            'admin_adjustment', null, ${input.reason}, ${actor.id}::uuid, null,
            ${now}::timestamptz) c`;
  const [row] = await queryRows<{
    found: boolean;
    ok: boolean | null;
    balance: number | null;
    ledger_id: string | null;
  }>(
    deps.db,
    sql`with target as (select id from users where id = ${input.userId}),
      adjusted as (${change}),
      ${auditCte(actor, {
        action: "credit.adjust",
        target: "user",
        rows: sql`(select ${input.userId}::text as id, balance from adjusted where ok)`,
        kind: "custom",
        before: sql`jsonb_build_object('balance', r.balance - ${input.delta}::int)`,
        after: sql`jsonb_build_object('balance', r.balance, 'reason', ${input.reason}::text)`,
        fields: ["balance", "reason"],
      })}
      select exists (select 1 from target) as found, a.ok, a.balance, a.ledger_id
      from (select 1) one left join adjusted a on true`,
  ).catch((error: unknown) => {
    // 22003: the balance would pass its integer column; the statement wrote nothing.
    if (pgErrorCode(error) !== "22003") throw error;
    const msg = "The balance would exceed its maximum";
    throw validationError([{ loc: ["body", "delta"], msg, type: "too_big" }], msg);
  });
  if (!row?.found) throw notFound("User not found");
  if (!row.ok) throw insufficientCredits(-input.delta, row.balance ?? 0);
  return { balance: row.balance!, ledgerId: row.ledger_id };
}
