import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { expireDueCredits, grantCredits } from "../../src/modules/credits/service";
import { appWithBillableRoute } from "../support/billable";
import { call, expectStatus, registerUser, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;
const billable = appWithBillableRoute(deps);

const charge = (
  token: string,
  json: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => call(billable, "/test/billable", { json, token, headers });

async function ledgerSum(userId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number; lots: number }>(
    deps.db,
    sql`select (select balance from user_credits where user_id = ${userId}) as balance,
          (select coalesce(sum(delta), 0)::int from credit_ledger where user_id = ${userId}) as ledger,
          (select coalesce(sum(remaining), 0)::int from credit_lots where user_id = ${userId}) as lots`,
  );
  return row!;
}

describe("catalogue", () => {
  it("lists the seeded packages publicly", async () => {
    const packages = await typed(app).get("/api/v1/credits/packages");
    expectStatus(packages, 200);
    const { body } = packages;
    expect(body.items.map((p) => p.credits)).toEqual([100, 500, 2000]);
    expect(body.items[0]).toEqual({
      id: expect.any(String),
      name: "Starter 100",
      credits: 100,
      price: 1900,
      currency: "CNY",
    });
  });

  it("prices yearly plans at 12 x monthly less the configured discount", async () => {
    const plans = await typed(app).get("/api/v1/credits/plans");
    expectStatus(plans, 200);
    const { body } = plans;
    const pro = body.items.find((p) => p.code === "pro");
    expect(pro).toMatchObject({
      monthly_price: 9900,
      yearly_price: Math.round(12 * 9900 * 0.85),
      monthly_credits: 500,
    });
    expect(body.items.map((p) => p.code)).toEqual(["free", "pro", "business"]);
  });
});

describe("balance and history", () => {
  it("shows the registration grant, the plan and the trial", async () => {
    const user = await registerUser(app);
    const token = user.accessToken;
    const balance = await typed(app).get("/api/v1/credits/balance", { token });
    expectStatus(balance, 200);
    expect(balance.body).toEqual({
      balance: 30,
      plan: "pro",
      features: expect.arrayContaining(["marketing", "discovery", "ai_assistant"]),
      plan_expires_at: user.body.user.trial_ends_at,
      trial_ends_at: user.body.user.trial_ends_at,
      on_trial: true,
      expiring: [],
      member_used_month: 0,
      member_limit: null,
    });
    const history = await typed(app).get("/api/v1/credits/history", { token });
    expectStatus(history, 200);
    expect(history.body.total).toBe(1);
    expect(history.body.items[0]).toMatchObject({
      delta: 30,
      balance_after: 30,
      kind: "registration_grant",
      source_type: "user",
      source_id: user.userId,
    });
    expect((await call(app, "/api/v1/credits/balance")).status).toBe(401);
  });
});

describe("charging", () => {
  it("charges the configured cost with a ledger row and a consumption row", async () => {
    const user = await registerUser(app);
    const { status, body } = await charge(user.accessToken);
    expect(status).toBe(200);
    expect(body).toMatchObject({ charged: 2, balance: 28 });
    const history = await typed(app).get("/api/v1/credits/history", {
      token: user.accessToken,
      query: { kind: "consumption" },
    });
    expectStatus(history, 200);
    expect(history.body.items).toEqual([
      expect.objectContaining({
        delta: -2,
        balance_after: 28,
        kind: "consumption",
        operation: "quotation_from_inquiry",
        source_type: "consumption",
        source_id: body.consumption_id,
      }),
    ]);
    expect(await ledgerSum(user.userId)).toEqual({ balance: 28, ledger: 28, lots: 28 });
  });

  it("answers 402 with required and balance, and writes nothing", async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 15; i++) expect((await charge(user.accessToken)).status).toBe(200);
    const { status, body } = await charge(user.accessToken);
    expect(status).toBe(402);
    expect(body).toEqual({
      detail: "Not enough credits for this operation",
      code: "insufficient_credits",
      required: 2,
      available: 0,
      balance: 0,
    });
    expect(await ledgerSum(user.userId)).toEqual({ balance: 0, ledger: 0, lots: 0 });
  });

  it("refunds a charge when the provider fails, exactly once", async () => {
    const user = await registerUser(app);
    const failed = await charge(user.accessToken, { fail: true });
    expect(failed.status).toBe(503);
    expect(failed.body.detail).toMatch(/returned/);
    const history = await typed(app).get("/api/v1/credits/history", { token: user.accessToken });
    expectStatus(history, 200);
    expect(history.body.items.map((r) => [r.kind, r.delta])).toEqual([
      ["refund", 2],
      ["consumption", -2],
      ["registration_grant", 30],
    ]);
    expect(await ledgerSum(user.userId)).toEqual({ balance: 30, ledger: 30, lots: 30 });
  });

  it("spends the soonest-expiring credits first and expires the rest with a ledger row", async () => {
    const user = await registerUser(app);
    const expiresAt = new Date(Date.now() + 600_000);
    await grantCredits(deps, {
      userId: user.userId,
      amount: 10,
      kind: "plan_allowance",
      sourceType: "order",
      sourceId: `test-${user.userId}`,
      expiresAt,
    });
    await charge(user.accessToken);
    const balance = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
    expectStatus(balance, 200);
    expect(balance.body.balance).toBe(38);
    expect(balance.body.expiring).toEqual([{ amount: 8, expires_at: expiresAt.toISOString() }]);

    // Ten minutes later the allowance is gone; the scheduled task writes it off.
    const later = { now: () => new Date(expiresAt.getTime() + 1000) };
    const laterApp = await ctx.makeApp({ clock: later });
    const before = await typed(laterApp).get("/api/v1/credits/balance", {
      token: user.accessToken,
    });
    expectStatus(before, 200);
    expect(before.body.balance).toBe(30);
    const result = await expireDueCredits({ ...deps, clock: later });
    expect(result.credits).toBeGreaterThanOrEqual(8);
    const history = await typed(laterApp).get("/api/v1/credits/history", {
      token: user.accessToken,
      query: { kind: "expiry" },
    });
    expectStatus(history, 200);
    expect(history.body.items).toEqual([
      expect.objectContaining({ delta: -8, balance_after: 30, kind: "expiry", source_type: "lot" }),
    ]);
    expect(await ledgerSum(user.userId)).toEqual({ balance: 30, ledger: 30, lots: 30 });
  });

  it("grants once per source, whatever the retries", async () => {
    const user = await registerUser(app);
    const grant = () =>
      grantCredits(deps, {
        userId: user.userId,
        amount: 100,
        kind: "purchase",
        sourceType: "order",
        sourceId: `order-${user.userId}`,
      });
    const results = await Promise.all([grant(), grant(), grant()]);
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await ledgerSum(user.userId)).toEqual({ balance: 130, ledger: 130, lots: 130 });
  });
});

describe("Idempotency-Key", () => {
  it("replays the first outcome and charges once", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    const first = await charge(user.accessToken, { note: "a" }, { "Idempotency-Key": key });
    const second = await charge(user.accessToken, { note: "a" }, { "Idempotency-Key": key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await ledgerSum(user.userId)).toMatchObject({ balance: 28 });
  });

  it("answers 422 for the same key with another body", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    await charge(user.accessToken, { note: "a" }, { "Idempotency-Key": key });
    const other = await charge(user.accessToken, { note: "b" }, { "Idempotency-Key": key });
    expect(other.status).toBe(422);
    expect(await ledgerSum(user.userId)).toMatchObject({ balance: 28 });
  });

  it("scopes keys per user and frees a key after a failure", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    const key = crypto.randomUUID();
    expect((await charge(a.accessToken, {}, { "Idempotency-Key": key })).status).toBe(200);
    expect((await charge(b.accessToken, {}, { "Idempotency-Key": key })).status).toBe(200);
    const failed = await charge(a.accessToken, { fail: true }, { "Idempotency-Key": "retry-me" });
    expect(failed.status).toBe(503);
    const retried = await charge(a.accessToken, { fail: true }, { "Idempotency-Key": "retry-me" });
    expect(retried.status).toBe(503);
    expect(retried.res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await ledgerSum(a.userId)).toMatchObject({ balance: 28 });
  });

  it("charges once for 50 parallel requests with one key", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => charge(user.accessToken, {}, { "Idempotency-Key": key })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses).toContain(200);
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_consumptions where user_id = ${user.userId}`,
    );
    expect(row!.n).toBe(1);
    expect(await ledgerSum(user.userId)).toEqual({ balance: 28, ledger: 28, lots: 28 });
  });

  it("rejects a malformed key with 422", async () => {
    const user = await registerUser(app);
    const { status } = await charge(user.accessToken, {}, { "Idempotency-Key": "x".repeat(300) });
    expect(status).toBe(422);
  });
});
