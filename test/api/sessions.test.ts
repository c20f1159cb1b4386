import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import {
  call,
  expectStatus,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

// Sessions that end are refused on every authenticated route, on this instance at once and on
// every other instance within SESSION_REVOCATION_POLL_MS (500 ms) plus one query.
const ctx = await createTestContext();
const { app } = ctx;
/** A second instance on the same database, with its own view of ended sessions. */
const other = await ctx.makeApp();
const PROPAGATION_MS = 1000;

// Typed by the OpenAPI document (ADR 0095); the refused writes below read only the status.
const createCustomer = (target: App, session: Session) =>
  typed(target).post("/api/v1/customers", {
    token: session.accessToken,
    json: { company: "Acme GmbH", email: "buyer@acme.example" },
  });

/** The writes the issue names: create a customer, spend credits, buy credits. */
async function writeStatuses(target: App, session: Session) {
  const [customer, translate, purchase] = await Promise.all([
    createCustomer(target, session),
    call(target, "/api/v1/translate", {
      token: session.accessToken,
      json: { text: "Hallo", target_lang: "en" },
    }),
    call(target, "/api/v1/credits/purchase", {
      token: session.accessToken,
      json: { package_id: crypto.randomUUID(), pay_type: "alipay" },
    }),
  ]);
  return [customer.status, translate.status, purchase.status];
}

const refused = [401, 401, 401];

describe("ended sessions", () => {
  it("a logged-out token is refused on write routes here at once and elsewhere within a second", async () => {
    const user = await registerUser(app);
    expect((await createCustomer(other, user)).status).toBe(201);
    const out = await typed(app).post("/api/v1/auth/logout", {
      token: user.accessToken,
      csrf: user.csrfToken,
      cookies: { csrf_token: user.csrfToken },
    });
    expectStatus(out, 200);
    expect(await writeStatuses(app, user)).toEqual(refused);
    await sleep(PROPAGATION_MS);
    expect(await writeStatuses(other, user)).toEqual(refused);
    const me = await call(other, "/api/v1/auth/me", { token: user.accessToken });
    expect(me.status).toBe(401);
    expect(me.body.detail).toBe("This session has ended");

    // Signing in again opens a new session that works everywhere.
    const login = await typed(other).post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(login, 200);
    const again = { ...user, accessToken: login.body.access_token };
    expect((await createCustomer(app, again)).status).toBe(201);
  });

  it("a password change ends every other session of the account, not the one that changed it", async () => {
    const user = await registerUser(app);
    const second = await typed(app).post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(second, 200);
    const secondSession = { ...user, accessToken: second.body.access_token };
    expect((await createCustomer(other, secondSession)).status).toBe(201);
    const changed = await typed(app).post("/api/v1/auth/password", {
      token: user.accessToken,
      csrf: user.csrfToken,
      cookies: { csrf_token: user.csrfToken },
      json: { old_password: user.password, new_password: "another horse staple" },
    });
    expectStatus(changed, 200);
    await sleep(PROPAGATION_MS);
    for (const target of [app, other]) {
      expect(await writeStatuses(target, secondSession)).toEqual(refused);
      expect((await createCustomer(target, user)).status).toBe(201);
    }
  });

  it("refresh-token reuse ends the whole family, including its live access token", async () => {
    const user = await registerUser(app);
    const first = await typed(app).post("/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
    });
    expectStatus(first, 200);
    const rotated = { ...user, accessToken: first.body.access_token };
    expect((await createCustomer(other, rotated)).status).toBe(201);
    // The old refresh token again: a replay, so the family is revoked.
    const replay = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
    });
    expect(replay.status).toBe(401);
    await sleep(PROPAGATION_MS);
    for (const target of [app, other]) {
      expect(await writeStatuses(target, rotated)).toEqual(refused);
      expect(await writeStatuses(target, user)).toEqual(refused);
    }
  });

  it("an account an admin disables loses its tokens on every route within a second", async () => {
    const admin = await registerAdmin(ctx);
    const user = await registerUser(app);
    expect((await createCustomer(other, user)).status).toBe(201);
    const disabled = await typed(app).patch("/api/v1/admin/users/{id}", {
      params: { id: user.userId },
      token: admin.accessToken,
      json: { status: "disabled" },
    });
    expectStatus(disabled, 200);
    await sleep(PROPAGATION_MS);
    for (const target of [app, other]) {
      expect(await writeStatuses(target, user)).toEqual(refused);
    }
    // Re-enabled: old tokens stay dead, a new login works.
    await typed(app).patch("/api/v1/admin/users/{id}", {
      params: { id: user.userId },
      token: admin.accessToken,
      json: { status: "active" },
    });
    expect((await createCustomer(app, user)).status).toBe(401);
    const login = await typed(app).post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(login, 200);
  });

  it("a deleted account's token is a 401, never a 500", async () => {
    const user = await registerUser(app);
    expect((await createCustomer(other, user)).status).toBe(201);
    await ctx.database.db.execute(sql`delete from users where id = ${user.userId}`);
    await sleep(PROPAGATION_MS);
    for (const target of [app, other]) {
      expect(await writeStatuses(target, user)).toEqual(refused);
    }
  });

  it("SESSION_CHECK=query reads the table on every request, with the same outcome", async () => {
    const perRequest = await ctx.makeApp({}, { SESSION_CHECK: "query" });
    const user = await registerUser(app);
    expect((await createCustomer(perRequest, user)).status).toBe(201);
    await typed(app).post("/api/v1/auth/logout", {
      token: user.accessToken,
      csrf: user.csrfToken,
      cookies: { csrf_token: user.csrfToken },
    });
    expect(await writeStatuses(perRequest, user)).toEqual(refused);
  });
});
