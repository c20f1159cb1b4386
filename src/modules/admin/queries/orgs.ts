import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { creditLots, orgMembers, orgs, subscriptionPlans, users } from "../../../db/schema";
import type { DbRow } from "../../../db/sql";
import { escapeLike } from "../../../lib/sql-text";
import { effectivePlanSql } from "../../entitlements/queries";

/** An organisation as the platform admin's list shows it. */
export type AdminOrgRow = Pick<DbRow<typeof orgs>, "id" | "name" | "created_at"> & {
  plan: string;
  plan_expires_at: string | Date | null;
  trial_ends_at: string | Date | null;
  seats: number | null;
  member_count: number;
  owner_id: string | null;
  owner_email: string | null;
  balance: number;
};

/**
 * The credits the wallet of organisation `orgId` (an SQL expression) can spend at `now`: its
 * unexpired lots, as GET /credits/balance counts them (credits/queries getBalanceRow).
 */
function walletBalanceSql(orgId: SQL | unknown, now: SQL): SQL {
  const l = alias(creditLots, "l");
  return sql`coalesce((select sum(${l.remaining}) from ${creditLots} ${l}
      where ${l.orgId} = ${orgId} and ${l.remaining} > 0
        and (${l.expiresAt} is null or ${l.expiresAt} > ${now})), 0)::int`;
}

/**
 * Organisations, newest first, with the plan in effect, its seats (null: unlimited), the
 * member count, the owner's e-mail and the wallet's balance, in one statement: the page's
 * figures are subqueries over the members' and lots' indexes, not a query per organisation.
 * `q` matches the name or the owner's e-mail; `plan` is the plan in effect.
 */
export function listOrgsPage(
  db: Db,
  query: { page: number; size: number; q?: string; plan?: string; now: string },
) {
  const now = sql`${query.now}::timestamptz`;
  const o = alias(orgs, "o");
  const om = alias(orgMembers, "om");
  const m = alias(orgMembers, "m");
  const ou = alias(users, "ou");
  const p = alias(subscriptionPlans, "p");
  const filters: SQL[] = [sql`true`];
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    filters.push(sql`(lower(${o.name}) like ${pattern} or ${ou.email} like ${pattern})`);
  }
  if (query.plan) filters.push(sql`ep.code = ${query.plan}`);
  return selectPage<AdminOrgRow>(db, {
    columns: sql`${o.id}, ${o.name}, ep.code as plan, ${o.planExpiresAt}, ${o.trialEndsAt},
      (select (${p.limits} ->> 'seats')::int from ${subscriptionPlans} ${p}
        where ${p.code} = ep.code) as seats,
      (select count(*)::int from ${orgMembers} ${m} where ${m.orgId} = ${o.id}) as member_count,
      ${ou.id} as owner_id, ${ou.email} as owner_email,
      ${walletBalanceSql(o.id, now)} as balance, ${o.createdAt}`,
    from: sql`${orgs} ${o}
      cross join lateral (select ${effectivePlanSql(o.plan, o.planExpiresAt, now)} as code) ep
      left join ${orgMembers} ${om} on ${om.orgId} = ${o.id} and ${om.role} = 'owner'
      left join ${users} ${ou} on ${ou.id} = ${om.userId}`,
    where: sql.join(filters, sql` and `),
    order: sql`${o.createdAt} desc, ${o.id} desc`,
    page: query.page,
    size: query.size,
  });
}
