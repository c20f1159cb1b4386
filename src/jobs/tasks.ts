import { inTimedBatches } from "../db/batches";
import { nowIso } from "../lib/clock";
import { sweepAgentPipelines } from "../modules/agent/service";
import { purgeSessionRevocations } from "../modules/auth/revocations";
import { refundStaleHolds } from "../modules/credits/holds";
import { purgeExpiredIdempotencyKeys } from "../modules/credits/idempotency";
import { purgeExpiredQuotes } from "../modules/credits/quotes";
import { expireDueCredits } from "../modules/credits/service";
import { recyclePoolCustomers } from "../modules/customers/pool/recycle";
import { notifyCustomerReminders } from "../modules/customers/reminders";
import { sweepDiscoveryJobs } from "../modules/discovery/jobs";
import { scheduledRatesRefresh } from "../modules/exchange/service";
import { purgeExpiredNonces } from "../modules/payments/queries/nonce-cleanup";
import { grantRunningAllowances } from "../modules/payments/queries/subscription-allowances";
import { expirePendingOrders } from "../modules/payments/service/orders";
import { reconcilePendingRefunds } from "../modules/payments/service/refunds";
import { purgeUnknownLoginFailures } from "../modules/users/queries/sign-in";
import { downgradeExpiredPlansBatch } from "../modules/users/queries/trial-downgrade";
import type { Deps } from "../ports";
import type { CronTask } from "./schedules";

/**
 * The scheduled tasks: plain functions over deps, each idempotent (a rerun, or two instances
 * running the same task at once, changes nothing more), reading "now" from deps.clock.
 */

/**
 * Grants each running subscription the allowance of the month it is in (once per month);
 * `grants` counts the subscriptions granted by this run.
 */
export async function grantSubscriptionAllowances(
  deps: Deps,
): Promise<{ grants: number; credits: number }> {
  const { grants, total } = await grantRunningAllowances(deps.db, { now: nowIso(deps) });
  return { grants, credits: total };
}

/**
 * Users on a paid plan (trial included) whose plan ended and who have no running subscription
 * go back to free, with a notification (users/trial-downgrade.ts), in short timed batches
 * (db/batches.ts): a user's own write waits on one batch at most.
 */
export async function downgradeExpiredPlans(deps: Deps): Promise<{ downgraded: number }> {
  let downgraded = 0;
  await inTimedBatches(async (batchSize) => {
    const batch = await downgradeExpiredPlansBatch(deps.db, { now: nowIso(deps), batchSize });
    downgraded += batch.downgraded;
    // A short batch means no due row is left unlocked; one a user holds is next run's.
    return batch.selected;
  });
  return { downgraded };
}

/**
 * Deletes idempotency keys, payment nonces, session revocations and unknown-address login
 * failures past their use.
 */
export async function purgeExpired(deps: Deps): Promise<{ nonces: number; sessions: number }> {
  await purgeExpiredIdempotencyKeys(deps);
  await purgeExpiredQuotes(deps);
  const sessions = await purgeSessionRevocations(deps);
  await purgeUnknownLoginFailures(deps.db, { now: nowIso(deps) });
  const nonces = await purgeExpiredNonces(deps.db, { now: nowIso(deps) });
  return { nonces, sessions };
}

/**
 * Holds whose instance stopped renewing them, refunded in SQL (credits/holds.ts), counted for
 * /metrics as `stale_hold`: the sweep says how many holds, not their operations or credits.
 */
async function sweepStaleHolds(deps: Deps): Promise<{ refunded: number }> {
  const result = await refundStaleHolds(deps);
  deps.metrics.refunded("stale_hold", null, result.refunded);
  return result;
}

const SCHEDULED_TASKS: Record<CronTask, (deps: Deps) => Promise<unknown>> = {
  expireOrders: async (deps) => ({ expired: await expirePendingOrders(deps) }),
  refundStaleHolds: sweepStaleHolds,
  sweepAgents: sweepAgentPipelines,
  sweepDiscoveryJobs,
  reconcileRefunds: reconcilePendingRefunds,
  trialDowngrade: downgradeExpiredPlans,
  expireCredits: expireDueCredits,
  grantAllowances: grantSubscriptionAllowances,
  purgeExpired,
  customerReminders: (deps) => notifyCustomerReminders(deps),
  poolRecycle: (deps) => recyclePoolCustomers(deps),
  // Every configured source (ECB, then the wide one); one without a URL reports `skipped`, a
  // failed one fails the run after the other ran. The stored rates stay.
  refreshRates: scheduledRatesRefresh,
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
      deps.metrics.taskRun(task, ms / 1000, true);
      deps.logger.info("scheduled task done", { task, ms, result });
      outcomes.push({ task, ok: true, ms, result });
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      deps.metrics.taskRun(task, ms / 1000, false);
      // The error itself: the logger describes it (SQLSTATE, statement kind), never its SQL.
      deps.logger.error("scheduled task failed", { task, ms, error });
      outcomes.push({ task, ok: false, ms });
    }
  }
  return outcomes;
}
