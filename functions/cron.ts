import { createWorker } from "../src/runtime/worker";

/** Worker `cron` (wrangler.toml [env.cron]): scheduled jobs; its cron triggers match src/jobs/schedules.ts. */
export default createWorker(["cron"]);
