import { cronRoutes } from "../src/groups/cron";
import { tasksForCron } from "../src/jobs/schedules";
import { runScheduledTasks } from "../src/jobs/tasks";
import { createStripeProvider } from "../src/providers/payment/stripe";
import { createWorker } from "../src/runtime/worker";

/** Worker `cron` (wrangler.toml [env.cron]): scheduled jobs; its cron triggers match src/jobs/schedules.ts. */
export default createWorker(cronRoutes, {
  // A fired trigger stands for the tasks that share its expression, run in schedule order.
  onCron: (deps, cron) => runScheduledTasks(deps, tasksForCron(cron)),
  // Pending card refunds are reconciled on a schedule.
  stripe: createStripeProvider,
});
