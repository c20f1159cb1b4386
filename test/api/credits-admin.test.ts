import { describe, expect, it } from "vitest";
import { call, randomEmail, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}) =>
  call(app, path, { token: admin.accessToken, ...options });

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
    const add = await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: 20, reason: "Goodwill for an outage" },
    });
    expect(add.status).toBe(200);
    expect(add.body.balance).toBe(50);
    const remove = await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: -45, reason: "Chargeback" },
    });
    expect(remove.body.balance).toBe(5);
    const tooMuch = await asAdmin(`/api/v1/admin/credit-users/${user.userId}/adjust`, {
      json: { delta: -6, reason: "Too much" },
    });
    expect(tooMuch.status).toBe(402);
    expect(tooMuch.body).toMatchObject({ required: 6, balance: 5 });
    const history = await call(app, "/api/v1/credits/history?kind=admin_adjustment", {
      token: user.accessToken,
    });
    expect(
      history.body.items.map((r: { delta: number; actor_id: string; note: string }) => [
        r.delta,
        r.actor_id,
        r.note,
      ]),
    ).toEqual([
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
    const users = await asAdmin(`/api/v1/admin/credit-users?q=${encodeURIComponent(user.email)}`);
    expect(users.body.items).toEqual([
      expect.objectContaining({ user_id: user.userId, balance: 30, email: user.email }),
    ]);
    const consumptions = await asAdmin(`/api/v1/admin/credit-consumptions?user_id=${user.userId}`);
    expect(consumptions.body).toMatchObject({ total: 0, items: [] });
  });

  it("creates, changes and retires packages, which leave the public list", async () => {
    const created = await asAdmin("/api/v1/admin/credit-packages", {
      json: { name: "Trade fair 1000", credits: 1000, price: 12_900 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ currency: "CNY", active: true });
    const changed = await asAdmin(`/api/v1/admin/credit-packages/${created.body.id}`, {
      method: "PATCH",
      json: { price: 11_900 },
    });
    expect(changed.body.price).toBe(11_900);
    let pub = await call(app, "/api/v1/credits/packages");
    expect(pub.body.items.map((p: { id: string }) => p.id)).toContain(created.body.id);
    await asAdmin(`/api/v1/admin/credit-packages/${created.body.id}`, { method: "DELETE" });
    pub = await call(app, "/api/v1/credits/packages");
    expect(pub.body.items.map((p: { id: string }) => p.id)).not.toContain(created.body.id);
    const bad = await asAdmin("/api/v1/admin/credit-packages", {
      json: { name: "Free money", credits: 10, price: -1 },
    });
    expect(bad.status).toBe(422);
  });

  it("creates plans with unique codes and prices the yearly cycle", async () => {
    const code = `team${Date.now().toString(36)}`;
    const created = await asAdmin("/api/v1/admin/credit-plans", {
      json: { code, name: "Team", monthly_price: 49_900, monthly_credits: 5000, tier: 3 },
    });
    expect(created.status).toBe(201);
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
