import { createApp } from "../../src/app";
import { requireAuth } from "../../src/http/auth";
import { unavailable } from "../../src/http/errors";
import { idempotentRequest } from "../../src/http/idempotency";
import { createRouter } from "../../src/http/router";
import {
  type CreditOperation,
  chargeCredits,
  refundCharge,
} from "../../src/modules/credits/service";
import type { Deps } from "../../src/ports";

/**
 * The real app plus one billable route shaped like the product's (charge, call a provider,
 * refund on failure), so credit behaviour is tested over HTTP before the AI modules exist.
 */
export function appWithBillableRoute(deps: Deps) {
  const app = createApp(deps);
  const router = createRouter();
  router.post("/test/billable", requireAuth, idempotentRequest, async (c) => {
    const body = (await c.req.json()) as { operation?: CreditOperation; fail?: boolean };
    const charge = await chargeCredits(c.get("deps"), {
      userId: c.get("auth").userId,
      operation: body.operation ?? "quotation_from_inquiry",
      idempotencyKey: c.req.header("Idempotency-Key"),
    });
    if (body.fail) {
      await refundCharge(c.get("deps"), charge, "provider failed");
      throw unavailable("The provider is unavailable; your credits were returned");
    }
    return c.json(
      { charged: charge.cost, balance: charge.balance, consumption_id: charge.consumptionId },
      200,
    );
  });
  app.route("/", router);
  return app;
}
