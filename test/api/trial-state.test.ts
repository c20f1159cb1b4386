import { describe, expect, it } from "vitest";
import { expectStatus, registerUser, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";
import { buy, payOrder, planByCode } from "./payments-helpers";

// Issue #21 item 6: /auth/me said is_trial_active: true to a user who had paid for Business
// during the trial, while /credits/subscription said on_trial: false. One rule now answers all
// three (src/modules/credits/trial.ts, ADR 0091).

const ctx = await createTestContext();
const { app, deps } = ctx;
const business = await planByCode(app, "business");

type Session = Awaited<ReturnType<typeof registerUser>>;

async function trialAnswers(user: Session) {
  const token = user.accessToken;
  // Typed by the OpenAPI document (ADR 0095): a renamed trial field fails typecheck here.
  const me = await typed(app).get("/api/v1/auth/me", { token });
  const balance = await typed(app).get("/api/v1/credits/balance", { token });
  const subscription = await typed(app).get("/api/v1/credits/subscription", { token });
  expectStatus(me, 200);
  expectStatus(balance, 200);
  expectStatus(subscription, 200);
  return {
    // A guest's /me (the document's other shape) has no is_trial_active.
    me: "is_trial_active" in me.body ? me.body.is_trial_active : undefined,
    balance: balance.body.on_trial,
    subscription: subscription.body.on_trial,
    plan: me.body.plan,
    status: subscription.body.status,
  };
}

describe("one trial state", () => {
  it("a new account is on its trial everywhere", async () => {
    const user = await registerUser(app);
    expect(await trialAnswers(user)).toEqual({
      me: true,
      balance: true,
      subscription: true,
      plan: "pro",
      status: "trialing",
    });
  });

  it("a paid upgrade to Business during the trial ends the trial everywhere", async () => {
    const user = await registerUser(app);
    const order = await buy(app, user, "/api/v1/credits/subscribe", {
      plan_id: business.id,
      billing_cycle: "monthly",
      pay_type: "alipay",
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    await payOrder(deps, order.body);

    expect(await trialAnswers(user)).toEqual({
      me: false,
      balance: false,
      subscription: false,
      plan: "business",
      status: "active",
    });
    // Paid time is not a trial: it can be cancelled (a trial answers 409).
    const cancel = await typed(app).post("/api/v1/credits/subscription/cancel", {
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
  });
});
