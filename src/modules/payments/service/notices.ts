import type { Deps } from "../../../ports";
import { notify } from "../../notifications/service";
import { getPaidOrderNotice, getRefundNotice } from "../queries";
import { formatMinor } from "./money";

/**
 * The notifications a payer gets when their money moves: the order is paid, a refund is under
 * way, made or refused. Each carries a dedupe key naming the order or refund and the state, so a
 * repeated callback, a retried webhook or a reconciliation racing the callback notifies once.
 */

/** Notifies the order's owner that it is paid; nothing when it is not (or no longer) paid. */
export async function notifyOrderPaid(deps: Deps, orderNo: string): Promise<void> {
  const order = await getPaidOrderNotice(deps.db, { orderNo });
  if (!order) return;
  await notify(deps, {
    userId: order.user_id,
    kind: "payment_succeeded",
    title: "Payment received",
    body: `We received ${formatMinor(order.amount, order.currency)} for ${order.subject}.`,
    data: { order_no: orderNo, kind: order.kind, amount: order.amount, currency: order.currency },
    dedupeKey: `payment_succeeded:${orderNo}`,
  });
}

const REFUND_TEXT = {
  pending: ["Refund in progress", "is on its way back"],
  succeeded: ["Refund completed", "was refunded"],
  failed: ["Refund not completed", "could not be refunded; we will contact you"],
} as const;

/** Notifies the owner of a refund's order of the refund's current state. */
export async function notifyRefund(deps: Deps, refundNo: string): Promise<void> {
  const refund = await getRefundNotice(deps.db, { refundNo });
  if (!refund) return;
  const [title, verb] = REFUND_TEXT[refund.status];
  await notify(deps, {
    userId: refund.user_id,
    kind: `refund_${refund.status}`,
    title,
    body: `${formatMinor(refund.amount, refund.currency)} for ${refund.subject} ${verb}.`,
    data: {
      order_no: refund.order_no,
      refund_no: refundNo,
      amount: refund.amount,
      currency: refund.currency,
      status: refund.status,
    },
    dedupeKey: `refund_${refund.status}:${refundNo}`,
  });
}
