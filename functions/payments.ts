import { paymentsRoutes } from "../src/groups/payments";
import { createStripeProvider } from "../src/providers/payment/stripe";
import { createWorker } from "../src/runtime/worker";

/** Worker `payments` (wrangler.toml [env.payments]): payment orders and gateway callbacks. */
export default createWorker(paymentsRoutes, { stripe: createStripeProvider });
