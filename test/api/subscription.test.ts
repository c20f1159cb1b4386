import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { downgradeExpiredPlans } from "../../src/jobs/tasks";
import {
  call,
  expectStatus,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";
import { deliver, paidEvent } from "./payments-helpers";

// GET /api/v1/credits/subscription and POST .../cancel (cancel at period end). Payments go
// through the real order and signed callback at the real time; the app clock moves afterwards.
let now = new Date();
const clock = { now: () => now };
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
beforeEach(() => {
  now = new Date();
});

const DAY = 86_400_000;
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`. */
const t = typed(app);
const get = async (user: Session) => {
  const answer = await t.get("/api/v1/credits/subscription", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer;
};
const cancel = (user: Session, csrf = user.csrfToken) =>
  call(app, "/api/v1/credits/subscription/cancel", {
    method: "POST",
    token: user.accessToken,
    csrf,
  });
/** A cancel that must succeed: typed, asserts 200. */
const cancelled = async (user: Session) => {
  const answer = await t.post("/api/v1/credits/subscription/cancel", {
    token: user.accessToken,
    csrf: user.csrfToken,
  });
  expectStatus(answer, 200);
  return answer;
};

/** Orders a month of `plan` and delivers the gateway's signed payment callback. */
async function pay(user: Session, plan = "pro") {
  const order = await t.post("/api/v1/payments/create-order", {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: { plan, pay_type: "alipay" },
  });
  expectStatus(order, 201);
  expect((await deliver(app, deps, paidEvent(order.body))).status).toBe(200);
}

async function signInAgain(user: Session): Promise<Session> {
  const login = await t.post("/api/v1/auth/login", {
    json: { email: user.email, password: user.password },
    ip: randomIp(),
  });
  expectStatus(login, 200);
  const { body } = login;
  return { ...user, accessToken: body.access_token, csrfToken: body.csrf_token };
}

const flags = (userId: string) =>
  queryRows<{ cancel_at_period_end: boolean; cancel_requested_at: Date | null }>(
    deps.db,
    sql`select cancel_at_period_end, cancel_requested_at from subscriptions
        where user_id = ${userId} order by starts_at`,
  );

describe("GET /api/v1/credits/subscription", () => {
  it("the trial: trialing, no renewal; cancelling it is 409", async () => {
    const user = await registerUser(app);
    const { body } = await get(user);
    expect(body).toEqual({
      plan: "pro",
      plan_name: "Pro",
      status: "trialing",
      billing_cycle: null,
      current_period_start: null,
      current_period_end: null,
      plan_expires_at: body.trial_ends_at,
      renews_at: null,
      cancel_at_period_end: false,
      cancel_requested_at: null,
      on_trial: true,
      trial_ends_at: expect.any(String),
    });
    const refused = await cancel(user);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/trial ends by itself/);
  });

  it("a guest is on free; there is nothing to cancel (404)", async () => {
    const guest = await t.post("/api/v1/auth/guest", { ip: randomIp() });
    expectStatus(guest, 201);
    const user = {
      accessToken: guest.body.access_token,
      csrfToken: guest.body.csrf_token,
    } as Session;
    expect((await get(user)).body).toMatchObject({
      plan: "free",
      status: "free",
      renews_at: null,
      on_trial: false,
    });
    const refused = await cancel(user);
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe("You have no running paid subscription to cancel");
  });

  it("needs a token, and the cancel needs the CSRF token", async () => {
    expect((await call(app, "/api/v1/credits/subscription")).status).toBe(401);
    const user = await registerUser(app);
    await pay(user);
    const noCsrf = await call(app, "/api/v1/credits/subscription/cancel", {
      method: "POST",
      token: user.accessToken,
    });
    expect(noCsrf.status).toBe(403);
    expect((await flags(user.userId))[0]!.cancel_at_period_end).toBe(false);
  });
});

describe("cancel at period end", () => {
  it("a paid month: active and renewing; cancel keeps it to its end, then the downgrade", async () => {
    const user = await registerUser(app);
    await pay(user);
    const active = (await get(user)).body;
    expect(active).toMatchObject({
      plan: "pro",
      status: "active",
      billing_cycle: "monthly",
      cancel_at_period_end: false,
      on_trial: false,
    });
    const end = Date.parse(active.current_period_end ?? "");
    expect(end - Date.parse(active.current_period_start ?? "")).toBeGreaterThan(27 * DAY);
    expect(active.renews_at).toBe(active.current_period_end);
    expect(active.plan_expires_at).toBe(active.current_period_end);

    const stopped = await cancelled(user);
    expect(stopped.body).toMatchObject({
      plan: "pro",
      status: "cancelled",
      cancel_at_period_end: true,
      renews_at: null,
      current_period_end: active.current_period_end,
    });
    const requestedAt = stopped.body.cancel_requested_at;
    expect(requestedAt).toEqual(expect.any(String));
    // A repeat changes nothing.
    now = new Date(now.getTime() + 60_000);
    const again = await cancelled(user);
    expect(again.body.cancel_requested_at).toBe(requestedAt);
    expect(await flags(user.userId)).toEqual([
      { cancel_at_period_end: true, cancel_requested_at: expect.anything() },
    ]);

    // The plan keeps working until its end...
    const me = await t.get("/api/v1/auth/me", { token: user.accessToken });
    expectStatus(me, 200);
    expect(me.body.plan).toBe("pro");
    expect(me.body.features).toContain("marketing");
    expect(await downgradeExpiredPlans(deps)).toEqual({ downgraded: 0 });

    // ...and past it the account is free at once, and the task downgrades it once.
    now = new Date(end + 60_000);
    const later = await signInAgain(user);
    expect((await get(later)).body).toMatchObject({
      plan: "free",
      status: "free",
      cancel_at_period_end: false,
      renews_at: null,
    });
    const locked = await call(app, "/api/v1/discovery/search", {
      token: later.accessToken,
      json: { product: "LED", market: "Germany" },
    });
    expect(locked.status).toBe(403);
    expect((await downgradeExpiredPlans(deps)).downgraded).toBeGreaterThanOrEqual(1);
    const [row] = await queryRows<{ plan: string }>(
      deps.db,
      sql`select plan from orgs
      where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    expect(row!.plan).toBe("free");
    expect((await cancel(later)).status).toBe(404);
  });

  it("paying again after cancelling renews: not cancelled, renewing at the new end", async () => {
    const user = await registerUser(app);
    await pay(user);
    const first = (await get(user)).body;
    expect((await cancelled(user)).body.status).toBe("cancelled");
    await pay(user);
    const renewed = (await get(user)).body;
    expect(renewed).toMatchObject({
      plan: "pro",
      status: "active",
      cancel_at_period_end: false,
      cancel_requested_at: null,
      current_period_end: first.current_period_end,
    });
    // The new month follows the first one.
    expect(Date.parse(renewed.renews_at ?? "")).toBeGreaterThan(
      Date.parse(first.current_period_end ?? ""),
    );
    expect(renewed.plan_expires_at).toBe(renewed.renews_at);
    // Cancelling again marks the new period too.
    const again = await cancelled(user);
    expect(again.body).toMatchObject({ status: "cancelled", renews_at: null });
    expect((await flags(user.userId)).every((f) => f.cancel_at_period_end)).toBe(true);
  });

  it("an upgrade to another plan shows that plan's period", async () => {
    const user = await registerUser(app);
    await pay(user, "pro");
    await cancel(user);
    await pay(user, "business");
    expect((await get(user)).body).toMatchObject({
      plan: "business",
      status: "active",
      billing_cycle: "monthly",
      cancel_at_period_end: false,
    });
  });
});
