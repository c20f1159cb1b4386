import { type SQL, sql } from "drizzle-orm";
import { users } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Writes of users' plans that ride on other modules' statements (growth: referral rewards on
 * email verification), as fragments so the reward stays one statement with its verification.
 */

/** A plan end moved by `days`: from max(now, end) on a paid plan or trial; from now when free. */
function extendedEnd(plan: SQL, ends: SQL, days: SQL, at: SQL): SQL {
  return sql`case when ${plan} = 'free' then ${at} + make_interval(days => ${days})
    when ${ends} is null then null
    else greatest(${at}, ${ends}) + make_interval(days => ${days}) end`;
}

/**
 * SET assignments (`plan`, `plan_expires_at`) for the caller's own UPDATE of the users row
 * `alias`: where `applies`, the plan is extended by `days` (a free plan becomes `paidPlan`),
 * otherwise left as it is.
 */
export function planExtensionSet(
  alias: string,
  p: { applies: SQL; days: SQL; at: SQL; paidPlan: string },
): SQL {
  const a = sql.raw(alias);
  const plan = sql`${a}.${col(users.plan)}`;
  const ends = sql`${a}.${col(users.planExpiresAt)}`;
  return sql`${col(users.plan)} = case when ${p.applies} and ${plan} = 'free' then ${p.paidPlan}
      else ${plan} end,
    ${col(users.planExpiresAt)} = case when ${p.applies}
      then ${extendedEnd(plan, ends, p.days, p.at)}
      else ${ends} end`;
}

/**
 * An UPDATE (a CTE body) extending by `days` the plan of each user `userId` names in `from`
 * (a free plan becomes `paidPlan`, an unlimited paid plan stays so); returns id, plan,
 * plan_expires_at and days.
 */
export function planExtensionUpdate(p: {
  from: SQL;
  userId: SQL;
  days: SQL;
  at: SQL;
  paidPlan: string;
}): SQL {
  const u = users;
  return sql`update ${u} set
      ${col(u.plan)} = case when ${u.plan} = 'free' then ${p.paidPlan} else ${u.plan} end,
      ${col(u.planExpiresAt)} = ${extendedEnd(sql`${u.plan}`, sql`${u.planExpiresAt}`, p.days, p.at)},
      ${col(u.updatedAt)} = ${p.at}
    from ${p.from} where ${u.id} = ${p.userId}
    returning ${u.id}, ${u.plan}, ${u.planExpiresAt}, ${p.days} as days`;
}
