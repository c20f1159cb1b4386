/**
 * When each scheduled job runs, as cron expressions (UTC). On Workers these are the cron triggers
 * of `functions/cron.ts`: wrangler.toml's `[env.cron.triggers] crons` must list exactly these
 * values (the Worker maps a fired expression back to its task by equality).
 */
export const CRON_SCHEDULES = {
  /** Hourly: accounts whose trial ended go back to the free plan. */
  trialDowngrade: "0 * * * *",
  /** Daily at 01:00 UTC: customers that went quiet are flagged for follow-up. */
  silenceDetection: "0 1 * * *",
} as const;

export type CronTask = keyof typeof CRON_SCHEDULES;

/** The tasks a fired cron expression stands for (several tasks may share one expression). */
export function tasksForCron(cron: string): CronTask[] {
  return (Object.keys(CRON_SCHEDULES) as CronTask[]).filter(
    (task) => CRON_SCHEDULES[task] === cron,
  );
}
