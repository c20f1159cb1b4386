import { describe, expect, it } from "vitest";
import {
  call,
  expectStatus,
  randomEmail,
  randomIp,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`. */
const t = typed(app);
const token = admin.accessToken;

describe("admin guard", () => {
  it("admits accounts whose database role is admin", async () => {
    expectStatus(await t.get("/api/v1/admin/users", { token }), 200);
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
    expectStatus(await t.get("/api/v1/admin/users", { token: user.accessToken }), 200);
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
    const listed = await t.get("/api/v1/admin/users", { token, query: { q: marker, size: 1 } });
    expectStatus(listed, 200);
    const { body } = listed;
    expect(body.total).toBe(2);
    expect(body.items).toHaveLength(1);
    expect(body.size).toBe(1);
    const byEmail = await t.get("/api/v1/admin/users", { token, query: { q: a.email } });
    expectStatus(byEmail, 200);
    expect(byEmail.body.items.map((u) => u.id)).toEqual([a.userId]);
    const bad = await call(app, "/api/v1/admin/users?size=1001", { token: admin.accessToken });
    expect(bad.status).toBe(422);
  });

  it("disabling a user signs them out everywhere", async () => {
    const user = await registerUser(app);
    const disabled = await t.patch("/api/v1/admin/users/{id}", {
      params: { id: user.userId },
      json: { status: "disabled" },
      token,
    });
    expectStatus(disabled, 200);
    expect(disabled.body.status).toBe("disabled");
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
    const logs = await t.get("/api/v1/admin/usage-logs", {
      token,
      query: { user_id: user.userId, event: "register" },
    });
    expectStatus(logs, 200);
    const { body } = logs;
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({
      user_id: user.userId,
      email: user.email,
      event: "register",
    });
  });

  it("reads seeded keys and validates writes against each key's shape", async () => {
    const costs = await t.get("/api/v1/admin/system-config/{key}", {
      token,
      params: { key: "credits.costs" },
    });
    expectStatus(costs, 200);
    // The document types a config value as unknown (each key has its own shape).
    const value = costs.body.value as { quotation_from_inquiry: number };
    expect(value.quotation_from_inquiry).toBe(2);
    const all = await t.get("/api/v1/admin/system-config", { token });
    expectStatus(all, 200);
    expect(all.body.items.map((i) => i.key)).toEqual(
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
    const good = await t.put("/api/v1/admin/system-config/{key}", {
      params: { key: "trial.days" },
      json: { value: 10 },
      token,
    });
    expectStatus(good, 200);
    // The new trial length applies to the next registration, read inside its statement.
    const user = await registerUser(app);
    const days = (Date.parse(user.body.user.trial_ends_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
  });
});
