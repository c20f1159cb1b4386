import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { recordPaymentEvent } from "../../src/modules/payments/service/orders";
import type { Deps } from "../../src/ports";
import { type GatewayCallback, signGatewayCallback } from "../../src/providers/payment/gateway";
import { call, type Session } from "../support/client";

export const CALLBACK = "/api/v1/payments/callback";

export async function packageByCredits(app: App, credits: number) {
  const { body } = await call(app, "/api/v1/credits/packages");
  const pkg = body.items.find((p: { credits: number }) => p.credits === credits);
  if (!pkg) throw new Error(`no package of ${credits} credits`);
  return pkg as { id: string; name: string; credits: number; price: number; currency: string };
}

export async function planByCode(app: App, code: string) {
  const { body } = await call(app, "/api/v1/credits/plans");
  const plan = body.items.find((p: { code: string }) => p.code === code);
  if (!plan) throw new Error(`no plan ${code}`);
  return plan as {
    id: string;
    code: string;
    monthly_price: number;
    yearly_price: number;
    monthly_credits: number;
  };
}

export function buy(app: App, user: Session, path: string, json: unknown) {
  return call(app, path, { json, token: user.accessToken, csrf: user.csrfToken });
}

export async function balanceOf(app: App, user: Session) {
  const { status, body } = await call(app, "/api/v1/credits/balance", { token: user.accessToken });
  if (status !== 200) throw new Error(`balance: ${status}`);
  return body as {
    balance: number;
    plan: string;
    plan_expires_at: string | null;
    expiring: { amount: number; expires_at: string }[];
  };
}

export async function orderRow(deps: Deps, orderNo: string) {
  const [row] = await queryRows<{
    status: string;
    paid_late: boolean;
    provider: string;
    provider_trade_no: string | null;
    purchase_status: string | null;
  }>(
    deps.db,
    sql`select t.status, t.paid_late, t.provider, t.provider_trade_no, p.status as purchase_status
        from payment_transactions t left join credit_purchases p on p.order_no = t.order_no
        where t.order_no = ${orderNo}`,
  );
  return row;
}

export async function eventsOf(deps: Deps, orderNo: string) {
  return queryRows<{ provider: string; event_id: string; type: string; result: string }>(
    deps.db,
    sql`select provider, event_id, type, result from payment_events
        where order_no = ${orderNo} order by created_at, id`,
  );
}

/** Sum of the ledger and the number of purchase rows for an order. */
export async function purchaseLedger(deps: Deps, userId: string, orderNo: string) {
  const [row] = await queryRows<{ rows: number; credits: number }>(
    deps.db,
    sql`select count(*)::int as rows, coalesce(sum(delta), 0)::int as credits from credit_ledger
        where user_id = ${userId} and kind = 'purchase' and source_id = ${orderNo}`,
  );
  return row!;
}

export function paidEvent(
  order: { order_no: string; amount: number; currency: string },
  overrides: Partial<Record<string, unknown>> = {},
): GatewayCallback {
  return {
    event_id: `evt_test_${Math.random().toString(36).slice(2, 12)}`,
    type: "payment.succeeded",
    out_trade_no: order.order_no,
    trade_no: `GW${order.order_no}`,
    amount: order.amount,
    currency: order.currency,
    paid_at: new Date().toISOString(),
    ...overrides,
  } as GatewayCallback;
}

/** Delivers a callback signed with the app's own payment key, as the gateway would. */
export async function deliver(
  app: App,
  deps: Deps,
  event: GatewayCallback,
  opts: { now?: Date; nonce?: string; body?: string; signature?: string } = {},
) {
  const signed = await signGatewayCallback({
    signingKey: deps.payments.signingKey,
    merchantId: deps.payments.merchantId,
    path: CALLBACK,
    event,
    now: opts.now ?? new Date(),
    ...(opts.nonce ? { nonce: opts.nonce } : {}),
  });
  const headers = { ...signed.headers };
  if (opts.signature) headers["X-Pay-Signature"] = opts.signature;
  return call(app, CALLBACK, { method: "POST", headers, body: opts.body ?? signed.body });
}

/** Marks an order paid as its provider's confirmed callback would (payment_fulfil, once). */
export async function payOrder(
  deps: Deps,
  order: { order_no: string; amount: number; currency: string },
  provider: "sandbox" | "gateway" = "sandbox",
) {
  const result = await recordPaymentEvent(deps, {
    provider,
    eventId: `ev_${order.order_no}`,
    type: "payment.succeeded",
    orderNo: order.order_no,
    payload: {},
    payment: {
      tradeNo: null,
      amount: order.amount,
      currency: order.currency,
      paidAt: deps.clock.now(),
    },
  });
  expect(result).toBe("applied");
}
