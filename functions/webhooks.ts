import { webhooksRoutes } from "../src/groups/webhooks";
import { createWorker } from "../src/runtime/worker";

/** Worker `webhooks` (wrangler.toml [env.webhooks]): inbound webhooks from messaging platforms. */
export default createWorker(webhooksRoutes);
