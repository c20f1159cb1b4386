import { html } from "hono/html";
import { conflict, notFound } from "../../../http/errors";
import { randomToken } from "../../../lib/crypto";
import type { Deps } from "../../../ports";
import { type GatewayCallback, signGatewayCallback } from "../../../providers/payment/gateway";
import { CALLBACK_PATH, handleGatewayCallback } from "./callback";
import { formatMinor } from "./money";
import { findOrder, type OrderRow, sandboxEnabled } from "./orders";
import { paymentReturnUrl } from "./return-url";

/**
 * The built-in sandbox gateway of the embedded default: a page per order with Pay and Cancel.
 * Paying signs a gateway callback with the same code as the real gateway's (on the sandbox's own
 * secret, never one derived from another) and hands it to the one callback handler, so
 * verification, replay protection and fulfilment are exactly the production path. Only orders
 * created for the sandbox can be paid here, and only where PAYMENT_SANDBOX allows it.
 */
const SANDBOX_PATH = "/api/v1/payments/sandbox";

/** The sandbox page of an order (where Pay and Cancel send the payer back). */
export function sandboxPagePath(orderNo: string): string {
  return `${SANDBOX_PATH}/${encodeURIComponent(orderNo)}`;
}

async function sandboxOrder(deps: Deps, orderNo: string): Promise<OrderRow> {
  if (!sandboxEnabled(deps)) throw notFound();
  const order = await findOrder(deps, orderNo);
  if (order?.provider !== "sandbox") throw notFound("Order not found");
  return order;
}

export async function renderSandboxPage(deps: Deps, orderNo: string) {
  const order = await sandboxOrder(deps, orderNo);
  const base = sandboxPagePath(order.order_no);
  const pending = order.status === "pending";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox payment ${order.order_no}</title>
</head>
<body>
<main>
<h1>Sandbox payment</h1>
<p>No money moves here: this page stands in for the payment gateway.</p>
<dl>
<dt>Order</dt><dd id="order-no">${order.order_no}</dd>
<dt>Item</dt><dd id="subject">${order.subject}</dd>
<dt>Amount</dt><dd id="amount">${formatMinor(order.amount, order.currency)}</dd>
<dt>Payment method</dt><dd id="pay-type">${order.pay_type}</dd>
<dt>Status</dt><dd id="status">${order.status}</dd>
</dl>
${
  pending
    ? html`<form method="post" action="${base}/pay"><button type="submit">Pay</button></form>
<form method="post" action="${base}/cancel"><button type="submit">Cancel</button></form>`
    : ""
}
<p><a id="return" href="${paymentReturnUrl(deps, order.order_no)}">${
    pending ? "Back to the shop without paying" : "Back to the shop"
  }</a></p>
</main>
</body>
</html>`;
}

async function dispatch(deps: Deps, event: GatewayCallback) {
  const signed = await signGatewayCallback({
    signingKey: deps.payments.signingKey,
    merchantId: deps.payments.merchantId,
    path: CALLBACK_PATH,
    event,
    now: deps.clock.now(),
  });
  const outcome = await handleGatewayCallback(deps, {
    method: signed.method,
    path: CALLBACK_PATH,
    headers: new Headers(signed.headers),
    rawBody: signed.body,
  });
  if (outcome.status !== 200) throw new Error(`sandbox callback refused: ${outcome.body.detail}`);
  return outcome.result;
}

function event(order: OrderRow, type: "payment.succeeded" | "payment.closed", now: Date) {
  const base = {
    event_id: `evt_sbx_${randomToken(12)}`,
    out_trade_no: order.order_no,
    trade_no: `SBX${order.order_no}`,
    amount: order.amount,
    currency: order.currency,
  };
  return type === "payment.succeeded"
    ? ({ ...base, type, paid_at: now.toISOString() } as const)
    : ({ ...base, type, paid_at: null } as const);
}

/** The payer pressed Pay: a signed `payment.succeeded` goes through the callback handler. */
export async function sandboxPay(deps: Deps, orderNo: string) {
  const order = await sandboxOrder(deps, orderNo);
  if (order.status !== "pending") throw conflict("This order is not awaiting payment");
  return dispatch(deps, event(order, "payment.succeeded", deps.clock.now()));
}

/** The payer pressed Cancel: a signed `payment.closed`, which cancels a pending order. */
export async function sandboxCancel(deps: Deps, orderNo: string) {
  const order = await sandboxOrder(deps, orderNo);
  if (order.status !== "pending") throw conflict("This order is not awaiting payment");
  return dispatch(deps, event(order, "payment.closed", deps.clock.now()));
}
