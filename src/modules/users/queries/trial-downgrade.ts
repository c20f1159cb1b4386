import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ASYNC_COMMIT } from "../../../db/batches";
import { type Db, queryRowsPrepared } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import { orgMembers, orgs, subscriptions } from "../../../db/schema";
import { notificationInsert } from "../../notifications/queries/insert";
import { expiredPlanDowngrade } from "../../orgs/queries/plan";

/** The due organisations of a batch, read by the downgrade orgs owns. */
const due = defineCte("due", ["id", "plan", "plan_expires_at", "was_trial"]);

/**
 * One batch of the hourly plan downgrade (src/jobs/tasks.ts downgradeExpiredPlans):
 * organisations on a paid plan (trial included) whose plan ended and that run no subscription
 * (whoever paid it) go back to free, with a notification to the owner and the admins in
 * the same statement. The dedupe key names the episode (the plan end), so a rerun or a parallel
 * run never notifies twice. A trial is a plan end of an organisation nobody ever paid a
 * subscription for; otherwise it is a subscription end.
 *
 * `for no key update` (not `for update`): the statement changes no key column of orgs, and the
 * weaker lock does not conflict with the `for key share` a foreign key check takes, so a member
 * inserting a customer meanwhile does not wait. `skip locked`: a row being changed is left for
 * the next run. `selected` counts the due organisations the batch took. Soonest ended first,
 * read from orgs_paid_plan_expiry_idx: a batch reads its own rows, not the table. Whether it was
 * a trial is a lateral probe with a limit (as a `not exists` it was planned as a hash of every
 * subscription, built by every batch).
 */
export async function downgradeExpiredPlansBatch(
  db: Db,
  params: { now: string; batchSize: number },
): Promise<{ selected: number; downgraded: number }> {
  const at = sql`${params.now}::timestamptz`;
  const o = alias(orgs, "o");
  const m = alias(orgMembers, "m");
  const s = alias(subscriptions, "s");
  // A named statement (its values all parameters): a run sends it hundreds of times, and its
  // planning was a fixed part of every batch.
  const [row] = await queryRowsPrepared<{ selected: number; downgraded: number }>(
    db,
    sql`with ${due.as(sql`
        select ${o.id}, ${o.plan}, ${o.planExpiresAt}, paid.user_id is null as was_trial
        from ${orgs} ${o}
        left join lateral (select ${s.userId} from ${subscriptions} ${s}
                           where ${s.orgId} = ${o.id} and ${s.billingCycle} in ('monthly', 'yearly')
                           limit 1) paid on true
        where ${o.plan} <> 'free' and ${o.planExpiresAt} <= ${at}
          and not exists (select 1 from ${subscriptions} ${s}
                          where ${s.orgId} = ${o.id} and ${s.cancelledAt} is null
                            and ${s.startsAt} <= ${at} and ${s.endsAt} > ${at})
        order by ${o.planExpiresAt}, ${o.id}
        limit ${params.batchSize}
        for no key update of ${o} skip locked`)},
      downgraded as (${expiredPlanDowngrade(due, at)}),
      notice as (${notificationInsert(
        sql`n.kind`,
        sql`select ${m.userId} as user_id,
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
        from downgraded d join ${orgMembers} ${m} on ${m.orgId} = d.id
        where ${m.role} in ('owner', 'admin')`,
        at,
      )})
      select (select count(*)::int from ${due}) as selected,
        (select count(*)::int from downgraded) as downgraded,
        ${ASYNC_COMMIT}`,
  );
  return { selected: row?.selected ?? 0, downgraded: row?.downgraded ?? 0 };
}
