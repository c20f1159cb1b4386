import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { orgMembers, orgs, subscriptionPlans, subscriptions } from "../../../db/schema";
import { columnList, type DbRow } from "../../../db/sql";
import { effectivePlanSql } from "../../entitlements/queries";
import { cancelAtPeriodEndSql } from "../../payments/queries/cancel-at-period-end";
import { trialActiveSql } from "../trial";

type SubscriptionRow = DbRow<typeof subscriptions>;
type Nullable<T> = { [K in keyof T]: T[K] | null };

type SubscriptionStateRow = Pick<DbRow<typeof orgs>, "plan_expires_at" | "trial_ends_at"> & {
  plan: string;
  plan_name: DbRow<typeof subscriptionPlans>["name"] | null;
  /** Only running paid rows are read: never `referral`. */
  billing_cycle: Exclude<SubscriptionRow["billing_cycle"], "referral"> | null;
  period_start: SubscriptionRow["starts_at"] | null;
  period_end: SubscriptionRow["ends_at"] | null;
  paid_until: SubscriptionRow["ends_at"] | null;
} & Nullable<Pick<SubscriptionRow, "cancel_at_period_end" | "cancel_requested_at">>;

/**
 * The plan in effect at `at` of a user's organisation with its running paid rows (monthly or
 * yearly, not refunded, not ended, bought for it by any member): the one covering `at` (the current
 * period) and the last one (where the paid time ends and whether the payer cancelled).
 * Undefined for an unknown user.
 */
export async function getSubscriptionState(
  db: Db,
  params: { userId: string; at: SQL },
): Promise<SubscriptionStateRow | undefined> {
  const { at } = params;
  const m = alias(orgMembers, "m");
  const o = alias(orgs, "o");
  const s = alias(subscriptions, "s");
  const p = alias(subscriptionPlans, "p");
  const [row] = await queryRows<SubscriptionStateRow>(
    db,
    sql`with u as (
        select ${o.id} as org_id, ${o.planExpiresAt}, ${o.trialEndsAt},
          ${effectivePlanSql(o.plan, o.planExpiresAt, at)} as plan
        from ${orgMembers} ${m} join ${orgs} ${o} on ${o.id} = ${m.orgId}
        where ${m.userId} = ${params.userId}),
      running as (
        select ${columnList([s.id, s.billingCycle, s.startsAt, s.endsAt, s.cancelAtPeriodEnd, s.cancelRequestedAt])}
        from u join ${subscriptions} ${s} on ${s.orgId} = u.org_id
        where ${s.planCode} = u.plan and ${s.billingCycle} in ('monthly', 'yearly')
          and ${s.cancelledAt} is null and ${s.endsAt} > ${at}),
      current as (
        select * from running where starts_at <= ${at} order by starts_at desc, id limit 1),
      last as (select * from running order by ends_at desc, id limit 1)
      select u.plan, ${p.name} as plan_name, u.plan_expires_at, u.trial_ends_at,
        coalesce(current.billing_cycle, last.billing_cycle) as billing_cycle,
        coalesce(current.starts_at, last.starts_at) as period_start,
        coalesce(current.ends_at, last.ends_at) as period_end,
        last.ends_at as paid_until, last.cancel_at_period_end, last.cancel_requested_at
      from u left join ${subscriptionPlans} ${p} on ${p.code} = u.plan
        left join current on true left join last on true`,
  );
  return row;
}

/**
 * Marks every running paid row of the user to cancel at period end (payments' fragment), in
 * one statement that also says how many were running and whether the user's organisation is on
 * a trial.
 */
export async function cancelRunningSubscriptions(
  db: Db,
  params: { userId: string; at: SQL },
): Promise<{ running: number; on_trial: boolean; marked: number } | undefined> {
  const { at } = params;
  const m = alias(orgMembers, "m");
  const o = alias(orgs, "o");
  const [row] = await queryRows<{ running: number; on_trial: boolean; marked: number }>(
    db,
    sql`with ${cancelAtPeriodEndSql(params)}
      select (select count(*) from running)::int as running,
        exists (select 1 from ${orgMembers} ${m} join ${orgs} ${o} on ${o.id} = ${m.orgId}
                where ${m.userId} = ${params.userId} and ${trialActiveSql(o, at)}) as on_trial,
        (select count(*) from marked)::int as marked`,
  );
  return row;
}
