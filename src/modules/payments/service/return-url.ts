import type { Deps } from "../../../ports";
import { frontendUrl } from "../../account/links";

/** What Stripe says happened on its page; the gateway and the sandbox leave it to the order. */
export type ReturnOutcome = "success" | "cancel";

/**
 * The frontend page a payer lands on after paying (or giving up): PAYMENT_RETURN_URL, else
 * FRONTEND_URL's `/checkout/result`, with `order_no` (and Stripe's outcome) in the query. Never
 * an API URL: a browser sent there would show raw JSON, or a 401 without the session's token.
 * The page reads the order's state with GET /api/v1/payments/orders/{order_no}.
 */
export function paymentReturnUrl(
  deps: Pick<Deps, "config">,
  orderNo: string,
  outcome?: ReturnOutcome,
): string {
  const url = new URL(deps.config.PAYMENT_RETURN_URL ?? frontendUrl(deps, "/checkout/result"));
  url.searchParams.set("order_no", orderNo);
  if (outcome) url.searchParams.set("result", outcome);
  return url.toString();
}
