import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { startFakeStripe } from "../fakes/stripe";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";
import { balanceOf, buy, eventsOf, orderRow, packageByCredits } from "./payments-helpers";

const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const ctx = await createTestContext({
  env: {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  },
});
const { app, deps } = ctx;
const starter = await packageByCredits(app, 100);
const WEBHOOK = "/api/v1/payments/stripe/webhook";

const post = (payload: string, header?: string) =>
  call(app, WEBHOOK, {
    method: "POST",
    body: payload,
    headers: {
      "Content-Type": "application/json",
      ...(header ? { "Stripe-Signature": header } : {}),
    },
  });

async function cardOrder() {
  const user = await registerUser(app);
  const { status, body } = await buy(app, user, "/api/v1/credits/purchase", {
    package_id: starter.id,
    pay_type: "card",
  });
  expect(status).toBe(201);
  const [row] = await queryRows<{ provider_trade_no: string }>(
    deps.db,
    sql`select provider_trade_no from payment_transactions where order_no = ${body.order_no}`,
  );
  return { user, order: body, sessionId: row!.provider_trade_no };
}

describe("card payments through Stripe", () => {
  it("creates a checkout session; the signed completion webhook credits once", async () => {
    const { user, order, sessionId } = await cardOrder();
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toBeDefined();
    expect(order.pay_url).toBe(session.url);
    expect(order).toMatchObject({ pay_type: "card", amount: 1900, currency: "CNY" });
    expect(session.amount_total).toBe(1900);

    const webhook = stripe.completeSession(sessionId);
    for (let i = 0; i < 3; i++) {
      const res = await post(webhook.payload, webhook.header);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true });
    }
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "paid",
      provider: "stripe",
      purchase_status: "paid",
    });
    expect(await eventsOf(deps, order.order_no)).toEqual([
      expect.objectContaining({
        provider: "stripe",
        type: "checkout.session.completed",
        result: "applied",
      }),
    ]);
  });

  it("refuses a bad or missing signature and a stale one, changing nothing", async () => {
    const { user, order, sessionId } = await cardOrder();
    const webhook = stripe.completeSession(sessionId);
    const forged = stripe.completeSession(sessionId, { secret: "whsec_not_the_right_one_0000" });
    expect((await post(forged.payload, forged.header)).status).toBe(400);
    expect((await post(webhook.payload)).status).toBe(400);
    const stale = stripe.completeSession(sessionId, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect((await post(stale.payload, stale.header)).status).toBe(400);
    expect((await post(`${webhook.payload} `, webhook.header)).status).toBe(400);
    expect((await balanceOf(app, user)).balance).toBe(30);
    expect(await eventsOf(deps, order.order_no)).toEqual([]);
  });

  it("an expired session cancels the pending order", async () => {
    const { order, sessionId } = await cardOrder();
    const webhook = stripe.expireSession(sessionId);
    expect((await post(webhook.payload, webhook.header)).status).toBe(200);
    expect((await orderRow(deps, order.order_no))?.status).toBe("cancelled");
  });

  it("answers 503 when Stripe is not configured", async () => {
    const plain = await ctx.makeApp({}, { STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "" });
    const res = await plain.request(WEBHOOK, { method: "POST", body: "{}" });
    expect(res.status).toBe(503);
  });
});
