import { type SQL, sql } from "drizzle-orm";
import { pgErrorCode, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { conflict, notFound } from "../../http/errors";
import { iso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { escapeLike } from "../../lib/sql-text";
import { yearlyPrice } from "./catalog";

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
const packageOut = (r: PackageRow) => ({
  ...r,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export async function adminListPackages(deps: Deps) {
  const rows = await queryRows<PackageRow>(
    deps.db,
    sql`select id, name, credits, price, currency, active, sort_order, created_at, updated_at
        from credit_packages order by sort_order, price`,
  );
  return rows.map(packageOut);
}

export async function createPackage(deps: Deps, input: PackageInput) {
  const [row] = await queryRows<PackageRow>(
    deps.db,
    sql`insert into credit_packages (name, credits, price, currency, active, sort_order)
        values (${input.name}, ${input.credits}, ${input.price}, ${input.currency}, ${input.active},
                ${input.sort_order})
        returning id, name, credits, price, currency, active, sort_order, created_at, updated_at`,
  );
  return packageOut(row!);
}

const PACKAGE_COLUMNS = ["name", "credits", "price", "currency", "active", "sort_order"] as const;

export async function updatePackage(deps: Deps, id: string, patch: Partial<PackageInput>) {
  const sets = PACKAGE_COLUMNS.filter((k) => patch[k] !== undefined).map(
    (k) => sql`${sql.identifier(k)} = ${patch[k]}`,
  );
  const [row] = await queryRows<PackageRow>(
    deps.db,
    sql`update credit_packages set ${sql.join([...sets, sql`updated_at = now()`], sql`, `)}
        where id = ${id}
        returning id, name, credits, price, currency, active, sort_order, created_at, updated_at`,
  );
  if (!row) throw notFound("Package not found");
  return packageOut(row);
}

/** Orders keep their own copy of what was bought, so a package is retired, never deleted. */
export async function retirePackage(deps: Deps, id: string) {
  return updatePackage(deps, id, { active: false });
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

export async function createPlan(deps: Deps, input: PlanInput) {
  const [row] = await queryRows<PlanRow>(
    deps.db,
    sql`insert into subscription_plans (code, name, currency, monthly_price, monthly_credits,
          features, tier, active, sort_order)
        values (${input.code}, ${input.name}, ${input.currency}, ${input.monthly_price},
                ${input.monthly_credits}, ${JSON.stringify(input.features)}::jsonb, ${input.tier},
                ${input.active}, ${input.sort_order})
        returning ${PLAN_SELECT}`,
  ).catch((error) => {
    if (pgErrorCode(error) === "23505") throw conflict(`A plan with code ${input.code} exists`);
    throw error;
  });
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

export async function updatePlan(deps: Deps, id: string, patch: Partial<PlanInput>) {
  const sets = PLAN_COLUMNS.filter((k) => patch[k] !== undefined).map(
    (k) => sql`${sql.identifier(k)} = ${patch[k]}`,
  );
  if (patch.features) sets.push(sql`features = ${JSON.stringify(patch.features)}::jsonb`);
  const [row] = await queryRows<PlanRow>(
    deps.db,
    sql`update subscription_plans set ${sql.join([...sets, sql`updated_at = now()`], sql`, `)}
        where id = ${id} returning ${PLAN_SELECT}`,
  );
  if (!row) throw notFound("Plan not found");
  return planOut(row);
}
