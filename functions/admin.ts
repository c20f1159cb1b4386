import { adminRoutes } from "../src/groups/admin";
import { createStripeProvider } from "../src/providers/payment/stripe";
import { createWorker } from "../src/runtime/worker";

/** Worker `admin` (wrangler.toml [env.admin]): the admin API (plans, users, provider settings). */
export default createWorker(adminRoutes, { stripe: createStripeProvider }); // order refunds
