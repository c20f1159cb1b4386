import { sql } from "drizzle-orm";
import { sumOverUserBatches, TASK_BATCH_SIZE } from "../db/batches";
import { queryRows } from "../db/client";
import type { Deps } from "../deps";
import { nowIso } from "../lib/clock";
import { sweepAgentPipelines } from "../modules/agent/dispatch";
import { purgeSessionRevocations } from "../modules/auth/revocations";
import { refundStaleHolds } from "../modules/credits/holds";
import { purgeExpiredIdempotencyKeys } from "../modules/credits/idempotency";
import { expireDueCredits } from "../modules/credits/service";
import { notifyCustomerReminders } from "../modules/customers/reminders";
import { sweepDiscoveryJobs } from "../modules/discovery/jobs";
import { refreshExchangeRates } from "../modules/exchange/service";
import { expirePendingOrders } from "../modules/payments/orders";
import { reconcilePendingRefunds } from "../modules/payments/refunds";
import type { CronTask } from "./schedules";

/**
 * The scheduled tasks: plain functions over deps, each idempotent (a rerun, or two instances
 * running the same task at once, changes nothing more), reading "now" from deps.clock.
 */

/**
 * Grants each running subscription the allowance of the month it is in (once per month). Each
 * grant locks the user's balance row until its statement commits, so users go in batches of
 * TASK_BATCH_SIZE (in id order, resuming after the last one) and a user's own charge waits on
 * one batch at most, never on the whole run.
 */
export async function grantSubscriptionAllowances(
  deps: Deps,
): Promise<{ users: number; credits: number }> {
  const now = sql`${nowIso(deps)}::timestamptz`;
  const { users, total } = await sumOverUserBatches(
    deps.db,
    (after) => sql`select distinct user_id from subscriptions
      where cancelled_at is null and monthly_credits > 0 and starts_at <= ${now}
        and ends_at > ${now} and user_id > ${after}
      order by user_id limit ${TASK_BATCH_SIZE}`,
    sql`subscription_grant_allowances(due.user_id, ${now})`,
  );
  return { users, credits: total };
}

/**
 * Users on a paid plan (trial included) whose plan ended and who have no running subscription
 * go back to free, with a notification in the same statement. The dedupe key names the episode
 * (the plan end), so a rerun or a parallel run never notifies twice. A trial is a plan end of a
 * user who never paid for a subscription; otherwise it is a subscription end.
 */
export async function downgradeExpiredPlans(deps: Deps): Promise<{ downgraded: number }> {
  let downgraded = 0;
  for (;;) {
    const batch = await downgradeBatch(deps);
    downgraded += batch.downgraded;
    // A short batch means no due row is left unlocked; one a user holds is next run's.
    if (batch.selected < TASK_BATCH_SIZE) return { downgraded };
  }
}

/**
 * One batch of downgradeExpiredPlans. `for no key update` (not `for update`): the statement
 * changes no key column of users, and the weaker lock does not conflict with the `for key
 * share` a foreign key check takes, so a user inserting a customer or a notification meanwhile
 * does not wait. `skip locked`: a row a user is changing is left for the next run.
 */
async function downgradeBatch(deps: Deps): Promise<{ selected: number; downgraded: number }> {
  const now = nowIso(deps);
  const at = sql`${now}::timestamptz`;
  const [row] = await queryRows<{ selected: number; downgraded: number }>(
    deps.db,
    sql`with due as (
        select u.id, u.plan, u.plan_expires_at,
          not exists (select 1 from subscriptions s where s.user_id = u.id
                      and s.billing_cycle in ('monthly', 'yearly')) as was_trial
        from users u
        where u.plan <> 'free' and u.plan_expires_at <= ${at}
          and not exists (select 1 from subscriptions s where s.user_id = u.id
                          and s.cancelled_at is null and s.starts_at <= ${at} and s.ends_at > ${at})
        order by u.id
        limit ${TASK_BATCH_SIZE}
        for no key update of u skip locked),
      downgraded as (
        update users u set plan = 'free', plan_expires_at = null, updated_at = ${at}
        from due where u.id = due.id and u.plan <> 'free' and u.plan_expires_at <= ${at}
        returning u.id, due.plan, due.plan_expires_at, due.was_trial),
      notice as (
        insert into notifications (user_id, kind, title, body, data, dedupe_key, created_at)
        select d.id,
          case when d.was_trial then 'trial_ended' else 'subscription_ended' end,
          case when d.was_trial then 'Your free trial has ended'
               else 'Your subscription has ended' end,
          case when d.was_trial
               then 'Your trial of the ' || d.plan || ' plan ended; you are on the free plan now. Subscribe to keep the paid features.'
               else 'Your ' || d.plan || ' subscription ended; you are on the free plan now. Renew to keep the paid features.' end,
          jsonb_build_object('plan', d.plan, 'ended_at', d.plan_expires_at),
          case when d.was_trial then 'trial_ended:' else 'subscription_ended:' end
            || (extract(epoch from d.plan_expires_at) * 1000)::bigint,
          ${at}
        from downgraded d
        on conflict (user_id, dedupe_key) do nothing)
      select (select count(*)::int from due) as selected,
        (select count(*)::int from downgraded) as downgraded`,
  );
  return { selected: row?.selected ?? 0, downgraded: row?.downgraded ?? 0 };
}

/** Deletes idempotency keys, payment nonces and session revocations past their use. */
export async function purgeExpired(deps: Deps): Promise<{ nonces: number; sessions: number }> {
  await purgeExpiredIdempotencyKeys(deps);
  const sessions = await purgeSessionRevocations(deps);
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`with gone as (delete from payment_nonces where expires_at <= ${nowIso(deps)}::timestamptz
                      returning 1)
        select count(*)::int as n from gone`,
  );
  return { nonces: row?.n ?? 0, sessions };
}

const SCHEDULED_TASKS: Record<CronTask, (deps: Deps) => Promise<unknown>> = {
  expireOrders: async (deps) => ({ expired: await expirePendingOrders(deps) }),
  refundStaleHolds,
  sweepAgents: sweepAgentPipelines,
  sweepDiscoveryJobs,
  reconcileRefunds: reconcilePendingRefunds,
  trialDowngrade: downgradeExpiredPlans,
  expireCredits: expireDueCredits,
  grantAllowances: grantSubscriptionAllowances,
  purgeExpired,
  customerReminders: notifyCustomerReminders,
  // Without a configured provider this reports `skipped`; the stored rates stay.
  refreshRates: (deps) => refreshExchangeRates(deps),
};

export interface TaskOutcome {
  task: CronTask;
  ok: boolean;
  ms: number;
  result?: unknown;
}

/**
 * Runs the named tasks one after another; one failing is logged and does not stop the rest
 * (each is retried by its next run anyway). Never throws.
 */
export async function runScheduledTasks(
  deps: Deps,
  names: readonly CronTask[],
): Promise<TaskOutcome[]> {
  const outcomes: TaskOutcome[] = [];
  for (const task of names) {
    const started = performance.now();
    try {
      const result = await SCHEDULED_TASKS[task](deps);
      const ms = Math.round(performance.now() - started);
      deps.logger.info("scheduled task done", { task, ms, result });
      outcomes.push({ task, ok: true, ms, result });
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      deps.logger.error("scheduled task failed", { task, ms, error: String(error) });
      outcomes.push({ task, ok: false, ms });
    }
  }
  return outcomes;
}
