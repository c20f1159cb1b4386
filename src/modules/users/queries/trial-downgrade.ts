import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { subscriptions, users } from "../../../db/schema";
import { col } from "../../../db/sql";
import { notificationInsert } from "../../notifications/queries/insert";

/**
 * One batch of the hourly plan downgrade (src/jobs/tasks.ts downgradeExpiredPlans): users on a
 * paid plan (trial included) whose plan ended and who have no running subscription go back to
 * free, with a notification in the same statement. The dedupe key names the episode (the plan
 * end), so a rerun or a parallel run never notifies twice. A trial is a plan end of a user who
 * never paid for a subscription; otherwise it is a subscription end.
 *
 * `for no key update` (not `for update`): the statement changes no key column of users, and the
 * weaker lock does not conflict with the `for key share` a foreign key check takes, so a user
 * inserting a customer or a notification meanwhile does not wait. `skip locked`: a row a user
 * is changing is left for the next run. `selected` counts the due users the batch took. Soonest
 * ended first, read from users_paid_plan_expiry_idx: a batch reads its own rows, not the table.
 * Whether it was a trial is a lateral probe with a limit: as a `not exists` it was planned as a
 * hash of every subscription, built by every batch (~3 ms each at 10,000 subscriptions).
 */
export async function downgradeExpiredPlansBatch(
  db: Db,
  params: { now: string; batchSize: number },
): Promise<{ selected: number; downgraded: number }> {
  const at = sql`${params.now}::timestamptz`;
  const u = alias(users, "u");
  const s = alias(subscriptions, "s");
  const [row] = await queryRows<{ selected: number; downgraded: number }>(
    db,
    sql`with due as (
        select ${u.id}, ${u.plan}, ${u.planExpiresAt}, paid.user_id is null as was_trial
        from ${users} ${u}
        left join lateral (select ${s.userId} from ${subscriptions} ${s}
                           where ${s.userId} = ${u.id} and ${s.billingCycle} in ('monthly', 'yearly')
                           limit 1) paid on true
        where ${u.plan} <> 'free' and ${u.planExpiresAt} <= ${at}
          and not exists (select 1 from ${subscriptions} ${s} where ${s.userId} = ${u.id}
                          and ${s.cancelledAt} is null and ${s.startsAt} <= ${at}
                          and ${s.endsAt} > ${at})
        order by ${u.planExpiresAt}, ${u.id}
        limit ${params.batchSize}
        for no key update of ${u} skip locked),
      downgraded as (
        update ${users} ${u} set ${col(users.plan)} = 'free', ${col(users.planExpiresAt)} = null,
          ${col(users.updatedAt)} = ${at}
        from due where ${u.id} = due.id and ${u.plan} <> 'free' and ${u.planExpiresAt} <= ${at}
        returning ${u.id}, due.plan, due.plan_expires_at, due.was_trial),
      notice as (${notificationInsert(
        sql`n.kind`,
        sql`select d.id as user_id,
          case when d.was_trial then 'trial_ended' else 'subscription_ended' end as kind,
          case when d.was_trial then 'Your free trial has ended'
               else 'Your subscription has ended' end as title,
          case when d.was_trial
               then 'Your trial of the ' || d.plan || ' plan ended; you are on the free plan now. Subscribe to keep the paid features.'
               else 'Your ' || d.plan || ' subscription ended; you are on the free plan now. Renew to keep the paid features.' end
            as body,
          jsonb_build_object('plan', d.plan, 'ended_at', d.plan_expires_at) as data,
          case when d.was_trial then 'trial_ended:' else 'subscription_ended:' end
            || (extract(epoch from d.plan_expires_at) * 1000)::bigint as dedupe_key
        from downgraded d`,
        at,
      )})
      select (select count(*)::int from due) as selected,
        (select count(*)::int from downgraded) as downgraded`,
  );
  return { selected: row?.selected ?? 0, downgraded: row?.downgraded ?? 0 };
}
