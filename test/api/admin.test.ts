import { describe, expect, it } from "vitest";
import { call, randomEmail, randomIp, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });

describe("admin guard", () => {
  it("admits accounts whose database role is admin", async () => {
    const { status } = await call(app, "/api/v1/admin/users", { token: admin.accessToken });
    expect(status).toBe(200);
  });

  it("answers 403 to a plain user and 401 without a token", async () => {
    const user = await registerUser(app);
    for (const path of [
      "/api/v1/admin/users",
      "/api/v1/admin/usage-logs",
      "/api/v1/admin/system-config",
    ]) {
      expect((await call(app, path, { token: user.accessToken })).status).toBe(403);
      expect((await call(app, path)).status).toBe(401);
    }
  });

  it("reads the role from the database: granting and revoking take effect at once", async () => {
    const user = await registerUser(app);
    await ctx.database.db.execute(
      `update users set role = 'admin' where id = '${user.userId}'` as never,
    );
    expect((await call(app, "/api/v1/admin/users", { token: user.accessToken })).status).toBe(200);
    await ctx.database.db.execute(
      `update users set role = 'user' where id = '${user.userId}'` as never,
    );
    expect((await call(app, "/api/v1/admin/users", { token: user.accessToken })).status).toBe(403);
  });
});

describe("admin users", () => {
  it("lists with search and filters, and pages", async () => {
    const marker = `zz${Date.now()}`;
    const a = await registerUser(app, { name: `${marker} Alpha` });
    await registerUser(app, { name: `${marker} Beta` });
    const { body } = await call(app, `/api/v1/admin/users?q=${marker}&size=1`, {
      token: admin.accessToken,
    });
    expect(body.total).toBe(2);
    expect(body.items).toHaveLength(1);
    expect(body.size).toBe(1);
    const byEmail = await call(app, `/api/v1/admin/users?q=${encodeURIComponent(a.email)}`, {
      token: admin.accessToken,
    });
    expect(byEmail.body.items.map((u: { id: string }) => u.id)).toEqual([a.userId]);
    const bad = await call(app, "/api/v1/admin/users?size=1001", { token: admin.accessToken });
    expect(bad.status).toBe(422);
  });

  it("disabling a user signs them out everywhere", async () => {
    const user = await registerUser(app);
    const { status, body } = await call(app, `/api/v1/admin/users/${user.userId}`, {
      method: "PATCH",
      json: { status: "disabled" },
      token: admin.accessToken,
    });
    expect(status).toBe(200);
    expect(body.status).toBe("disabled");
    const refresh = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
      ip: randomIp(),
    });
    expect(refresh.status).toBe(401);
    const relogin = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expect(relogin.status).toBe(403);
    expect((await call(app, "/api/v1/auth/me", { token: user.accessToken })).status).toBe(401);
  });

  it("answers 404 for an unknown id and 422 for a non-UUID id", async () => {
    const unknown = await call(app, `/api/v1/admin/users/${crypto.randomUUID()}`, {
      token: admin.accessToken,
    });
    expect(unknown.status).toBe(404);
    const bad = await call(app, "/api/v1/admin/users/health-overview", {
      token: admin.accessToken,
    });
    expect(bad.status).toBe(422);
  });

  it("needs the CSRF token when the admin session rides on cookies", async () => {
    const user = await registerUser(app);
    const cookieOnly = await call(app, `/api/v1/admin/users/${user.userId}`, {
      method: "PATCH",
      json: { plan: "business" },
      cookies: { access_token: admin.accessToken },
    });
    expect(cookieOnly.status).toBe(403);
  });
});

describe("admin usage logs and system config", () => {
  it("lists usage logs filtered by user and event", async () => {
    const user = await registerUser(app);
    const { body } = await call(
      app,
      `/api/v1/admin/usage-logs?user_id=${user.userId}&event=register`,
      {
        token: admin.accessToken,
      },
    );
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({
      user_id: user.userId,
      email: user.email,
      event: "register",
    });
  });

  it("reads seeded keys and validates writes against each key's shape", async () => {
    const costs = await call(app, "/api/v1/admin/system-config/credits.costs", {
      token: admin.accessToken,
    });
    expect(costs.body.value.quotation_from_inquiry).toBe(2);
    const all = await call(app, "/api/v1/admin/system-config", { token: admin.accessToken });
    expect(all.body.items.map((i: { key: string }) => i.key)).toEqual(
      expect.arrayContaining(["ai.prompt", "ai.routing", "trial.days", "plans.yearly_discount"]),
    );
    const bad = await call(app, "/api/v1/admin/system-config/trial.days", {
      method: "PUT",
      json: { value: -3 },
      token: admin.accessToken,
    });
    expect(bad.status).toBe(422);
    const unknown = await call(app, "/api/v1/admin/system-config/no.such.key", {
      method: "PUT",
      json: { value: 1 },
      token: admin.accessToken,
    });
    expect(unknown.status).toBe(404);
    const good = await call(app, "/api/v1/admin/system-config/trial.days", {
      method: "PUT",
      json: { value: 10 },
      token: admin.accessToken,
    });
    expect(good.status).toBe(200);
    // The new trial length applies to the next registration, read inside its statement.
    const user = await registerUser(app);
    const days = (Date.parse(user.body.user.trial_ends_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
  });
});
