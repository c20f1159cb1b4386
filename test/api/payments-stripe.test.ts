import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { reconcilePendingRefunds } from "../../src/modules/payments/service/refunds";
import type { Deps } from "../../src/ports";
import { startFakeStripe } from "../fakes/stripe";
import { call, randomEmail, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { balanceOf, buy, eventsOf, orderRow, packageByCredits } from "./payments-helpers";

const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const adminEmail = randomEmail();
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
const admin = await registerAdmin(ctx, { email: adminEmail });

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

  it("a valid Stripe event never pays or closes an order of another provider", async () => {
    const user = await registerUser(app);
    const { status, body: order } = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "alipay",
    });
    expect(status).toBe(201);
    const forged = (type: string, extra: Record<string, unknown>) => {
      const payload = JSON.stringify({
        id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
        object: "event",
        created: Math.floor(Date.now() / 1000),
        type,
        data: {
          object: {
            id: `cs_${crypto.randomUUID().replaceAll("-", "")}`,
            object: "checkout.session",
            client_reference_id: order.order_no,
            metadata: { order_no: order.order_no },
            amount_total: order.amount,
            currency: order.currency.toLowerCase(),
            ...extra,
          },
        },
      });
      return { payload, header: stripe.sign(payload) };
    };
    const paid = forged("checkout.session.completed", {
      payment_status: "paid",
      payment_intent: "pi_forged",
    });
    expect((await post(paid.payload, paid.header)).status).toBe(200);
    const expired = forged("checkout.session.expired", { payment_status: "unpaid" });
    expect((await post(expired.payload, expired.header)).status).toBe(200);
    expect((await balanceOf(app, user)).balance).toBe(30);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "pending",
      provider: "sandbox",
    });
    expect(await eventsOf(deps, order.order_no)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ provider: "stripe", result: "wrong_provider" }),
      ]),
    );
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

describe("admin refunds of card orders", () => {
  async function paidCardOrder() {
    const paid = await cardOrder();
    const webhook = stripe.completeSession(paid.sessionId);
    expect((await post(webhook.payload, webhook.header)).status).toBe(200);
    expect((await balanceOf(app, paid.user)).balance).toBe(130);
    return paid;
  }
  const refund = (orderNo: string, json: Record<string, unknown>) =>
    call(app, `/api/v1/admin/payments/${orderNo}/refund`, { token: admin.accessToken, json });
  const later = (): Deps => ({ ...deps, clock: { now: () => new Date(Date.now() + 180_000) } });

  it("refunds at Stripe against the order's payment intent and takes the credits back", async () => {
    const { user, order } = await paidCardOrder();
    const res = await refund(order.order_no, { reason: "Duplicate order" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "succeeded", amount: 1900, credits_reversed: 100 });
    const made = [...stripe.refunds.values()].filter(
      (r) => (r.metadata as Record<string, string> | undefined)?.order_no === order.order_no,
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amount: 1900, status: "succeeded" });
    expect((await balanceOf(app, user)).balance).toBe(30);
    expect(await orderRow(deps, order.order_no)).toMatchObject({ status: "refunded" });
  });

  it("keeps a refund pending when Stripe fails, and reconciles it once under the same key", async () => {
    const { user, order } = await paidCardOrder();
    stripe.fail("500");
    let res: Awaited<ReturnType<typeof refund>>;
    try {
      res = await refund(order.order_no, { amount: 950, reason: "Half" });
    } finally {
      stripe.fail(null);
    }
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending", amount: 950 });
    expect((await balanceOf(app, user)).balance).toBe(130);

    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 1, succeeded: 1 });
    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 0 });
    const made = [...stripe.refunds.values()].filter(
      (r) => (r.metadata as Record<string, string> | undefined)?.order_no === order.order_no,
    );
    expect(made.map((r) => r.amount)).toEqual([950]);
    expect((await balanceOf(app, user)).balance).toBe(80);
    expect(await orderRow(deps, order.order_no)).toMatchObject({ status: "partially_refunded" });
  });
});
