import { describe, expect, it } from "vitest";
import { call, expectStatus, randomEmail, registerUser, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}) =>
  call(app, path, { token: admin.accessToken, ...options });
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths use `asAdmin`. */
const t = typed(app);
const token = admin.accessToken;
const ADJUST = "/api/v1/admin/credit-users/{user_id}/adjust" as const;

describe("admin credit routes", () => {
  it("are 403 for a plain user", async () => {
    const user = await registerUser(app);
    for (const [method, path] of [
      ["GET", "/api/v1/admin/credit-users"],
      ["GET", "/api/v1/admin/credit-consumptions"],
      ["GET", "/api/v1/admin/credit-packages"],
      ["GET", "/api/v1/admin/credit-plans"],
      ["POST", `/api/v1/admin/credit-users/${user.userId}/adjust`],
    ] as const) {
      const { status } = await call(app, path, {
        method,
        token: user.accessToken,
        json: method === "POST" ? { delta: 5, reason: "nope" } : undefined,
      });
      expect(status, path).toBe(403);
    }
  });

  it("adjusts a balance with the admin's id and reason in the ledger", async () => {
    const user = await registerUser(app);
    const params = { user_id: user.userId };
    const add = await t.post(ADJUST, {
      token,
      params,
      json: { delta: 20, reason: "Goodwill for an outage" },
    });
    expectStatus(add, 200);
    expect(add.body.balance).toBe(50);
    const remove = await t.post(ADJUST, {
      token,
      params,
      json: { delta: -45, reason: "Chargeback" },
    });
    expectStatus(remove, 200);
    expect(remove.body.balance).toBe(5);
    const tooMuch = await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: -6, reason: "Too much" },
    });
    expect(tooMuch.status).toBe(402);
    expect(tooMuch.body).toMatchObject({ required: 6, balance: 5 });
    const history = await t.get("/api/v1/credits/history", {
      token: user.accessToken,
      query: { kind: "admin_adjustment" },
    });
    expectStatus(history, 200);
    expect(history.body.items.map((r) => [r.delta, r.actor_id, r.note])).toEqual([
      [-45, admin.userId, "Chargeback"],
      [20, admin.userId, "Goodwill for an outage"],
    ]);
    const zero = await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: 0, reason: "x y z" },
    });
    expect(zero.status).toBe(422);
    const ghost = await asAdmin(`/api/v1/admin/credit-users/${crypto.randomUUID()}/adjust`, {
      json: { delta: 5, reason: "nobody" },
    });
    expect(ghost.status).toBe(404);
  });

  it("lists balances and consumptions", async () => {
    const user = await registerUser(app, { name: "Consumer" });
    const users = await t.get("/api/v1/admin/credit-users", { token, query: { q: user.email } });
    expectStatus(users, 200);
    expect(users.body.items).toEqual([
      expect.objectContaining({ user_id: user.userId, balance: 30, email: user.email }),
    ]);
    const consumptions = await t.get("/api/v1/admin/credit-consumptions", {
      token,
      query: { user_id: user.userId },
    });
    expectStatus(consumptions, 200);
    expect(consumptions.body).toMatchObject({ total: 0, items: [] });
  });

  it("creates, changes and retires packages, which leave the public list", async () => {
    const created = await t.post("/api/v1/admin/credit-packages", {
      token,
      json: { name: "Trade fair 1000", credits: 1000, price: 12_900 },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({ currency: "CNY", active: true });
    const params = { id: created.body.id };
    const changed = await t.patch("/api/v1/admin/credit-packages/{id}", {
      token,
      params,
      json: { price: 11_900 },
    });
    expectStatus(changed, 200);
    expect(changed.body.price).toBe(11_900);
    const listed = await t.get("/api/v1/credits/packages");
    expectStatus(listed, 200);
    expect(listed.body.items.map((p) => p.id)).toContain(created.body.id);
    await t.delete("/api/v1/admin/credit-packages/{id}", { token, params });
    const after = await t.get("/api/v1/credits/packages");
    expectStatus(after, 200);
    expect(after.body.items.map((p) => p.id)).not.toContain(created.body.id);
    const bad = await asAdmin("/api/v1/admin/credit-packages", {
      json: { name: "Free money", credits: 10, price: -1 },
    });
    expect(bad.status).toBe(422);
  });

  it("creates plans with unique codes and prices the yearly cycle", async () => {
    const code = `team${Date.now().toString(36)}`;
    const created = await t.post("/api/v1/admin/credit-plans", {
      token,
      json: { code, name: "Team", monthly_price: 49_900, monthly_credits: 5000, tier: 3 },
    });
    expectStatus(created, 201);
    expect(created.body.yearly_price).toBe(Math.round(12 * 49_900 * 0.85));
    const duplicate = await asAdmin("/api/v1/admin/credit-plans", {
      json: { code, name: "Team again", monthly_price: 1, monthly_credits: 1, tier: 3 },
    });
    expect(duplicate.status).toBe(409);
    const missing = await asAdmin(`/api/v1/admin/credit-plans/${crypto.randomUUID()}`, {
      method: "PATCH",
      json: { name: "x" },
    });
    expect(missing.status).toBe(404);
  });
});
