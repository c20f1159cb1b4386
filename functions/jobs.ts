import { jobsRoutes } from "../src/groups/jobs";
import { createWorker } from "../src/runtime/worker";

/** Worker `jobs` (wrangler.toml [env.jobs]): background job deliveries (QStash, signature verified). */
export default createWorker(jobsRoutes);
