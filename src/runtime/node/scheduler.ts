import { Cron } from "croner";
import { CRON_EXPRESSIONS, tasksForCron } from "../../jobs/schedules";
import { runScheduledTasks } from "../../jobs/tasks";
import type { Deps } from "../../ports";

export interface Scheduler {
  /** Stops the timers and waits for any run in progress (so the database can be closed). */
  stop(): Promise<void>;
}

/**
 * The Node side of the scheduled jobs: one croner job per CRON_SCHEDULES expression (UTC), each
 * running that expression's tasks. A run still going when its next time comes is skipped
 * (`protect`). Several Node instances may each run the scheduler: every task is idempotent.
 */
export function startScheduler(deps: Deps): Scheduler {
  const running = new Set<Promise<unknown>>();
  const jobs = CRON_EXPRESSIONS.map(
    (expression) =>
      new Cron(expression, { timezone: "UTC", protect: true }, async () => {
        const run = runScheduledTasks(deps, tasksForCron(expression));
        running.add(run);
        await run.finally(() => running.delete(run));
      }),
  );
  deps.logger.info("scheduler started", {
    jobs: jobs.map((job) => ({
      cron: job.getPattern(),
      next: job.nextRun()?.toISOString() ?? null,
    })),
  });
  return {
    async stop() {
      for (const job of jobs) job.stop();
      await Promise.allSettled([...running]);
    },
  };
}
