import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Cte } from "../../../db/cte";
import { orgMembers, orgs, systemConfig, users } from "../../../db/schema";
import { col, columnNames } from "../../../db/sql";

/**
 * The writes of an organisation's plan and of a personal organisation that ride on other
 * modules' statements (sign-in and registration, an admin's user patch, referral rewards, the
 * hourly downgrade), as fragments: the plan belongs to the organisation since issue #22, and
 * orgs owns its table (docs/adding-a-module.md, Table owners), while each change stays one
 * statement with the user change it goes with.
 */

/** Trial end from the `trial.days` system config, computed inside the statement. */
const trialEnds = (now: string) =>
  sql`${now}::timestamptz + make_interval(days => coalesce(
    (select (${systemConfig.value} #>> '{}')::int from ${systemConfig}
     where ${systemConfig.key} = 'trial.days'), 7))`;

/**
 * The personal organisation's name for the new users row `row` (an alias): the company, else
 * the name, else the address's local part (migration 0024's org_for_new_user, the same rule).
 */
const personalOrgName = (row: string) => {
  const r = sql.raw(row);
  return sql`coalesce(nullif(btrim(${r}.${col(users.company)}), ''), nullif(btrim(${r}.${col(users.name)}), ''),
    nullif(split_part(${r}.${col(users.email)}, '@', 1), ''), 'My company')`;
};

/**
 * CTEs `name` (the organisation, returning user_id and the plan columns) and `${name}_owner`
 * (the membership) of a user a sign-in inserts on the trial (the users CTE `users`): the
 * personal organisation is made here, not by the users_personal_org trigger (which skips a user
 * that has a membership by the end of the statement), because the trial belongs to it and a
 * statement cannot update a row another part of it inserted. Its id is the user's, as for the
 * accounts migration 0024 moved.
 */
export function trialOrgCtes(p: { name: string; users: string; plan: string; now: string }): SQL {
  const at = sql`${p.now}::timestamptz`;
  const om = orgMembers;
  return sql`${sql.identifier(p.name)} as (
      insert into ${orgs} (${columnNames([orgs.id, orgs.name, orgs.plan, orgs.planExpiresAt, orgs.trialEndsAt, orgs.createdAt, orgs.updatedAt])})
      select n.id, ${personalOrgName("n")}, ${p.plan}::text, ${trialEnds(p.now)}, ${trialEnds(p.now)}, ${at}, ${at}
      from ${sql.identifier(p.users)} n
      returning ${orgs.id} as user_id, ${orgs.plan}, ${orgs.planExpiresAt}, ${orgs.trialEndsAt}),
    ${sql.identifier(`${p.name}_owner`)} as (
      insert into ${om} (${columnNames([om.userId, om.orgId, om.role, om.joinedAt])})
      select user_id, user_id, 'owner', ${at} from ${sql.identifier(p.name)})`;
}

/**
 * CTE `name` of a guest made an account (registration or WeChat; the users CTE `users`): the
 * trial starts on the guest's personal organisation, renamed after the account when it still
 * carries the guest's name. Returns user_id and the plan columns.
 */
export function upgradedGuestOrgCte(p: {
  name: string;
  users: string;
  plan: string;
  now: string;
}): SQL {
  const at = sql`${p.now}::timestamptz`;
  const m = alias(orgMembers, "gm");
  const o = alias(orgs, "go");
  return sql`${sql.identifier(p.name)} as (
      update ${orgs} ${o} set ${col(o.plan)} = ${p.plan}::text,
        ${col(o.planExpiresAt)} = ${trialEnds(p.now)}, ${col(o.trialEndsAt)} = ${trialEnds(p.now)},
        ${col(o.name)} = case when ${o.name} = 'Guest' then ${personalOrgName("n")} else ${o.name} end,
        ${col(o.updatedAt)} = ${at}
      from ${sql.identifier(p.users)} n join ${orgMembers} ${m} on ${m.userId} = n.id
      where ${o.id} = ${m.orgId}
      returning n.id as user_id, ${o.plan}, ${o.planExpiresAt}, ${o.trialEndsAt})`;
}

/**
 * An UPDATE (a CTE body) of an admin's user patch: the plan and/or plan end sent set on the
 * organisation of each user `userId` names in `from` (every member gets it); returns the user's
 * id as user_id and the plan columns after the patch.
 */
export function orgPlanPatchUpdate(p: {
  from: SQL;
  userId: SQL;
  plan?: string;
  planExpiresAt?: string | null;
  at: SQL;
}): SQL {
  const og = alias(orgs, "og");
  const m = alias(orgMembers, "pm");
  const sets: SQL[] = [sql`${col(og.updatedAt)} = ${p.at}`];
  if (p.plan) sets.push(sql`${col(og.plan)} = ${p.plan}`);
  if (p.planExpiresAt !== undefined) {
    sets.push(sql`${col(og.planExpiresAt)} = ${p.planExpiresAt}::timestamptz`);
  }
  return sql`update ${orgs} ${og} set ${sql.join(sets, sql`, `)}
      from ${p.from} join ${orgMembers} ${m} on ${m.userId} = ${p.userId}
      where ${og.id} = ${m.orgId}
      returning ${p.userId} as user_id, ${og.plan}, ${og.planExpiresAt}, ${og.trialEndsAt}`;
}

/** A plan end moved by `days`: from max(now, end) on a paid plan or trial; from now when free. */
function extendedEnd(plan: SQL, ends: SQL, days: SQL, at: SQL): SQL {
  return sql`case when ${plan} = 'free' then ${at} + make_interval(days => ${days})
    when ${ends} is null then null
    else greatest(${at}, ${ends}) + make_interval(days => ${days}) end`;
}

/**
 * An UPDATE (a CTE body) extending by `days` the plan of the organisation of each user `userId`
 * names in `from` (a free plan becomes `paidPlan`, an unlimited paid plan stays so); returns
 * the user's id, the organisation's plan and plan_expires_at, and days. Growth's referral
 * rewards embed it, so a reward stays one statement with its e-mail verification.
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

/**
 * An UPDATE (a CTE body) of the hourly downgrade: the organisations of CTE `due` whose paid
 * plan still ended by `at` go back to free; returns the id and due's plan, plan_expires_at and
 * was_trial (what the owner's notification says).
 */
export function expiredPlanDowngrade(
  due: Cte<string, "id" | "plan" | "plan_expires_at" | "was_trial">,
  at: SQL,
): SQL {
  const o = alias(orgs, "o");
  return sql`update ${orgs} ${o} set ${col(orgs.plan)} = 'free', ${col(orgs.planExpiresAt)} = null,
          ${col(orgs.updatedAt)} = ${at}
        from ${due} where ${o.id} = ${due.col("id")} and ${o.plan} <> 'free' and ${o.planExpiresAt} <= ${at}
        returning ${o.id}, ${due.col("plan")}, ${due.col("plan_expires_at")}, ${due.col("was_trial")}`;
}
