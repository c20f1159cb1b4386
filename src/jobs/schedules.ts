/**
 * When each scheduled task runs, as cron expressions (UTC). On Workers these are the cron triggers
 * of `functions/cron.ts`: wrangler.toml's `[env.cron.triggers] crons` must list exactly the
 * distinct values (the Worker maps a fired expression back to its tasks by equality). On Node the
 * scheduler (src/runtime/node/scheduler.ts) runs the same expressions with croner. The hourly
 * account tasks share one expression so the whole set fits the five cron triggers of Cloudflare's
 * free plan; they run in this order, each idempotent.
 */
export const CRON_SCHEDULES = {
  /** Every minute: pending orders past their payment window become expired. */
  expireOrders: "* * * * *",
  /** Every minute: credit holds whose heartbeat stopped a minute ago are refunded. */
  refundStaleHolds: "* * * * *",
  /** Every minute: agent runs whose worker died (lease expired) or never started go again. */
  sweepAgents: "* * * * *",
  /** Every minute: discovery jobs whose worker died (lease expired) or never started go again. */
  sweepDiscoveryJobs: "* * * * *",
  /** Every minute: refunds left pending (settled later, or their answer lost) are asked again. */
  reconcileRefunds: "* * * * *",
  /** Hourly: allowance lots past their expiry are written off. */
  expireCredits: "0 * * * *",
  /** Hourly: running subscriptions get the allowance of the month they are in. */
  grantAllowances: "0 * * * *",
  /** Hourly: accounts whose trial or subscription ended go back to the free plan. */
  trialDowngrade: "0 * * * *",
  /** Hourly at :50: silent customers and due follow-ups, one digest per seller per day. */
  customerReminders: "50 * * * *",
  /** Daily at 15:30 UTC, after the ECB publishes its reference rates (about 16:00 CET). */
  refreshRates: "30 15 * * *",
  /** Daily at 03:45 UTC: expired idempotency keys and payment nonces are deleted. */
  purgeExpired: "45 3 * * *",
  /**
   * Daily at 03:45 UTC, after purgeExpired: held customers past their organisation's
   * pool.recycle_after_days go back to the pool, warnings first (customers/pool/recycle.ts).
   */
  poolRecycle: "45 3 * * *",
} as const;

export type CronTask = keyof typeof CRON_SCHEDULES;
const CRON_TASKS = Object.keys(CRON_SCHEDULES) as CronTask[];

/** The distinct expressions (several tasks may share one). */
export const CRON_EXPRESSIONS = [...new Set(Object.values(CRON_SCHEDULES))];

/** The tasks a fired cron expression stands for, in CRON_SCHEDULES order. */
export function tasksForCron(cron: string): CronTask[] {
  return CRON_TASKS.filter((task) => CRON_SCHEDULES[task] === cron);
}
