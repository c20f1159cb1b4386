import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { startFakeGateway } from "../fakes/payment-gateway";
import { call, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import {
  balanceOf,
  buy,
  eventsOf,
  orderRow,
  packageByCredits,
  purchaseLedger,
} from "./payments-helpers";

// The fake gateway calls notify_url over real HTTP, so the app listens on a real port.
const fake = await startFakeGateway({
  merchantId: "m_trade_assistant",
  secret: "test_signing_secret_0123456789abcdef",
});
let current: App | undefined;
const server = createServer(getRequestListener((req) => current!.fetch(req)));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => server.close(resolve));
});

const ctx = await createTestContext({
  env: {
    PAYMENT_GATEWAY_URL: fake.url,
    PAYMENT_MERCHANT_ID: fake.merchantId,
    PAYMENT_SIGNING_SECRET: fake.secret,
    PUBLIC_BASE_URL: base,
  },
});
const { app, deps } = ctx;
current = app;
const starter = await packageByCredits(app, 100);

describe("payments through the unified gateway", () => {
  it("creates the order at the gateway; its signed callback credits the package once", async () => {
    const user = await registerUser(app);
    const { status, body: order } = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "wxpay",
    });
    expect(status).toBe(201);
    const atGateway = fake.getOrder(order.order_no);
    expect(atGateway).toMatchObject({
      amount: 1900,
      currency: "CNY",
      pay_type: "wxpay",
      status: "pending",
      notify_url: `${base}/api/v1/payments/callback`,
      subject: "Starter 100 (100 credits)",
    });
    expect(order.pay_url).toBe(atGateway!.pay_url);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      provider: "gateway",
      provider_trade_no: atGateway!.trade_no,
    });

    expect(await fake.pay(order.order_no)).toBe(200);
    expect(fake.callbacks.at(-1)).toMatchObject({ acknowledged: true });
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "paid",
      purchase_status: "paid",
    });

    // The gateway retries (fresh signatures, same event_id): acknowledged, credited once.
    expect(await fake.deliverCallback(order.order_no, { times: 5 })).toEqual(Array(5).fill(200));
    expect(fake.callbacks.slice(-5).every((c) => c.acknowledged)).toBe(true);
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await purchaseLedger(deps, user.userId, order.order_no)).toEqual({
      rows: 1,
      credits: 100,
    });
    expect(await eventsOf(deps, order.order_no)).toEqual([
      expect.objectContaining({ provider: "gateway", result: "applied" }),
    ]);
  });

  it("refuses tampered, stale and replayed deliveries, and records a wrong amount", async () => {
    const user = await registerUser(app);
    const { body: order } = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "alipay",
    });
    // Paid at the gateway, but the delivery is broken: nothing may change here.
    const atGateway = fake.getOrder(order.order_no)!;
    atGateway.status = "paid";
    atGateway.paid_at = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    atGateway.lastEvent = {
      event_id: "evt_gateway_tamper_0001",
      type: "payment.succeeded",
      out_trade_no: order.order_no,
      trade_no: atGateway.trade_no,
      amount: atGateway.amount,
      currency: atGateway.currency,
      paid_at: atGateway.paid_at,
    };
    const [tampered] = await fake.deliverCallback(order.order_no, {
      mutate: (d) => ({ ...d, body: d.body.replace('"amount":1900', '"amount":19') }),
    });
    expect(tampered).toBe(401);
    // Well past the 300 s tolerance: signatures carry whole seconds, and the delivery itself takes
    // time, so 1 s past it could land inside it on a busy machine.
    const [stale] = await fake.deliverCallback(order.order_no, {
      signedAt: new Date(Date.now() - 330_000),
    });
    expect(stale).toBe(401);
    const [future] = await fake.deliverCallback(order.order_no, {
      signedAt: new Date(Date.now() + 330_000),
    });
    expect(future).toBe(401);
    let replayed: { url: string; headers: Record<string, string>; body: string } | undefined;
    const [wrongAmount] = await fake.deliverCallback(order.order_no, {
      patch: { event_id: "evt_gateway_wrong_amount", amount: 1 },
      mutate: (d) => {
        replayed = d;
        return d;
      },
    });
    expect(wrongAmount).toBe(200);
    const replay = await fetch(replayed!.url, {
      method: "POST",
      headers: replayed!.headers,
      body: replayed!.body,
    });
    expect(replay.status).toBe(401);
    expect((await balanceOf(app, user)).balance).toBe(30);
    expect((await orderRow(deps, order.order_no))?.status).toBe("pending");
    expect(await eventsOf(deps, order.order_no)).toEqual([
      expect.objectContaining({ event_id: "evt_gateway_wrong_amount", result: "amount_mismatch" }),
    ]);
    // The genuine event still goes through afterwards.
    expect(await fake.deliverCallback(order.order_no)).toEqual([200]);
    expect((await balanceOf(app, user)).balance).toBe(130);
  });

  it("a subscription paid at the gateway extends the plan and grants the allowance", async () => {
    const user = await registerUser(app);
    const { status, body: order } = await buy(app, user, "/api/v1/payments/create-order", {
      plan: "pro",
      pay_type: "alipay",
    });
    expect(status).toBe(201);
    expect(fake.getOrder(order.order_no)?.amount).toBe(9900);
    expect(await fake.pay(order.order_no)).toBe(200);
    const balance = await balanceOf(app, user);
    expect(balance.balance).toBe(530);
    expect(balance.plan).toBe("pro");
    expect(balance.expiring).toEqual([{ amount: 500, expires_at: balance.plan_expires_at }]);
  });

  it("applies a refund event only to its own order and for its own amount", async () => {
    const admin = await registerAdmin(ctx);
    const user = await registerUser(app);
    const bought = async () => {
      const { body } = await buy(app, user, "/api/v1/credits/purchase", {
        package_id: starter.id,
        pay_type: "alipay",
      });
      expect(await fake.pay(body.order_no)).toBe(200);
      return body;
    };
    const order = await bought();
    const other = await bought();
    fake.setRefundOutcome("pending");
    const refunded = await call(app, `/api/v1/admin/payments/${order.order_no}/refund`, {
      token: admin.accessToken,
      json: { reason: "buyer cancelled" },
    });
    fake.setRefundOutcome("succeeded");
    expect(refunded.status).toBe(202);
    const refundRow = async () =>
      (
        await queryRows<{ refund_no: string; status: string }>(
          deps.db,
          sql`select refund_no, status from payment_refunds where order_no = ${order.order_no}`,
        )
      )[0]!;
    const { refund_no: refundNo } = await refundRow();
    const refundEvent = (eventId: string, amount: number) => ({
      event_id: eventId,
      type: "refund.succeeded" as const,
      out_refund_no: refundNo,
      refund_no: "gw_refund_forged",
      amount,
    });
    // Verified deliveries (acknowledged), but the wrong amount, or another order's number.
    expect(
      await fake.deliverCallback(order.order_no, { patch: refundEvent("evt_refund_amount", 1) }),
    ).toEqual([200]);
    expect(
      await fake.deliverCallback(other.order_no, { patch: refundEvent("evt_refund_order", 1900) }),
    ).toEqual([200]);
    expect((await refundRow()).status).toBe("pending");
    expect((await balanceOf(app, user)).balance).toBe(230);
    // The gateway's own event for it settles it, once.
    expect(await fake.completeRefund(refundNo)).toBe(200);
    expect((await refundRow()).status).toBe("succeeded");
    expect((await balanceOf(app, user)).balance).toBe(130);
  });

  it("a gateway close cancels the pending order", async () => {
    const user = await registerUser(app);
    const { body: order } = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "alipay",
    });
    expect(await fake.closeOrder(order.order_no)).toBe(200);
    expect((await orderRow(deps, order.order_no))?.status).toBe("cancelled");
  });

  it("answers 503 and cancels the order when the gateway is down; no sandbox here", async () => {
    const user = await registerUser(app);
    fake.fail("http-502");
    try {
      const res = await buy(app, user, "/api/v1/credits/purchase", {
        package_id: starter.id,
        pay_type: "alipay",
      });
      expect(res.status).toBe(503);
    } finally {
      fake.fail(null);
    }
    const { body: order } = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "alipay",
    });
    expect((await app.request(`/api/v1/payments/sandbox/${order.order_no}`)).status).toBe(404);
    const pay = await app.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(pay.status).toBe(404);
    expect((await balanceOf(app, user)).balance).toBe(30);
  });
});
