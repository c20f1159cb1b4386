import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createOrder, type OrderItem } from "../../src/modules/payments/service/orders";
import { reconcilePendingRefunds } from "../../src/modules/payments/service/refunds";
import type { Deps } from "../../src/ports";
import { startFakeGateway } from "../fakes/payment-gateway";
import { call, randomEmail, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin, type TestContext } from "../support/harness";
import { payOrder } from "./payments-helpers";

// The admin budget is 30 requests a minute per admin: each test gets admins of its own.
const adminEmails = Array.from({ length: 16 }, () => randomEmail());
let nextAdmin = 0;
const ctx = await createTestContext();
let admin = await registerAdmin(ctx, { email: adminEmails[nextAdmin]! });

const fake = await startFakeGateway({ merchantId: "m_admin_test", secret: "gw-secret-0123456789" });
afterAll(() => fake.close());
const gctx = await createTestContext({
  env: {
    PAYMENT_GATEWAY_URL: fake.url,
    PAYMENT_MERCHANT_ID: fake.merchantId,
    PAYMENT_SIGNING_SECRET: fake.secret,
  },
});
let gadmin = await registerAdmin(gctx, { email: adminEmails[nextAdmin]! });
beforeEach(async () => {
  nextAdmin += 1;
  admin = await registerAdmin(ctx, { email: adminEmails[nextAdmin]! });
  gadmin = await registerAdmin(gctx, { email: adminEmails[nextAdmin]! });
});

const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}, c: TestContext = ctx) =>
  call(c.app, path, { token: (c === ctx ? admin : gadmin).accessToken, ...options });

const atTime = (deps: Deps, iso: string): Deps => ({
  ...deps,
  clock: { now: () => new Date(iso) },
});

/** A package and a plan of our own, so every figure below is known. */
async function catalogue(c: TestContext) {
  const pkg = await asAdmin(
    "/api/v1/admin/credit-packages",
    { json: { name: "Test 100", credits: 100, price: 1000 } },
    c,
  );
  const code = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const plan = await asAdmin(
    "/api/v1/admin/credit-plans",
    { json: { code, name: "Test plan", monthly_price: 2900, monthly_credits: 500, tier: 2 } },
    c,
  );
  expect(pkg.status).toBe(201);
  expect(plan.status).toBe(201);
  return { packageId: pkg.body.id as string, planCode: code };
}
const cat = await catalogue(ctx);
const gcat = await catalogue(gctx);
const creditItem = (packageId = cat.packageId): OrderItem => ({ kind: "credits", packageId });
const planItem = (planCode = cat.planCode): OrderItem => ({
  kind: "subscription",
  planCode,
  billingCycle: "monthly",
});

/** Creates an order as the checkout does (sandbox unless deps has a gateway). */
async function order(
  deps: Deps,
  user: Session,
  item: OrderItem,
  payType: "alipay" | "wxpay" = "alipay",
) {
  return createOrder(deps, { userId: user.userId, item, payType });
}

async function paidOrder(user: Session, item: OrderItem, deps: Deps = ctx.deps) {
  const o = await order(deps, user, item);
  await payOrder(deps, o);
  return o;
}

const touched: { c: TestContext; userId: string }[] = [];
async function newUser(c: TestContext = ctx) {
  const user = await registerUser(c.app);
  touched.push({ c, userId: user.userId });
  return user;
}

async function balance(userId: string, c: TestContext = ctx) {
  const [row] = await queryRows<{ balance: number; ledger: number }>(
    c.deps.db,
    sql`select uc.balance,
          (select coalesce(sum(l.delta), 0)::int from credit_ledger l where l.user_id = uc.user_id)
            as ledger
        from user_credits uc where uc.user_id = ${userId}`,
  );
  return row!;
}

async function ledger(userId: string, kind: string, c: TestContext = ctx) {
  return queryRows<{ delta: number; actor_id: string | null; note: string | null }>(
    c.deps.db,
    sql`select delta, actor_id, note from credit_ledger
        where user_id = ${userId} and kind = ${kind} order by created_at, id`,
  );
}

async function orderRow(orderNo: string, c: TestContext = ctx) {
  const [row] = await queryRows<{ status: string; refunded_amount: number }>(
    c.deps.db,
    sql`select status, refunded_amount from payment_transactions where order_no = ${orderNo}`,
  );
  return row!;
}

afterEach(async () => {
  for (const { c, userId } of touched.splice(0)) {
    const b = await balance(userId, c);
    expect(b.balance, `balance = sum(ledger) for ${userId}`).toBe(b.ledger);
  }
});

const refund = (orderNo: string, json: Record<string, unknown>, c: TestContext = ctx) =>
  asAdmin(`/api/v1/admin/payments/${orderNo}/refund`, { json }, c);

describe("admin payment routes", () => {
  it("are 403 for a plain user", async () => {
    const user = await newUser();
    const o = await paidOrder(user, creditItem());
    for (const [method, path] of [
      ["GET", "/api/v1/admin/payments"],
      ["GET", "/api/v1/admin/payments/stats"],
      ["POST", `/api/v1/admin/payments/${o.order_no}/refund`],
    ] as const) {
      const { status } = await call(ctx.app, path, {
        method,
        token: user.accessToken,
        json: method === "POST" ? { reason: "mine" } : undefined,
      });
      expect(status, path).toBe(403);
    }
    expect((await orderRow(o.order_no)).status).toBe("paid");
    expect((await balance(user.userId)).balance).toBe(130);
  });

  it("lists orders newest first with search, filters and a UTC date range", async () => {
    const user = await newUser();
    const older = await order(atTime(ctx.deps, "2025-01-05T23:59:59Z"), user, creditItem());
    await payOrder(atTime(ctx.deps, "2025-01-06T00:10:00Z"), older);
    const newer = await order(atTime(ctx.deps, "2025-01-06T00:00:00Z"), user, planItem(), "wxpay");

    const byEmail = await asAdmin(
      `/api/v1/admin/payments?q=${encodeURIComponent(user.email.slice(3, 16).toUpperCase())}`,
    );
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.total).toBe(2);
    expect(byEmail.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([
      newer.order_no,
      older.order_no,
    ]);
    expect(byEmail.body.items[1]).toMatchObject({
      order_no: older.order_no,
      status: "paid",
      pay_type: "alipay",
      kind: "credits",
      amount: 1000,
      credits: 100,
      user_id: user.userId,
      email: user.email,
      provider: "sandbox",
      provider_trade_no: null,
      created_at: "2025-01-05T23:59:59.000Z",
    });

    const byOrderNo = await asAdmin(
      `/api/v1/admin/payments?q=${older.order_no.slice(0, 16).toLowerCase()}`,
    );
    expect(byOrderNo.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([
      older.order_no,
    ]);
    // A prefix only: the middle of an order number matches nothing.
    const middle = await asAdmin(`/api/v1/admin/payments?q=${older.order_no.slice(4, 20)}`);
    expect(middle.body.total).toBe(0);

    const q = `q=${encodeURIComponent(user.email)}`;
    const paid = await asAdmin(`/api/v1/admin/payments?${q}&status=paid`);
    expect(paid.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([older.order_no]);
    const wxpay = await asAdmin(`/api/v1/admin/payments?${q}&pay_type=wxpay`);
    expect(wxpay.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([newer.order_no]);
    const day6 = await asAdmin(`/api/v1/admin/payments?${q}&start_date=2025-01-06`);
    expect(day6.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([newer.order_no]);
    const day5 = await asAdmin(
      `/api/v1/admin/payments?${q}&start_date=2025-01-05&end_date=2025-01-05`,
    );
    expect(day5.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([older.order_no]);
    const both = await asAdmin(`/api/v1/admin/payments?${q}&end_date=2025-01-06&size=1&page=2`);
    expect(both.body).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(both.body.items.map((i: { order_no: string }) => i.order_no)).toEqual([older.order_no]);
    const none = await asAdmin(`/api/v1/admin/payments?${q}&end_date=2025-01-04`);
    expect(none.body.total).toBe(0);

    expect((await asAdmin(`/api/v1/admin/payments?status=bogus`)).status).toBe(422);
    expect((await asAdmin(`/api/v1/admin/payments?start_date=2025-02-30`)).status).toBe(422);
    expect(
      (await asAdmin(`/api/v1/admin/payments?start_date=2025-01-07&end_date=2025-01-06`)).status,
    ).toBe(422);
  });

  it("reports exact revenue by day, pay_type and currency, and orders by status", async () => {
    const user = await newUser();
    const d1 = atTime(ctx.deps, "2024-06-10T08:00:00Z");
    const d2 = atTime(ctx.deps, "2024-06-11T23:30:00Z");
    const a = await order(d1, user, creditItem(), "alipay");
    await payOrder(d1, a);
    const b = await order(d1, user, creditItem(), "wxpay");
    await payOrder(d1, b);
    const c = await order(d1, user, creditItem(), "alipay");
    await payOrder(d1, c);
    const s = await order(d2, user, planItem(), "alipay");
    await payOrder(d2, s);
    await order(d2, user, creditItem(), "alipay"); // stays pending
    const r1 = await refund(c.order_no, { amount: 300, reason: "partial" });
    expect(r1.status).toBe(200);
    const r2 = await refund(b.order_no, { reason: "all of it" });
    expect(r2.status).toBe(200);

    const stats = await asAdmin(
      "/api/v1/admin/payments/stats?start_date=2024-06-10&end_date=2024-06-11",
    );
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      start_date: "2024-06-10",
      end_date: "2024-06-11",
      totals: {
        orders: 5,
        paid_orders: 4,
        gross: { CNY: 1000 * 3 + 2900 },
        refunded: { CNY: 300 + 1000 },
        revenue: { CNY: 1000 + 700 + 2900 },
      },
      by_status: {
        pending: 1,
        paid: 2,
        expired: 0,
        cancelled: 0,
        refunded: 1,
        partially_refunded: 1,
      },
      revenue: [
        {
          date: "2024-06-10",
          pay_type: "alipay",
          currency: "CNY",
          orders: 2,
          gross: 2000,
          refunded: 300,
          revenue: 1700,
        },
        {
          date: "2024-06-10",
          pay_type: "wxpay",
          currency: "CNY",
          orders: 1,
          gross: 1000,
          refunded: 1000,
          revenue: 0,
        },
        {
          date: "2024-06-11",
          pay_type: "alipay",
          currency: "CNY",
          orders: 1,
          gross: 2900,
          refunded: 0,
          revenue: 2900,
        },
      ],
    });
    const oneDay = await asAdmin(
      "/api/v1/admin/payments/stats?start_date=2024-06-11&end_date=2024-06-11",
    );
    expect(oneDay.body.totals).toMatchObject({ orders: 2, paid_orders: 1, revenue: { CNY: 2900 } });

    const defaults = await asAdmin("/api/v1/admin/payments/stats");
    const today = new Date().toISOString().slice(0, 10);
    expect(defaults.body.end_date).toBe(today);
    expect(Date.parse(today) - Date.parse(defaults.body.start_date)).toBe(29 * 86_400_000);
    const tooLong = await asAdmin(
      "/api/v1/admin/payments/stats?start_date=2024-01-01&end_date=2025-01-01",
    );
    expect(tooLong.status).toBe(422);
    const max = await asAdmin(
      "/api/v1/admin/payments/stats?start_date=2024-01-01&end_date=2024-12-31",
    );
    expect(max.status).toBe(200);
  });

  it("refunds a credit order in full, taking the credits back in the ledger with the admin's id", async () => {
    const user = await newUser();
    const o = await paidOrder(user, creditItem());
    expect((await balance(user.userId)).balance).toBe(130);
    const res = await refund(o.order_no, { reason: "Customer asked" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      order_no: o.order_no,
      amount: 1000,
      status: "succeeded",
      credits_reversed: 100,
      order_status: "refunded",
      refunded_amount: 1000,
    });
    expect(res.body.refund_no).toMatch(/^RF[A-Z2-9]{24}$/);
    expect((await balance(user.userId)).balance).toBe(30);
    const rows = await ledger(user.userId, "admin_adjustment");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: -100, actor_id: admin.userId });
    expect(rows[0]!.note).toContain(o.order_no);
    expect(await orderRow(o.order_no)).toEqual({ status: "refunded", refunded_amount: 1000 });
    const [purchase] = await queryRows<{ status: string }>(
      ctx.deps.db,
      sql`select status from credit_purchases where order_no = ${o.order_no}`,
    );
    expect(purchase!.status).toBe("refunded");
    const [stored] = await queryRows<{
      status: string;
      credits_reversed: number;
      admin_id: string;
    }>(
      ctx.deps.db,
      sql`select status, credits_reversed, admin_id from payment_refunds
          where refund_no = ${res.body.refund_no}`,
    );
    expect(stored).toEqual({ status: "succeeded", credits_reversed: 100, admin_id: admin.userId });

    // The same refund applied again changes nothing.
    const [again] = await queryRows<{ result: string }>(
      ctx.deps.db,
      sql`select result from payment_refund_apply(${res.body.refund_no}, ${admin.userId}::uuid, now())`,
    );
    expect(again!.result).toBe("duplicate");
    expect((await balance(user.userId)).balance).toBe(30);
    expect(await ledger(user.userId, "admin_adjustment")).toHaveLength(1);
    expect(await orderRow(o.order_no)).toEqual({ status: "refunded", refunded_amount: 1000 });

    // Nothing is left to refund.
    expect((await refund(o.order_no, { reason: "twice" })).status).toBe(409);
  });

  it("refunds in parts, caps the credits taken back at what the user still has", async () => {
    const user = await newUser();
    const o = await paidOrder(user, creditItem());
    const first = await refund(o.order_no, { amount: 250, reason: "part one" });
    expect(first.body).toMatchObject({
      credits_reversed: 25,
      order_status: "partially_refunded",
      refunded_amount: 250,
    });
    const second = await refund(o.order_no, { amount: 333, reason: "part two" });
    // floor(100 * 583 / 1000) - 25 = 33: the parts add up to the whole pack.
    expect(second.body).toMatchObject({ credits_reversed: 33, refunded_amount: 583 });
    expect((await balance(user.userId)).balance).toBe(130 - 25 - 33);

    const over = await refund(o.order_no, { amount: 418, reason: "too much" });
    expect(over.status).toBe(422);
    expect(over.body.errors[0].loc).toEqual(["body", "amount"]);
    expect((await refund(o.order_no, { amount: 0, reason: "zero" })).status).toBe(422);
    expect(await orderRow(o.order_no)).toEqual({
      status: "partially_refunded",
      refunded_amount: 583,
    });

    // The user spends most of what is left.
    const spend = await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: -60, reason: "spent" },
    });
    expect(spend.body.balance).toBe(12);
    const last = await refund(o.order_no, { reason: "the rest" });
    expect(last.status).toBe(200);
    // 42 credits were due back, the user has 12.
    expect(last.body).toMatchObject({
      amount: 417,
      credits_reversed: 12,
      order_status: "refunded",
      refunded_amount: 1000,
    });
    expect((await balance(user.userId)).balance).toBe(0);
    expect((await ledger(user.userId, "admin_adjustment")).map((r) => r.delta)).toEqual([
      -25, -33, -60, -12,
    ]);
    const stored = await queryRows<{ amount: number; credits_reversed: number }>(
      ctx.deps.db,
      sql`select amount, credits_reversed from payment_refunds where order_no = ${o.order_no}
          order by created_at, id`,
    );
    expect(stored.map((r) => [r.amount, r.credits_reversed]).sort((x, y) => x[0]! - y[0]!)).toEqual(
      [
        [250, 25],
        [333, 33],
        [417, 12],
      ],
    );
  });

  it("lets only one of several simultaneous refunds take the remainder", async () => {
    const user = await newUser();
    const o = await paidOrder(user, creditItem());
    const results = await Promise.all(
      [1, 2, 3].map((n) => refund(o.order_no, { reason: `race ${n}` })),
    );
    // The losers see the winner's refund either still pending (422: nothing left to reserve)
    // or done (409: the order is refunded), depending on timing.
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1).every((s) => s === 409 || s === 422)).toBe(true);
    expect(await orderRow(o.order_no)).toEqual({ status: "refunded", refunded_amount: 1000 });
    expect((await balance(user.userId)).balance).toBe(30);
    expect((await ledger(user.userId, "admin_adjustment")).map((r) => r.delta)).toEqual([-100]);
  });

  it("refunds a subscription: plan back to free, allowance expired with a ledger row", async () => {
    const user = await newUser();
    await ctx.deps.db.execute(
      sql`update orgs set plan = 'free', plan_expires_at = null,
            trial_ends_at = now() - interval '1 day'
          where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    const o = await paidOrder(user, planItem());
    let [u] = await queryRows<{ plan: string; plan_expires_at: Date | null }>(
      ctx.deps.db,
      sql`select plan, plan_expires_at from orgs
      where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    expect(u!.plan).toBe(cat.planCode);
    expect((await balance(user.userId)).balance).toBe(530);

    // A partial refund leaves the subscription running.
    const part = await refund(o.order_no, { amount: 900, reason: "discount" });
    expect(part.body).toMatchObject({ order_status: "partially_refunded", credits_reversed: 0 });
    [u] = await queryRows(
      ctx.deps.db,
      sql`select plan, plan_expires_at from orgs
      where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    expect(u!.plan).toBe(cat.planCode);
    expect((await balance(user.userId)).balance).toBe(530);

    const res = await refund(o.order_no, { reason: "cancel" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ order_status: "refunded", refunded_amount: 2900 });
    [u] = await queryRows(
      ctx.deps.db,
      sql`select plan, plan_expires_at from orgs
      where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    expect(u).toEqual({ plan: "free", plan_expires_at: null });
    expect((await balance(user.userId)).balance).toBe(30);
    const expiry = await ledger(user.userId, "expiry");
    expect(expiry.map((r) => r.delta)).toEqual([-500]);
    const [sub] = await queryRows<{ cancelled_at: Date | null; ends_at: Date }>(
      ctx.deps.db,
      sql`select cancelled_at, ends_at from subscriptions where order_no = ${o.order_no}`,
    );
    expect(sub!.cancelled_at).not.toBeNull();
    expect(new Date(sub!.ends_at).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("refunds a subscription bought during a trial: back to the trial", async () => {
    const user = await newUser();
    const [before] = await queryRows<{ trial_ends_at: Date }>(
      ctx.deps.db,
      sql`select trial_ends_at from orgs
      where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    const o = await paidOrder(user, planItem());
    // The user spends some of the allowance first; the rest expires.
    await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: -100, reason: "spent" },
    });
    const res = await refund(o.order_no, { reason: "cancel" });
    expect(res.status).toBe(200);
    const [u] = await queryRows<{ plan: string; plan_expires_at: Date | null }>(
      ctx.deps.db,
      sql`select plan, plan_expires_at from orgs
      where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    expect(u!.plan).toBe("pro");
    expect(new Date(u!.plan_expires_at!).toISOString()).toBe(
      new Date(before!.trial_ends_at).toISOString(),
    );
    // 100 were spent from the allowance (it expires soonest), 400 expire.
    expect((await ledger(user.userId, "expiry")).map((r) => r.delta)).toEqual([-400]);
    expect((await balance(user.userId)).balance).toBe(30);
  });

  it("refuses pending and unknown orders, and bad bodies", async () => {
    const user = await newUser();
    const pending = await order(ctx.deps, user, creditItem());
    const res = await refund(pending.order_no, { reason: "not paid" });
    expect(res.status).toBe(409);
    expect(await orderRow(pending.order_no)).toEqual({ status: "pending", refunded_amount: 0 });
    expect((await refund("TA20260101NOSUCHORDER0000", { reason: "ghost" })).status).toBe(404);
    expect((await refund(pending.order_no, { reason: "" })).status).toBe(422);
    expect((await refund(pending.order_no, { amount: 1.5, reason: "x" })).status).toBe(422);
    const [count] = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from payment_refunds where order_no = ${pending.order_no}`,
    );
    expect(count!.n).toBe(0);
  });
});

describe("admin refunds through the payment gateway", () => {
  async function gatewayPaidOrder(user: Session) {
    const o = await order(gctx.deps, user, creditItem(gcat.packageId));
    expect(o.pay_url).toBeTruthy();
    await fake.pay(o.order_no); // its callback cannot reach this test app: applied below
    await payOrder(gctx.deps, o, "gateway");
    return o;
  }

  it("refunds at the gateway, then applies the credits", async () => {
    const user = await newUser(gctx);
    const o = await gatewayPaidOrder(user);
    const res = await refund(o.order_no, { amount: 400, reason: "Damaged goods" }, gctx);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "succeeded", credits_reversed: 40 });
    expect(fake.getRefund(res.body.refund_no)).toMatchObject({
      out_trade_no: o.order_no,
      amount: 400,
      reason: "Damaged goods",
      status: "succeeded",
    });
    expect((await balance(user.userId, gctx)).balance).toBe(90);
    expect(await orderRow(o.order_no, gctx)).toEqual({
      status: "partially_refunded",
      refunded_amount: 400,
    });
  });

  /** The app's deps a few minutes from now, when a pending refund is due for reconciliation. */
  const later = (): Deps => ({
    ...gctx.deps,
    clock: { now: () => new Date(Date.now() + 3 * 60_000) },
  });
  const refundRows = (orderNo: string) =>
    queryRows<{ status: string; credits_reversed: number }>(
      gctx.deps.db,
      sql`select status, credits_reversed from payment_refunds where order_no = ${orderNo}`,
    );

  it("a refused refund (409 at the gateway) is a 503, failed, and frees its amount", async () => {
    const user = await newUser(gctx);
    const o = await gatewayPaidOrder(user);
    // The gateway sees the order as not paid: a definite refusal (409 ORDER_NOT_PAID).
    fake.getOrder(o.order_no)!.status = "closed";
    const res = await refund(o.order_no, { amount: 500, reason: "Refused" }, gctx);
    expect(res.status).toBe(503);
    fake.getOrder(o.order_no)!.status = "paid";
    expect(await refundRows(o.order_no)).toEqual([{ status: "failed", credits_reversed: 0 }]);
    expect((await balance(user.userId, gctx)).balance).toBe(130);
    expect(await orderRow(o.order_no, gctx)).toEqual({ status: "paid", refunded_amount: 0 });
    expect(await ledger(user.userId, "admin_adjustment", gctx)).toEqual([]);
    // A failed refund reserves nothing: the whole amount can be refunded afterwards.
    const retry = await refund(o.order_no, { reason: "Again" }, gctx);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ amount: 1000, credits_reversed: 100 });
    expect((await balance(user.userId, gctx)).balance).toBe(30);
  });

  it("an unclear failure (502) leaves the refund pending and reserved until reconciled", async () => {
    const user = await newUser(gctx);
    const o = await gatewayPaidOrder(user);
    fake.fail("http-502");
    let res: Awaited<ReturnType<typeof refund>>;
    try {
      res = await refund(o.order_no, { reason: "Unclear" }, gctx);
    } finally {
      fake.fail(null);
    }
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending", amount: 1000, credits_reversed: 0 });
    expect(await refundRows(o.order_no)).toEqual([{ status: "pending", credits_reversed: 0 }]);
    expect((await balance(user.userId, gctx)).balance).toBe(130);
    // Its amount stays reserved: no second refund can pay the same money out again.
    expect((await refund(o.order_no, { amount: 1, reason: "More" }, gctx)).status).toBe(422);

    // Not due yet; then asked again under the same refund number, and applied once.
    expect((await reconcilePendingRefunds(gctx.deps)).checked).toBe(0);
    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 1, succeeded: 1 });
    expect(fake.getRefund(res.body.refund_no)).toMatchObject({ amount: 1000, status: "succeeded" });
    expect(await refundRows(o.order_no)).toEqual([{ status: "succeeded", credits_reversed: 100 }]);
    expect((await balance(user.userId, gctx)).balance).toBe(30);
    expect(await orderRow(o.order_no, gctx)).toEqual({ status: "refunded", refunded_amount: 1000 });
    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 0 });
  });

  it("a refund made at the gateway whose answer was lost is applied once, never paid twice", async () => {
    const user = await newUser(gctx);
    const o = await gatewayPaidOrder(user);
    fake.fail("processed-502");
    let res: Awaited<ReturnType<typeof refund>>;
    try {
      res = await refund(o.order_no, { amount: 600, reason: "Lost answer" }, gctx);
    } finally {
      fake.fail(null);
    }
    expect(res.status).toBe(202);
    // The gateway did refund: the money is out, and our record says pending, not failed.
    expect(fake.getRefund(res.body.refund_no)).toMatchObject({ amount: 600 });
    expect(fake.getOrder(o.order_no)!.refunded_amount).toBe(600);
    expect(await refundRows(o.order_no)).toEqual([{ status: "pending", credits_reversed: 0 }]);

    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 1, succeeded: 1 });
    // The same out_refund_no was answered with the same refund: still 600 out, not 1,200.
    expect(fake.getOrder(o.order_no)!.refunded_amount).toBe(600);
    expect(await orderRow(o.order_no, gctx)).toEqual({
      status: "partially_refunded",
      refunded_amount: 600,
    });
    expect((await balance(user.userId, gctx)).balance).toBe(70);
  });

  it("reconciles a refund the gateway settles later, and fails one it later refuses", async () => {
    const user = await newUser(gctx);
    const o = await gatewayPaidOrder(user);
    fake.setRefundOutcome("pending");
    let res: Awaited<ReturnType<typeof refund>>;
    try {
      res = await refund(o.order_no, { amount: 300, reason: "Later" }, gctx);
    } finally {
      fake.setRefundOutcome("succeeded");
    }
    expect(res.status).toBe(202);
    // Still pending at the gateway: nothing changes.
    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 1, pending: 1 });
    expect(await refundRows(o.order_no)).toEqual([{ status: "pending", credits_reversed: 0 }]);
    // The gateway fails it (no callback reaches this app): the next run records the failure.
    fake.getRefund(res.body.refund_no)!.status = "failed";
    expect(await reconcilePendingRefunds(later())).toMatchObject({ checked: 1, failed: 1 });
    expect(await refundRows(o.order_no)).toEqual([{ status: "failed", credits_reversed: 0 }]);
    expect((await balance(user.userId, gctx)).balance).toBe(130);
  });

  it("a refund the gateway settles later stays pending and reserves its amount", async () => {
    const user = await newUser(gctx);
    const o = await gatewayPaidOrder(user);
    fake.setRefundOutcome("pending");
    let res: Awaited<ReturnType<typeof refund>>;
    try {
      res = await refund(o.order_no, { amount: 600, reason: "Later" }, gctx);
    } finally {
      fake.setRefundOutcome("succeeded");
    }
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending", credits_reversed: 0, refunded_amount: 0 });
    expect((await balance(user.userId, gctx)).balance).toBe(130);
    expect((await refund(o.order_no, { amount: 401, reason: "More" }, gctx)).status).toBe(422);
  });
});
