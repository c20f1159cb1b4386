import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { importHmacKey } from "../../src/lib/crypto";
import { expirePendingOrders } from "../../src/modules/payments/service/orders";
import type { GatewayCallback } from "../../src/providers/payment/gateway";
import {
  call,
  expectStatus,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext, PRODUCTION_ENV, TEST_SECRETS } from "../support/harness";
import {
  balanceOf,
  buy,
  CALLBACK,
  deliver,
  eventsOf,
  orderRow,
  packageByCredits,
  paidEvent,
  planByCode,
  purchaseLedger,
} from "./payments-helpers";

// No PAYMENT_GATEWAY_URL: alipay and wxpay are served by the built-in sandbox gateway.
const ctx = await createTestContext();
const { app, deps } = ctx;

/** The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`. */
const t = typed(app);
const signedIn = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });
const starter = await packageByCredits(app, 100);
const pro = await planByCode(app, "pro");

async function countOrders(userId: string) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from payment_transactions where user_id = ${userId}`,
  );
  return row!.n;
}

async function purchase(user: Session, payType: "alipay" | "wxpay" = "alipay") {
  const res = await t.post("/api/v1/credits/purchase", {
    ...signedIn(user),
    json: { package_id: starter.id, pay_type: payType },
  });
  if (res.status !== 201) throw new Error(`purchase: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("ordering in sandbox mode", () => {
  it("creates a credit order with a sandbox pay_url and a pending purchase row", async () => {
    const user = await registerUser(app);
    const created = await t.post("/api/v1/credits/purchase", {
      ...signedIn(user),
      json: { package_id: starter.id, pay_type: "alipay" },
    });
    expectStatus(created, 201);
    const { body } = created;
    expect(body.order_no).toMatch(/^TA\d{8}[A-HJ-NP-Z2-9]{16}$/);
    expect(body).toEqual({
      order_no: body.order_no,
      kind: "credits",
      status: "pending",
      pay_type: "alipay",
      amount: 1900,
      currency: "CNY",
      subject: "Starter 100 (100 credits)",
      credits: 100,
      plan: null,
      billing_cycle: null,
      pay_url: `http://localhost:3000/api/v1/payments/sandbox/${body.order_no}`,
      expires_at: body.expires_at,
      paid_at: null,
      paid_late: false,
      refunded_amount: 0,
      created_at: body.created_at,
    });
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(30 * 60_000);
    expect(await orderRow(deps, body.order_no)).toEqual({
      status: "pending",
      paid_late: false,
      provider: "sandbox",
      provider_trade_no: null,
      purchase_status: "pending",
    });
    const one = await t.get("/api/v1/payments/orders/{order_no}", {
      token: user.accessToken,
      params: { order_no: body.order_no },
    });
    expectStatus(one, 200);
    expect(one.body).toEqual(body);
  });

  it("orders a monthly plan by code, and monthly or yearly by plan id", async () => {
    const user = await registerUser(app);
    const byCode = await t.post("/api/v1/payments/create-order", {
      ...signedIn(user),
      json: { plan: "pro", pay_type: "wxpay" },
    });
    expectStatus(byCode, 201);
    expect(byCode.body).toMatchObject({
      kind: "subscription",
      amount: 9900,
      currency: "CNY",
      plan: "pro",
      billing_cycle: "monthly",
      credits: null,
      pay_type: "wxpay",
      subject: "Pro plan, 1 month",
      pay_url: `http://localhost:3000/api/v1/payments/sandbox/${byCode.body.order_no}`,
    });
    const yearly = await t.post("/api/v1/credits/subscribe", {
      ...signedIn(user),
      json: { plan_id: pro.id, billing_cycle: "yearly", pay_type: "alipay" },
    });
    expectStatus(yearly, 201);
    expect(yearly.body).toMatchObject({
      amount: 100_980,
      billing_cycle: "yearly",
      plan: "pro",
      subject: "Pro plan, 1 year",
    });
    const monthly = await t.post("/api/v1/credits/subscribe", {
      ...signedIn(user),
      json: { plan_id: pro.id, billing_cycle: "monthly", pay_type: "alipay" },
    });
    expectStatus(monthly, 201);
    expect(monthly.body).toMatchObject({ amount: 9900, billing_cycle: "monthly" });
  });

  it("refuses bad input: unknown pay_type 422, unknown package or plan 404, free plan 422", async () => {
    const user = await registerUser(app);
    const badType = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "paypal",
    });
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0].loc).toEqual(["body", "pay_type"]);
    const missing = await buy(app, user, "/api/v1/payments/create-order", { plan: "pro" });
    expect(missing.status).toBe(422);
    const badCycle = await buy(app, user, "/api/v1/credits/subscribe", {
      plan_id: pro.id,
      billing_cycle: "weekly",
      pay_type: "alipay",
    });
    expect(badCycle.status).toBe(422);
    const notUuid = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: "nope",
      pay_type: "alipay",
    });
    expect(notUuid.status).toBe(422);

    const unknownPackage = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: "018f0000-0000-7000-8000-000000000000",
      pay_type: "alipay",
    });
    expect(unknownPackage.status).toBe(404);
    expect(unknownPackage.body.detail).toBe("Credit package not found");
    const unknownPlan = await buy(app, user, "/api/v1/payments/create-order", {
      plan: "platinum",
      pay_type: "alipay",
    });
    expect(unknownPlan.status).toBe(404);
    const unknownPlanId = await buy(app, user, "/api/v1/credits/subscribe", {
      plan_id: "018f0000-0000-7000-8000-000000000000",
      billing_cycle: "monthly",
      pay_type: "alipay",
    });
    expect(unknownPlanId.status).toBe(404);
    const free = await buy(app, user, "/api/v1/payments/create-order", {
      plan: "free",
      pay_type: "alipay",
    });
    expect(free.status).toBe(422);
    // Card payments need Stripe, which this app does not have.
    const card = await buy(app, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "card",
    });
    expect(card.status).toBe(503);
    const orders = await t.get("/api/v1/payments/orders", { token: user.accessToken });
    expectStatus(orders, 200);
    expect(orders.body.total).toBe(0);
  });

  it("needs a token, a CSRF token and a registered account", async () => {
    const user = await registerUser(app);
    const json = { package_id: starter.id, pay_type: "alipay" };
    expect((await call(app, "/api/v1/credits/purchase", { json })).status).toBe(401);
    expect((await call(app, "/api/v1/payments/orders")).status).toBe(401);
    const noCsrf = await call(app, "/api/v1/credits/purchase", { json, token: user.accessToken });
    expect(noCsrf.status).toBe(403);
    const guest = await t.post("/api/v1/auth/guest", { ip: randomIp() });
    expectStatus(guest, 201);
    for (const [path, body] of [
      ["/api/v1/credits/purchase", json],
      ["/api/v1/payments/create-order", { plan: "pro", pay_type: "alipay" }],
      [
        "/api/v1/credits/subscribe",
        { plan_id: pro.id, billing_cycle: "monthly", pay_type: "wxpay" },
      ],
    ] as const) {
      const res = await call(app, path, {
        json: body,
        token: guest.body.access_token,
        csrf: guest.body.csrf_token,
      });
      expect(res.status, path).toBe(403);
      expect(res.body.detail).toBe("Register to buy");
    }
    expect(await countOrders(guest.body.user.id)).toBe(0);
  });

  it("shows a user only their own orders", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const order = await purchase(owner);
    await purchase(owner, "wxpay");
    const theirs = await call(app, `/api/v1/payments/orders/${order.order_no}`, {
      token: other.accessToken,
    });
    expect(theirs.status).toBe(404);
    const otherList = await t.get("/api/v1/payments/orders", { token: other.accessToken });
    expectStatus(otherList, 200);
    expect(otherList.body).toEqual({ items: [], total: 0, page: 1, size: 20 });
    const mine = await t.get("/api/v1/payments/orders", {
      token: owner.accessToken,
      query: { size: 1 },
    });
    expectStatus(mine, 200);
    expect(mine.body.total).toBe(2);
    expect(mine.body.items).toHaveLength(1);
    await call(app, `/api/v1/payments/sandbox/${order.order_no}/pay`, { method: "POST" });
    const paid = await t.get("/api/v1/payments/orders", {
      token: owner.accessToken,
      query: { status: "paid" },
    });
    expectStatus(paid, 200);
    expect(paid.body.total).toBe(1);
    expect(paid.body.items[0]!.order_no).toBe(order.order_no);
    const pending = await t.get("/api/v1/payments/orders", {
      token: owner.accessToken,
      query: { status: "pending" },
    });
    expectStatus(pending, 200);
    expect(pending.body.total).toBe(1);
    expect(pending.body.items[0]!.order_no).not.toBe(order.order_no);
    const badStatus = await call(app, "/api/v1/payments/orders?status=lost", {
      token: owner.accessToken,
    });
    expect(badStatus.status).toBe(422);
    const unknown = await call(app, "/api/v1/payments/orders/TA20260101XXXXXXXXXXXXXXXX", {
      token: owner.accessToken,
    });
    expect(unknown.status).toBe(404);
  });

  it("allows 20 order reads a minute per user; the 21st is 429 (writes: payment-budgets.test.ts)", async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 20; i++) {
      const res = await t.get("/api/v1/payments/orders", { token: user.accessToken });
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const read = await call(app, "/api/v1/payments/orders", { token: user.accessToken });
    expect(read.status).toBe(429);
    expect(Number(read.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The reads' budget is not the purchases'.
    const order = await t.post("/api/v1/credits/purchase", {
      ...signedIn(user),
      json: { package_id: starter.id, pay_type: "alipay" },
    });
    expectStatus(order, 201);
    // Another user has a budget of their own.
    const other = await registerUser(app);
    expectStatus(await t.get("/api/v1/payments/orders", { token: other.accessToken }), 200);
    expect(await countOrders(user.userId)).toBe(1);
  });
});

describe("sandbox gateway", () => {
  it("serves a payment page, and Pay credits the package once through the callback", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const page = await app.request(new URL(order.pay_url!).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(order.order_no);
    expect(html).toContain("Starter 100 (100 credits)");
    expect(html).toContain("CN¥19.00");
    expect(html).toContain('<dd id="status">pending</dd>');
    expect(html).toContain(`action="/api/v1/payments/sandbox/${order.order_no}/pay"`);
    expect(html).toContain(`action="/api/v1/payments/sandbox/${order.order_no}/cancel"`);

    const paid = await app.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/api/v1/payments/sandbox/${order.order_no}`);
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "paid",
      paid_late: false,
      purchase_status: "paid",
      provider_trade_no: `SBX${order.order_no}`,
    });
    expect(await eventsOf(deps, order.order_no)).toEqual([
      expect.objectContaining({
        provider: "sandbox",
        type: "payment.succeeded",
        result: "applied",
      }),
    ]);
    // The sandbox's callback was verified like a real one: its nonce is on record.
    const nonces = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from payment_nonces`,
    );
    expect(nonces[0]!.n).toBeGreaterThan(0);

    const again = await app.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(again.status).toBe(409);
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await purchaseLedger(deps, user.userId, order.order_no)).toEqual({
      rows: 1,
      credits: 100,
    });
    const after = await (await app.request(`/api/v1/payments/sandbox/${order.order_no}`)).text();
    expect(after).toContain('<dd id="status">paid</dd>');
    expect(after).not.toContain("/pay");
  });

  it("Cancel cancels a pending order, which can then not be paid", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const cancelled = await app.request(`/api/v1/payments/sandbox/${order.order_no}/cancel`, {
      method: "POST",
    });
    expect(cancelled.status).toBe(303);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "cancelled",
      purchase_status: "cancelled",
    });
    const pay = await app.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(pay.status).toBe(409);
    expect((await balanceOf(app, user)).balance).toBe(30);
  });

  it("escapes the order on its page and serves only sandbox orders", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    await deps.db.execute(
      sql`update payment_transactions set subject = '<script>alert(1)</script>'
          where order_no = ${order.order_no}`,
    );
    const html = await (await app.request(`/api/v1/payments/sandbox/${order.order_no}`)).text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect((await app.request("/api/v1/payments/sandbox/TA20260101NOSUCHORDER0000")).status).toBe(
      404,
    );
    await deps.db.execute(
      sql`update payment_transactions set provider = 'gateway' where order_no = ${order.order_no}`,
    );
    expect((await app.request(`/api/v1/payments/sandbox/${order.order_no}`)).status).toBe(404);
    const pay = await app.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(pay.status).toBe(404);
    expect((await balanceOf(app, user)).balance).toBe(30);
  });
});

describe("the payment callback", () => {
  it("refuses a wrong signature, a stale or future timestamp and a bad merchant, changing nothing", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const event = paidEvent(order);
    const bad = await deliver(app, deps, event, { signature: "0".repeat(64) });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ code: "FAIL", detail: "Callback signature does not match" });
    const tampered = await deliver(app, deps, event, {
      body: JSON.stringify({ ...event, amount: 1 }),
    });
    expect(tampered.status).toBe(401);
    const stale = await deliver(app, deps, event, { now: new Date(Date.now() - 301_000) });
    expect(stale.status).toBe(401);
    expect(stale.body.detail).toBe("Callback timestamp is too old");
    const future = await deliver(app, deps, event, { now: new Date(Date.now() + 330_000) });
    expect(future.status).toBe(401);
    expect(future.body.detail).toBe("Callback timestamp is in the future");
    const unsigned = await call(app, CALLBACK, { method: "POST", body: JSON.stringify(event) });
    expect(unsigned.status).toBe(401);
    const otherMerchant = await deliver(
      app,
      { ...deps, payments: { ...deps.payments, merchantId: "someone" } },
      event,
    );
    expect(otherMerchant.status).toBe(401);
    expect(otherMerchant.body.detail).toBe("Unknown merchant");

    expect((await balanceOf(app, user)).balance).toBe(30);
    expect(await eventsOf(deps, order.order_no)).toEqual([]);
    expect((await orderRow(deps, order.order_no))?.status).toBe("pending");

    // Within the window (300 s exactly is still accepted) the same event is applied.
    const ok = await deliver(app, deps, event, { now: new Date(Date.now() - 299_000) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ code: "SUCCESS" });
    expect((await balanceOf(app, user)).balance).toBe(130);
  });

  it("refuses a replayed nonce and a signed but malformed body", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    // A nonce is at least 16 characters; Math.random() strings can come out shorter.
    const nonce = `replay-${crypto.randomUUID()}`;
    const first = await deliver(app, deps, paidEvent(order), { nonce });
    expect(first.status).toBe(200);
    const replay = await deliver(app, deps, paidEvent(order), { nonce });
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toBe("Callback nonce was already used");
    const malformed = await deliver(app, deps, {
      type: "payment.succeeded",
      out_trade_no: order.order_no,
    } as unknown as GatewayCallback);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("FAIL");
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await eventsOf(deps, order.order_no)).toHaveLength(1);
  });

  it("acknowledges but does not apply an amount or currency mismatch, or an unknown order", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const short = await deliver(app, deps, paidEvent(order, { amount: 1 }));
    expect(short.status).toBe(200);
    expect(short.body).toEqual({ code: "SUCCESS" });
    const usd = await deliver(app, deps, paidEvent(order, { currency: "USD" }));
    expect(usd.status).toBe(200);
    expect(await eventsOf(deps, order.order_no)).toEqual([
      expect.objectContaining({ result: "amount_mismatch" }),
      expect.objectContaining({ result: "amount_mismatch" }),
    ]);
    expect((await orderRow(deps, order.order_no))?.status).toBe("pending");
    expect((await balanceOf(app, user)).balance).toBe(30);

    const unknown = await deliver(
      app,
      deps,
      paidEvent({ order_no: "TA20260101UNKNOWNORDER00", amount: 1900, currency: "CNY" }),
    );
    expect(unknown.status).toBe(200);
    expect(await eventsOf(deps, "TA20260101UNKNOWNORDER00")).toEqual([
      expect.objectContaining({ result: "unknown_order" }),
    ]);
  });

  it("credits once when one event is delivered 5 times, or two events pay one order", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const event = paidEvent(order);
    for (let i = 0; i < 5; i++) {
      const res = await deliver(app, deps, event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: "SUCCESS" });
    }
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect(await eventsOf(deps, order.order_no)).toEqual([
      expect.objectContaining({ event_id: event.event_id, result: "applied" }),
    ]);
    const second = await deliver(app, deps, paidEvent(order));
    expect(second.status).toBe(200);
    expect((await balanceOf(app, user)).balance).toBe(130);
    expect((await eventsOf(deps, order.order_no)).map((e) => e.result)).toEqual([
      "applied",
      "duplicate",
    ]);
    expect(await purchaseLedger(deps, user.userId, order.order_no)).toEqual({
      rows: 1,
      credits: 100,
    });
  });

  it("honours a payment for an order that already expired, marking it paid late", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const later = new Date(Date.parse(order.expires_at) + 60_000);
    expect(await expirePendingOrders({ ...deps, clock: { now: () => later } })).toBeGreaterThan(0);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "expired",
      purchase_status: "expired",
    });
    const res = await deliver(app, deps, paidEvent(order));
    expect(res.status).toBe(200);
    expect(await orderRow(deps, order.order_no)).toMatchObject({
      status: "paid",
      paid_late: true,
      purchase_status: "paid",
    });
    const api = await t.get("/api/v1/payments/orders/{order_no}", {
      token: user.accessToken,
      params: { order_no: order.order_no },
    });
    expectStatus(api, 200);
    expect(api.body).toMatchObject({ status: "paid", paid_late: true });
    expect((await balanceOf(app, user)).balance).toBe(130);
  });

  it("cancels a pending order on payment.closed but never un-pays a paid one", async () => {
    const user = await registerUser(app);
    const pending = await purchase(user);
    const closed = { ...paidEvent(pending), type: "payment.closed", paid_at: null };
    const res = await deliver(app, deps, closed as GatewayCallback);
    expect(res.status).toBe(200);
    expect((await orderRow(deps, pending.order_no))?.status).toBe("cancelled");

    const paidOrder = await purchase(user);
    expect((await deliver(app, deps, paidEvent(paidOrder))).status).toBe(200);
    const late = { ...paidEvent(paidOrder), type: "payment.closed", paid_at: null };
    expect((await deliver(app, deps, late as GatewayCallback)).status).toBe(200);
    expect((await orderRow(deps, paidOrder.order_no))?.status).toBe("paid");
    expect((await balanceOf(app, user)).balance).toBe(130);
  });

  it("a paid subscription order extends the plan and grants the monthly allowance", async () => {
    const user = await registerUser(app);
    const { body: order } = await buy(app, user, "/api/v1/payments/create-order", {
      plan: "pro",
      pay_type: "alipay",
    });
    const before = Date.now();
    const res = await app.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(res.status).toBe(303);
    const balance = await balanceOf(app, user);
    expect(balance.balance).toBe(30 + 500);
    expect(balance.plan).toBe("pro");
    expect(balance.expiring).toHaveLength(1);
    expect(balance.expiring[0]!.amount).toBe(500);
    const month = new Date(before);
    month.setUTCMonth(month.getUTCMonth() + 1);
    const expiresAt = Date.parse(balance.plan_expires_at!);
    expect(Math.abs(expiresAt - month.getTime())).toBeLessThan(60_000);
    expect(Date.parse(balance.expiring[0]!.expires_at)).toBe(expiresAt);
    // Another month of the same plan extends it from the end of the first.
    const { body: renewal } = await buy(app, user, "/api/v1/payments/create-order", {
      plan: "pro",
      pay_type: "wxpay",
    });
    expect((await deliver(app, deps, paidEvent(renewal))).status).toBe(200);
    const renewed = await balanceOf(app, user);
    const twoMonths = new Date(month);
    twoMonths.setUTCMonth(twoMonths.getUTCMonth() + 1);
    expect(Math.abs(Date.parse(renewed.plan_expires_at!) - twoMonths.getTime())).toBeLessThan(
      60_000,
    );
    expect(renewed.balance).toBe(530);
  });

  // Races over the pool on PostgreSQL; serialized by PGlite's single connection, where the
  // deliveries must still credit once. Runs on both.
  describe("concurrency", () => {
    it("20 concurrent deliveries of one paid event credit once", async () => {
      const user = await registerUser(app);
      const order = await purchase(user);
      const event = paidEvent(order);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => deliver(app, deps, event)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect((await balanceOf(app, user)).balance).toBe(130);
      expect(await eventsOf(deps, order.order_no)).toEqual([
        expect.objectContaining({ result: "applied" }),
      ]);
      expect(await purchaseLedger(deps, user.userId, order.order_no)).toEqual({
        rows: 1,
        credits: 100,
      });
    });

    it("10 concurrent different events for one order credit once", async () => {
      const user = await registerUser(app);
      const order = await purchase(user);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => deliver(app, deps, paidEvent(order))),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect((await balanceOf(app, user)).balance).toBe(130);
      const events = await eventsOf(deps, order.order_no);
      expect(events.filter((e) => e.result === "applied")).toHaveLength(1);
      expect(events.filter((e) => e.result === "duplicate")).toHaveLength(9);
    });
  });
});

describe("the sandbox's key and production", () => {
  /** Signs like the old sandbox did: a key anyone holding CSRF_SECRET could derive. */
  const derived = async () => ({
    ...deps,
    payments: {
      ...deps.payments,
      signingKey: await importHmacKey(`${TEST_SECRETS.csrfSecret}:payment-sandbox`),
      merchantId: "sandbox",
    },
  });

  it("refuses a callback signed with a key derived from CSRF_SECRET", async () => {
    const user = await registerUser(app);
    const order = await purchase(user);
    const forged = await deliver(app, await derived(), paidEvent(order));
    expect(forged.status).toBe(401);
    expect((await orderRow(deps, order.order_no))?.status).toBe("pending");
    expect((await balanceOf(app, user)).balance).toBe(30);
  });

  it("in production without a gateway, no callback is verified and the sandbox pays nothing", async () => {
    const user = await registerUser(app);
    const order = await purchase(user); // a sandbox order left from before the switch
    const production = await ctx.makeApp({}, PRODUCTION_ENV);
    for (const signer of [deps, await derived()]) {
      const res = await deliver(production, signer, paidEvent(order));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "FAIL", detail: "No payment gateway is configured" });
    }
    const pay = await production.request(`/api/v1/payments/sandbox/${order.order_no}/pay`, {
      method: "POST",
    });
    expect(pay.status).toBe(404);
    const created = await buy(production, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "alipay",
    });
    expect(created.status).toBe(503);
    expect((await orderRow(deps, order.order_no))?.status).toBe("pending");
    expect((await balanceOf(app, user)).balance).toBe(30);
  });

  it("PAYMENT_SANDBOX=true turns the sandbox on in production, on its own key", async () => {
    const production = await ctx.makeApp({}, { ...PRODUCTION_ENV, PAYMENT_SANDBOX: "true" });
    const user = await registerUser(app);
    const created = await typed(production).post("/api/v1/credits/purchase", {
      ...signedIn(user),
      json: { package_id: starter.id, pay_type: "alipay" },
    });
    expectStatus(created, 201);
    const orderNo = created.body.order_no;
    const pay = await production.request(`/api/v1/payments/sandbox/${orderNo}/pay`, {
      method: "POST",
    });
    expect(pay.status).toBe(303);
    expect((await orderRow(deps, orderNo))?.status).toBe("paid");
    // And PAYMENT_SANDBOX=false turns it off outside production.
    const off = await ctx.makeApp({}, { PAYMENT_SANDBOX: "false" });
    const refused = await buy(off, user, "/api/v1/credits/purchase", {
      package_id: starter.id,
      pay_type: "alipay",
    });
    expect(refused.status).toBe(503);
  });
});
