import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { orgMembers, orgs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Writes of plans that ride on other modules' statements (growth: referral rewards on email
 * verification), as fragments so the reward stays one statement with its verification. The
 * plan belongs to the organisation (issue #22): a user's reward extends their organisation's.
 */

/** A plan end moved by `days`: from max(now, end) on a paid plan or trial; from now when free. */
function extendedEnd(plan: SQL, ends: SQL, days: SQL, at: SQL): SQL {
  return sql`case when ${plan} = 'free' then ${at} + make_interval(days => ${days})
    when ${ends} is null then null
    else greatest(${at}, ${ends}) + make_interval(days => ${days}) end`;
}

/**
 * An UPDATE (a CTE body) extending by `days` the plan of the organisation of each user `userId`
 * names in `from` (a free plan becomes `paidPlan`, an unlimited paid plan stays so); returns
 * the user's id, the organisation's plan and plan_expires_at, and days.
 */
export function planExtensionUpdate(p: {
  from: SQL;
  userId: SQL;
  days: SQL;
  at: SQL;
  paidPlan: string;
}): SQL {
  const o = alias(orgs, "xo");
  const m = alias(orgMembers, "xm");
  return sql`update ${orgs} ${o} set
      ${col(o.plan)} = case when ${o.plan} = 'free' then ${p.paidPlan} else ${o.plan} end,
      ${col(o.planExpiresAt)} = ${extendedEnd(sql`${o.plan}`, sql`${o.planExpiresAt}`, p.days, p.at)},
      ${col(o.updatedAt)} = ${p.at}
    from ${p.from} join ${orgMembers} ${m} on ${m.userId} = ${p.userId}
    where ${o.id} = ${m.orgId}
    returning ${m.userId} as id, ${o.plan}, ${o.planExpiresAt}, ${p.days} as days`;
}
