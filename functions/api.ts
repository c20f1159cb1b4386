import { apiRoutes } from "../src/groups/api";
import { createWorker } from "../src/runtime/worker";

/** Worker `api` (wrangler.toml [env.api]): the seller-facing API (AI tools, customers, credits). */
export default createWorker(apiRoutes);
