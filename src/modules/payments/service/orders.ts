import { publicBaseUrl } from "../../../config";
import { inTimedBatches } from "../../../db/batches";
import type { OrderStatus, PayType } from "../../../db/schema";
import { ApiError, notFound, unavailable, validationError } from "../../../http/errors";
import { iso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import { PaymentGatewayError } from "../../../providers/payment/gateway";
import { yearlyPrice } from "../../credits/catalog";
import { getActivePackage } from "../../credits/queries/order-package";
import { getActivePlan } from "../../entitlements/queries/order-plan";
import {
  cancelPendingOrder as cancelPendingOrderRow,
  cancelUnstartedOrder,
  expireOrdersBatch,
  type FulfilResult,
  getOrderByNo,
  getUserOrder,
  insertOrder,
  insertPaymentEvent,
  listUserOrders,
  type OrderCursor,
  type OrderRow,
  setOrderPayment,
  setPaymentEventResult,
} from "../queries";
import { notifyOrderPaid } from "./notices";
import { paymentReturnUrl } from "./return-url";

const ORDER_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** `TA` + UTC date + 16 random characters (80 bits): unguessable, fits every gateway's limit. */
function newOrderNo(now: Date): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const random = Array.from(bytes, (b) => ORDER_ALPHABET[b % ORDER_ALPHABET.length]).join("");
  return `TA${now.toISOString().slice(0, 10).replaceAll("-", "")}${random}`;
}

export type OrderItem =
  | { kind: "credits"; packageId: string }
  | {
      kind: "subscription";
      planId?: string;
      planCode?: string;
      billingCycle: "monthly" | "yearly";
    };

export type { FulfilResult, OrderRow };

export function toOrderResponse(row: OrderRow) {
  return {
    order_no: row.order_no,
    kind: row.kind,
    status: row.status,
    pay_type: row.pay_type,
    amount: row.amount,
    currency: row.currency,
    subject: row.subject,
    credits: row.credits,
    plan: row.plan_code,
    billing_cycle: row.billing_cycle,
    pay_url: row.pay_url,
    expires_at: iso(row.expires_at)!,
    paid_at: iso(row.paid_at),
    paid_late: row.paid_late,
    refunded_amount: row.refunded_amount,
    created_at: iso(row.created_at)!,
  };
}
export type OrderResponse = ReturnType<typeof toOrderResponse>;

interface Priced {
  amount: number;
  currency: string;
  subject: string;
  credits: number | null;
  packageId: string | null;
  planId: string | null;
  planCode: string | null;
  billingCycle: "monthly" | "yearly" | null;
}

async function price(deps: Deps, item: OrderItem): Promise<Priced> {
  if (item.kind === "credits") {
    const pkg = await getActivePackage(deps.db, { id: item.packageId });
    if (!pkg) throw notFound("Credit package not found");
    if (pkg.price <= 0)
      throw validationError([
        { loc: ["body", "package_id"], msg: "This package is not for sale", type: "value_error" },
      ]);
    return {
      amount: pkg.price,
      currency: pkg.currency,
      subject: `${pkg.name} (${pkg.credits} credits)`,
      credits: pkg.credits,
      packageId: pkg.id,
      planId: null,
      planCode: null,
      billingCycle: null,
    };
  }
  const plan = await getActivePlan(
    deps.db,
    item.planId ? { id: item.planId } : { code: item.planCode ?? "" },
  );
  if (!plan) throw notFound("Plan not found");
  if (plan.monthly_price <= 0) {
    throw validationError([
      { loc: ["body", "plan"], msg: "The free plan needs no order", type: "value_error" },
    ]);
  }
  const yearly = item.billingCycle === "yearly";
  return {
    amount: yearly ? yearlyPrice(plan.monthly_price, plan.discount) : plan.monthly_price,
    currency: plan.currency,
    subject: `${plan.name} plan, ${yearly ? "1 year" : "1 month"}`,
    credits: null,
    packageId: null,
    planId: plan.id,
    planCode: plan.code,
    billingCycle: item.billingCycle,
  };
}

/** Which provider serves a pay_type here: card is Stripe; alipay/wxpay the gateway or sandbox. */
function providerFor(deps: Deps, payType: PayType): OrderRow["provider"] {
  if (payType === "card") {
    if (!deps.payments.stripe) throw unavailable("Card payments are not configured");
    return "stripe";
  }
  if (deps.payments.gateway) return "gateway";
  if (!sandboxEnabled(deps)) throw unavailable("Alipay and WeChat Pay are not configured");
  return "sandbox";
}

/**
 * The built-in sandbox gateway serves alipay/wxpay when no real gateway is configured, except
 * in production unless PAYMENT_SANDBOX=true: there it would hand out credits for nothing.
 */
export function sandboxEnabled(deps: Deps): boolean {
  return deps.payments.gateway === null && deps.payments.sandbox;
}

/**
 * Creates an order and asks its provider for a payment page. The order row (and the
 * credit_purchases row of a credit order) is written in one statement before any provider
 * call, so a callback can never arrive for an order we do not know.
 */
export async function createOrder(
  deps: Deps,
  input: { userId: string; item: OrderItem; payType: PayType },
): Promise<OrderResponse> {
  const provider = providerFor(deps, input.payType);
  const priced = await price(deps, input.item);
  const now = deps.clock.now();
  const orderNo = newOrderNo(now);
  const expiresAt = new Date(now.getTime() + deps.config.PAYMENT_ORDER_TTL_MINUTES * 60_000);
  const order = await insertOrder(deps.db, {
    orderNo,
    userId: input.userId,
    kind: input.item.kind,
    packageId: priced.packageId,
    planId: priced.planId,
    planCode: priced.planCode,
    billingCycle: priced.billingCycle,
    credits: priced.credits,
    subject: priced.subject,
    payType: input.payType,
    provider,
    amount: priced.amount,
    currency: priced.currency,
    expiresAt: expiresAt.toISOString(),
    now: now.toISOString(),
  });
  const base = publicBaseUrl(deps.config);
  try {
    const payment = await startPayment(deps, order, base);
    const updated = await setOrderPayment(deps.db, {
      orderNo,
      payUrl: payment.payUrl,
      tradeNo: payment.tradeNo,
    });
    return toOrderResponse(updated!);
  } catch (error) {
    await cancelUnstartedOrder(deps.db, { orderNo });
    if (error instanceof ApiError) throw error;
    if (error instanceof PaymentGatewayError) throw new ApiError(400, error.message);
    deps.logger.warn("payment provider failed", {
      order_no: orderNo,
      provider,
      error: String(error),
    });
    throw unavailable("The payment provider is unavailable, try again shortly");
  }
}

async function startPayment(
  deps: Deps,
  order: OrderRow,
  base: string,
): Promise<{ payUrl: string; tradeNo: string | null }> {
  if (order.provider === "sandbox") {
    return { payUrl: `${base}/api/v1/payments/sandbox/${order.order_no}`, tradeNo: null };
  }
  if (order.provider === "stripe") {
    const session = await deps.payments.stripe!.createCheckoutSession({
      orderNo: order.order_no,
      amount: order.amount,
      currency: order.currency,
      description: order.subject,
      successUrl: paymentReturnUrl(deps, order.order_no, "success"),
      cancelUrl: paymentReturnUrl(deps, order.order_no, "cancel"),
      expiresAt: new Date(order.expires_at),
    });
    return { payUrl: session.url, tradeNo: session.id };
  }
  const created = await deps.payments.gateway!.createOrder({
    out_trade_no: order.order_no,
    amount: order.amount,
    currency: order.currency,
    pay_type: order.pay_type as "alipay" | "wxpay",
    subject: order.subject,
    notify_url: `${base}/api/v1/payments/callback`,
    return_url: paymentReturnUrl(deps, order.order_no),
    expire_at: new Date(order.expires_at).toISOString(),
  });
  return { payUrl: created.pay_url, tradeNo: created.trade_no };
}

export async function getOrder(deps: Deps, userId: string, orderNo: string) {
  const row = await getUserOrder(deps.db, { userId, orderNo });
  if (!row) throw notFound("Order not found");
  return toOrderResponse(row);
}

export async function listOrders(
  deps: Deps,
  query: { userId: string; page: number; size: number; status?: OrderStatus },
) {
  const { rows, total } = await listUserOrders(deps.db, query);
  return { items: rows.map(toOrderResponse), total, page: query.page, size: query.size };
}

/** Any user's order by number (callbacks and the sandbox page); null when unknown. */
export async function findOrder(deps: Deps, orderNo: string): Promise<OrderRow | null> {
  return (await getOrderByNo(deps.db, { orderNo })) ?? null;
}

/**
 * Cancels an order that is still pending (payer cancelled, gateway closed it, Stripe session
 * expired). A paid, refunded or already expired order is left as it is: states never move back.
 * A provider's event only ever moves that provider's orders.
 */
export function cancelPendingOrder(
  deps: Deps,
  orderNo: string,
  provider?: OrderRow["provider"],
): Promise<boolean> {
  return cancelPendingOrderRow(deps.db, {
    orderNo,
    provider: provider ?? null,
    now: deps.clock.now().toISOString(),
  });
}

/**
 * Records a provider event and, for a payment, applies it to its order. The event is keyed by
 * (provider, event_id): a redelivered event is a no-op; payment_fulfil locks the order and
 * grants or subscribes once, whatever arrives in which order.
 */
export async function recordPaymentEvent(
  deps: Deps,
  event: {
    provider: "gateway" | "sandbox" | "stripe";
    eventId: string;
    type: string;
    orderNo: string | null;
    payload: unknown;
    payment?: { tradeNo: string | null; amount: number; currency: string; paidAt: Date };
  },
): Promise<FulfilResult> {
  const now = deps.clock.now().toISOString();
  // A verified event of one provider never pays an order of another (a Stripe event naming an
  // alipay order's number is recorded and refused). The event row is inserted first; only a
  // fresh insert goes on to fulfil the order.
  const row = await insertPaymentEvent(deps.db, {
    provider: event.provider,
    eventId: event.eventId,
    type: event.type,
    orderNo: event.orderNo,
    payload: event.payload,
    payment: event.payment && {
      tradeNo: event.payment.tradeNo,
      amount: event.payment.amount,
      currency: event.payment.currency,
      paidAt: event.payment.paidAt.toISOString(),
    },
    now,
  });
  const result = row?.result ?? "duplicate";
  // A fresh event keeps its outcome, "duplicate" included (a second event for a paid order).
  if (row?.fresh) {
    await setPaymentEventResult(deps.db, {
      provider: event.provider,
      eventId: event.eventId,
      result,
    });
  }
  if (result === "amount_mismatch" || result === "unknown_order" || result === "wrong_provider") {
    deps.logger.warn("payment event not applied", { ...event, payload: undefined, result });
  }
  // Also on a duplicate: a delivery retried because the first died after paying the order still
  // notifies, and the notification's dedupe key keeps it to one.
  if (event.payment && event.orderNo && (result === "applied" || result === "duplicate")) {
    await notifyOrderPaid(deps, event.orderNo);
  }
  return result;
}

/**
 * Scheduled task: pending orders past their time become expired (a late payment still counts),
 * in short timed batches (db/batches.ts) so a callback paying one of them waits on one batch at
 * most; an order being changed meanwhile is the next run's.
 */
export async function expirePendingOrders(deps: Deps): Promise<number> {
  const now = deps.clock.now().toISOString();
  let after: OrderCursor | null = null;
  let expired = 0;
  await inTimedBatches(async (limit) => {
    const batch = await expireOrdersBatch(deps.db, { now, limit, after });
    expired += batch.expired;
    after = batch.next;
    return after ? batch.taken : 0;
  });
  return expired;
}
