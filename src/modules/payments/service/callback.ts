import type { Deps } from "../../../ports";
import {
  CALLBACK_ACK,
  CallbackVerificationError,
  type GatewayCallback,
  verifyGatewayCallback,
} from "../../../providers/payment/gateway";
import { recordNonce, refundMatches } from "../queries";
import {
  cancelPendingOrder,
  type FulfilResult,
  recordPaymentEvent,
  sandboxEnabled,
} from "./orders";
import { applyRefund } from "./refunds";

/** The path the gateway (and the sandbox) signs callbacks for: our notify_url. */
export const CALLBACK_PATH = "/api/v1/payments/callback";

export interface RawCallback {
  method: string;
  /** Path and query exactly as received (what the sender signed). */
  path: string;
  headers: Headers;
  rawBody: string;
}

export type CallbackOutcome =
  | { status: 200; body: typeof CALLBACK_ACK; result: FulfilResult }
  | { status: 400 | 401; body: { code: "FAIL"; detail: string }; result: null };

const REJECT_DETAIL: Record<CallbackVerificationError["reason"], string> = {
  missing_header: "Callback authentication headers are missing or malformed",
  bad_merchant: "Unknown merchant",
  stale_timestamp: "Callback timestamp is too old",
  future_timestamp: "Callback timestamp is in the future",
  bad_signature: "Callback signature does not match",
  replayed_nonce: "Callback nonce was already used",
  malformed_body: "Callback body is malformed",
};

/**
 * Records a callback nonce atomically; true when it had been seen. Nonces past their expiry
 * (timestamp + tolerance, after which the timestamp check alone refuses a replay) are swept a
 * few at a time by the same statement.
 */
function nonceStore(deps: Deps) {
  return (nonce: string, expiresAt: Date): Promise<boolean> =>
    recordNonce(deps.db, {
      nonce,
      expiresAt: expiresAt.toISOString(),
      now: deps.clock.now().toISOString(),
    });
}

/**
 * The single gateway callback (subscription and credit orders, real gateway or sandbox):
 * verify over the raw body (headers, merchant, time window, signature, nonce, then parse),
 * then apply the event idempotently. A verified event is always acknowledged, whatever its
 * result: retrying an amount mismatch or an unknown order would not make it valid.
 */
export async function handleGatewayCallback(
  deps: Deps,
  request: RawCallback,
): Promise<CallbackOutcome> {
  // No gateway and no sandbox (production's default): there is no key anyone may sign with, so
  // nothing is verified at all and no order can be paid through this door.
  if (!deps.payments.gateway && !sandboxEnabled(deps)) {
    deps.logger.warn("payment callback rejected", { reason: "not_configured" });
    return {
      status: 401,
      body: { code: "FAIL", detail: "No payment gateway is configured" },
      result: null,
    };
  }
  let event: GatewayCallback;
  try {
    event = await verifyGatewayCallback({
      signingKey: deps.payments.signingKey,
      merchantId: deps.payments.merchantId,
      method: request.method,
      path: request.path,
      headers: request.headers,
      rawBody: request.rawBody,
      now: deps.clock.now(),
      seenNonce: nonceStore(deps),
    });
  } catch (error) {
    if (!(error instanceof CallbackVerificationError)) throw error;
    deps.logger.warn("payment callback rejected", { reason: error.reason });
    return {
      status: error.reason === "malformed_body" ? 400 : 401,
      body: { code: "FAIL", detail: REJECT_DETAIL[error.reason] },
      result: null,
    };
  }
  const result = await applyGatewayEvent(deps, event);
  return { status: 200, body: CALLBACK_ACK, result };
}

/** Applies a verified gateway event; the (provider, event_id) key makes a repeat a no-op. */
async function applyGatewayEvent(deps: Deps, event: GatewayCallback): Promise<FulfilResult> {
  const provider = deps.payments.gateway ? "gateway" : "sandbox";
  const result = await recordPaymentEvent(deps, {
    provider,
    eventId: event.event_id,
    type: event.type,
    orderNo: event.out_trade_no,
    payload: event,
    payment:
      event.type === "payment.succeeded"
        ? {
            tradeNo: event.trade_no,
            amount: event.amount,
            currency: event.currency,
            paidAt: new Date(event.paid_at),
          }
        : undefined,
  });
  // A close only ever moves a pending order; a paid one stays paid (late closes are normal).
  if (event.type === "payment.closed" && result === "ignored") {
    await cancelPendingOrder(deps, event.out_trade_no, provider);
  }
  // A refund the gateway settled later (the admin got 202): apply it now, once, if it is ours
  // as the event describes it (docs/payment-gateway.md: match order, refund and amount).
  if (event.type === "refund.succeeded" && result === "ignored") {
    const matches = await refundMatches(deps.db, {
      refundNo: event.out_refund_no,
      orderNo: event.out_trade_no,
      amount: event.amount,
      provider,
    });
    if (matches) {
      await applyRefund(deps, event.out_refund_no, null);
    } else {
      deps.logger.warn("refund event not applied", {
        order_no: event.out_trade_no,
        refund_no: event.out_refund_no,
        result: "refund_mismatch",
      });
    }
  }
  return result;
}
