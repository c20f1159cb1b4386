import { ApiError, conflict, notFound, unavailable, validationError } from "../../../http/errors";
import type { Deps } from "../../../ports";
import {
  PaymentGatewayError,
  PaymentGatewayUnavailableError,
} from "../../../providers/payment/gateway";
import { StripeUnavailableError } from "../../../providers/payment/stripe";
import { type Actor, auditCte } from "../../admin/queries/audit";
import {
  applyRefundStatement,
  createRefund,
  listDueRefunds,
  markRefundFailed,
  type OrderRow,
} from "../queries";
import { notifyRefund } from "./notices";

const REFUND_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** `RF` + 24 random characters (120 bits): unguessable, within the gateway's out_refund_no. */
function newRefundNo(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `RF${Array.from(bytes, (b) => REFUND_ALPHABET[b % REFUND_ALPHABET.length]).join("")}`;
}

export interface RefundResult {
  refund_no: string;
  order_no: string;
  amount: number;
  status: "succeeded" | "pending";
  credits_reversed: number;
  order_status: OrderRow["status"];
  refunded_amount: number;
}

type ProviderOutcome = "succeeded" | "pending" | "failed";

/** Asks the order's provider to pay the money back. Throws on transport or API failure. */
async function refundAtProvider(
  deps: Deps,
  order: Pick<OrderRow, "order_no" | "provider" | "provider_trade_no">,
  refund: { refundNo: string; amount: number; reason: string },
): Promise<ProviderOutcome> {
  if (order.provider === "sandbox") return "succeeded";
  if (order.provider === "gateway") {
    const gateway = deps.payments.gateway;
    if (!gateway) throw unavailable("The payment gateway is not configured");
    const answer = await gateway.refund({
      out_trade_no: order.order_no,
      out_refund_no: refund.refundNo,
      amount: refund.amount,
      reason: refund.reason.slice(0, 80),
    });
    return answer.status;
  }
  const stripe = deps.payments.stripe;
  if (!stripe) throw unavailable("Card payments are not configured");
  const answer = await stripe.refund({
    paymentIntentId: order.provider_trade_no ?? "",
    amount: refund.amount,
    orderNo: order.order_no,
    refundNo: refund.refundNo,
  });
  if (answer.status === "succeeded") return "succeeded";
  if (answer.status === "pending" || answer.status === "requires_action") return "pending";
  return "failed";
}

/**
 * Applies a refund the provider confirmed: one statement (payment_refund_apply) that updates
 * the order and takes back credits or ends the subscription. A repeat changes nothing; the
 * gateway's refund.succeeded callback may call this too.
 */
export async function applyRefund(deps: Deps, refundNo: string, adminId: string | null) {
  const row = await applyRefundStatement(deps.db, {
    refundNo,
    adminId,
    now: deps.clock.now().toISOString(),
  });
  // On a duplicate too: whoever applied it first may have died before notifying.
  if (row?.result === "applied" || row?.result === "duplicate") await notifyRefund(deps, refundNo);
  return row!;
}

/**
 * Whether a provider failure leaves the refund's fate unknown: the request may have been carried
 * out before the connection, the deadline or a proxy (5xx) lost the answer. Such a refund must
 * not be marked failed (a second refund could then pay the money out twice); it stays pending
 * and is asked again under the same refund number, which both providers treat idempotently.
 * A 401 or 429 is refused before anything happens, and 4xx codes are definite answers.
 */
function outcomeUnknown(error: unknown): boolean {
  const unclear = ["network", "timeout", "http_status", "bad_response"];
  return (
    (error instanceof PaymentGatewayUnavailableError && unclear.includes(error.reason)) ||
    (error instanceof StripeUnavailableError && unclear.includes(error.reason))
  );
}

function markFailed(deps: Deps, refundNo: string) {
  return markRefundFailed(deps.db, { refundNo, now: deps.clock.now().toISOString() });
}

/**
 * Admin refund of a paid order: reserve (payment_refund_create, under the order's lock, with
 * the admin's audit row in the same statement), ask the provider, then apply the credit
 * consequences in one statement. A provider failure marks the refund failed, changes nothing
 * else and is a 503; a provider that settles later leaves the refund pending (202) until its
 * confirmation is applied. The audit row records the refund asked for; its outcome is the
 * refund's status.
 */
export async function refundOrder(
  deps: Deps,
  actor: Actor & { id: string },
  input: { orderNo: string; amount?: number; reason: string },
): Promise<RefundResult> {
  const refundNo = newRefundNo();
  const reserved = await createRefund(deps.db, {
    orderNo: input.orderNo,
    refundNo,
    amount: input.amount ?? null,
    reason: input.reason,
    adminId: actor.id,
    now: deps.clock.now().toISOString(),
    extra: (created) =>
      auditCte(actor, {
        action: "payment.refund",
        target: "payment",
        rows: created,
        kind: "create",
        fields: ["refund_no", "amount", "reason"],
      }),
  });
  if (!reserved || reserved.result === "unknown_order") throw notFound("Order not found");
  if (reserved.result === "not_refundable") {
    throw conflict(`Only paid orders can be refunded (this one is ${reserved.status})`);
  }
  if (reserved.result === "bad_amount") {
    throw validationError([
      {
        loc: ["body", "amount"],
        msg:
          reserved.remaining! > 0
            ? `The refundable amount is 1..${reserved.remaining}`
            : "Nothing is left to refund on this order",
        type: "value_error",
      },
    ]);
  }
  const amount = reserved.amount!;
  // Settled later (by the provider's callback or reconcilePendingRefunds): nothing applied yet.
  const pending: RefundResult = {
    refund_no: refundNo,
    order_no: input.orderNo,
    amount,
    status: "pending",
    credits_reversed: 0,
    order_status: reserved.status!,
    refunded_amount: reserved.order_refunded ?? 0,
  };
  let outcome: ProviderOutcome;
  try {
    outcome = await refundAtProvider(
      deps,
      {
        order_no: input.orderNo,
        provider: reserved.provider,
        provider_trade_no: reserved.provider_trade_no,
      },
      { refundNo, amount, reason: input.reason },
    );
  } catch (error) {
    if (outcomeUnknown(error)) {
      deps.logger.warn("payment refund outcome unknown: left pending for reconciliation", {
        order_no: input.orderNo,
        refund_no: refundNo,
        provider: reserved.provider,
        error: String(error),
      });
      await notifyRefund(deps, refundNo);
      return pending;
    }
    await markFailed(deps, refundNo);
    if (error instanceof ApiError) throw error;
    deps.logger.warn("payment refund failed", {
      order_no: input.orderNo,
      refund_no: refundNo,
      provider: reserved.provider,
      error: String(error),
      ...(error instanceof PaymentGatewayError ? { code: error.code } : {}),
    });
    throw unavailable("The payment provider could not refund this order; nothing was changed");
  }
  if (outcome === "failed") {
    await markFailed(deps, refundNo);
    deps.logger.warn("payment refund refused", {
      order_no: input.orderNo,
      refund_no: refundNo,
      provider: reserved.provider,
    });
    throw unavailable("The payment provider refused the refund; nothing was changed");
  }
  if (outcome === "pending") {
    await notifyRefund(deps, refundNo);
    return pending;
  }
  const applied = await applyRefund(deps, refundNo, actor.id);
  if (applied.result !== "applied" && applied.result !== "duplicate") {
    // The money went back but the order can no longer take it: needs an operator.
    deps.logger.error("refund confirmed but not applied", {
      order_no: input.orderNo,
      refund_no: refundNo,
      result: applied.result,
    });
    throw new ApiError(500, "The refund was made but could not be recorded");
  }
  return {
    refund_no: refundNo,
    order_no: input.orderNo,
    amount,
    status: "succeeded",
    credits_reversed: applied.credits_reversed ?? 0,
    order_status: applied.order_status!,
    refunded_amount: applied.refunded_amount!,
  };
}

/** A pending refund is asked again once it is this old (the provider's own retries come first). */
const RECONCILE_AFTER_MS = 2 * 60_000;
const RECONCILE_BATCH = 20;

/**
 * Settles refunds left pending: the provider settles later (no callback arrived) or its answer
 * was lost. Each is sent again under its own refund number, which the gateway (per
 * out_refund_no) and Stripe (idempotency key) answer with the same refund, never a second one:
 * succeeded -> applied once (applyRefund is idempotent, racing the callback is harmless),
 * failed -> failed (its amount is free again), still pending or unknown -> asked again next run.
 */
export async function reconcilePendingRefunds(
  deps: Deps,
): Promise<{ checked: number; succeeded: number; failed: number; pending: number }> {
  const before = new Date(deps.clock.now().getTime() - RECONCILE_AFTER_MS).toISOString();
  const due = await listDueRefunds(deps.db, { before, limit: RECONCILE_BATCH });
  const counts = { checked: due.length, succeeded: 0, failed: 0, pending: 0 };
  for (const refund of due) {
    let outcome: ProviderOutcome;
    try {
      outcome = await refundAtProvider(deps, refund, {
        refundNo: refund.refund_no,
        amount: refund.amount,
        reason: refund.reason,
      });
    } catch (error) {
      if (outcomeUnknown(error) || error instanceof ApiError) {
        counts.pending++; // unreachable or not configured right now: next run
        continue;
      }
      deps.logger.error("pending refund refused on reconciliation", {
        order_no: refund.order_no,
        refund_no: refund.refund_no,
        error: String(error),
      });
      outcome = "failed";
    }
    if (outcome === "pending") {
      counts.pending++;
    } else if (outcome === "failed") {
      // The payer was told the refund was under way, so they hear that it was not made.
      await markFailed(deps, refund.refund_no);
      await notifyRefund(deps, refund.refund_no);
      counts.failed++;
    } else {
      const applied = await applyRefund(deps, refund.refund_no, refund.admin_id);
      if (applied.result === "applied" || applied.result === "duplicate") counts.succeeded++;
      else {
        deps.logger.error("refund confirmed but not applied", {
          order_no: refund.order_no,
          refund_no: refund.refund_no,
          result: applied.result,
        });
      }
    }
  }
  return counts;
}
