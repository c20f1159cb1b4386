import { ApiError, unavailable } from "../../../http/errors";
import type { Deps } from "../../../ports";
import { StripeWebhookError, type StripeWebhookEvent } from "../../../providers/payment/stripe";
import { cancelPendingOrder, type FulfilResult, recordPaymentEvent } from "./orders";

/**
 * Stripe webhook (card payments): verified over the raw body, then recorded under
 * (stripe, event id) so a redelivery is a no-op. Paid sessions fulfil their order through the
 * same payment_fulfil as gateway callbacks; expired sessions cancel a still-pending order;
 * anything else is recorded and ignored.
 */
export async function handleStripeWebhook(
  deps: Deps,
  rawBody: string,
  signatureHeader: string | undefined,
): Promise<FulfilResult> {
  const stripe = deps.payments.stripe;
  if (!stripe) throw unavailable("Card payments are not configured");
  let event: StripeWebhookEvent;
  try {
    event = await stripe.verifyWebhook(rawBody, signatureHeader, deps.clock.now());
  } catch (error) {
    if (!(error instanceof StripeWebhookError)) throw error;
    deps.logger.warn("stripe webhook rejected", { reason: error.reason });
    throw new ApiError(400, error.message);
  }
  const paid =
    (event.type === "checkout.session.completed" && event.paymentStatus === "paid") ||
    event.type === "checkout.session.async_payment_succeeded";
  const payment =
    paid && event.amountTotal !== undefined && event.currency !== undefined
      ? {
          tradeNo: event.paymentIntentId ?? null,
          amount: event.amountTotal,
          currency: event.currency.toUpperCase(),
          paidAt: deps.clock.now(),
        }
      : undefined;
  const result = await recordPaymentEvent(deps, {
    provider: "stripe",
    eventId: event.id,
    type: event.type,
    orderNo: event.orderNo ?? null,
    payload: event,
    payment,
  });
  if (event.type === "checkout.session.expired" && event.orderNo && result === "ignored") {
    await cancelPendingOrder(deps, event.orderNo, "stripe");
  }
  return result;
}
