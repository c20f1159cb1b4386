import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { downgradeExpiredPlans } from "../../src/jobs/tasks";
import type { Deps } from "../../src/ports";
import {
  call,
  expectStatus,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany, joinOrg, orgIdOf } from "../support/orgs";
import { setPlan } from "../support/plans";
import { deliver, paidEvent } from "./payments-helpers";

// The plan, the trial and the quotas belong to the organisation (issue #22, ADR 0101): every
// member has what the organisation's plan gives, whoever paid for it, and the limits count the
// organisation's customers and members.
let now = new Date();
const clock = { now: () => now };
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
const t = typed(app);
beforeEach(() => {
  now = new Date();
});

const DAY = 86_400_000;
const at = (date: Date): Deps => ({ ...deps, clock: { now: () => date } });

async function me(user: Session) {
  const answer = await t.get("/api/v1/auth/me", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer.body as typeof answer.body & {
    plan: string;
    features: string[];
    limits: Record<string, { max: number | null; used: number }>;
    org: { id: string; name: string; role: string };
    trial_ends_at?: string | null;
    is_trial_active?: boolean;
  };
}

/** Access tokens expire by the app clock: after moving it, sign in again. */
async function signInAgain(user: Session): Promise<Session> {
  const login = await t.post("/api/v1/auth/login", {
    json: { email: user.email, password: user.password },
    ip: randomIp(),
  });
  expectStatus(login, 200);
  return { ...user, accessToken: login.body.access_token, csrfToken: login.body.csrf_token };
}

const createCustomer = (user: Session, company: string) =>
  call(app, "/api/v1/customers", {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: { company },
  });

describe("the plan of the organisation", () => {
  it("a member of a paid organisation has its plan and features; an outsider does not", async () => {
    const company = await createCompany(ctx);
    await setPlan(deps, company.owner.userId, "business");
    const body = await me(company.member);
    expect(body.plan).toBe("business");
    expect(body.features).toContain("agent");
    expect(body.org).toEqual({
      id: await orgIdOf(ctx.database, company.owner),
      name: "Owner",
      role: "member",
    });
    // The gate reads the same plan: a member of a free organisation is refused marketing.
    const outsider = await me(company.outsider);
    expect(outsider.plan).toBe("pro"); // their own trial
    await setPlan(deps, company.outsider.userId, "free", null);
    const refused = await call(app, "/api/v1/marketing/generate", {
      token: company.outsider.accessToken,
      csrf: company.outsider.csrfToken,
      json: { type: "email", product: "LED panels", language: "en" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "feature_not_in_plan", plan: "free" });
    const balance = await t.get("/api/v1/credits/balance", { token: company.member.accessToken });
    expectStatus(balance, 200);
    expect(balance.body.plan).toBe("business");
  });

  it("the owner's trial gives every member the trial, the seats of its tier included", async () => {
    const owner = await registerUser(app, { name: "Trial Owner" });
    const member = await registerUser(app);
    await joinOrg(ctx.database, owner, member, "member");
    const [ownerMe, memberMe] = [await me(owner), await me(member)];
    expect(memberMe.plan).toBe("pro");
    expect(memberMe.is_trial_active).toBe(true);
    expect(memberMe.trial_ends_at).toBe(ownerMe.trial_ends_at);
    expect(memberMe.limits.seats).toEqual({ max: 5, used: 2 });
    expect(memberMe.org).toMatchObject({ name: "Trial Owner", role: "member" });
  });

  it("a subscription the owner pays is the organisation's: every member has it", async () => {
    const company = await createCompany(ctx);
    // Billing is the owner's (test/api/org-billing.test.ts has the refusals).
    const order = await t.post("/api/v1/payments/create-order", {
      token: company.owner.accessToken,
      csrf: company.owner.csrfToken,
      json: { plan: "business", pay_type: "alipay" },
    });
    expectStatus(order, 201);
    expect((await deliver(app, deps, paidEvent(order.body))).status).toBe(200);
    for (const user of [company.admin, company.member, company.colleague]) {
      expect((await me(user)).plan).toBe("business");
    }
    expect((await me(company.outsider)).plan).toBe("pro");
    const subscription = await t.get("/api/v1/credits/subscription", {
      token: company.member.accessToken,
    });
    expectStatus(subscription, 200);
    expect(subscription.body).toMatchObject({ plan: "business", status: "active" });
  });

  it("the downgrade ends the organisation's plan for every member and tells the owner and admins", async () => {
    const company = await createCompany(ctx);
    const ended = new Date(Date.now() - 3_600_000);
    await setPlan(deps, company.owner.userId, "pro", ended);
    await downgradeExpiredPlans(at(new Date()));
    const [org] = await queryRows<{ plan: string; plan_expires_at: Date | null }>(
      deps.db,
      sql`select plan, plan_expires_at from orgs where id = ${await orgIdOf(ctx.database, company.owner)}`,
    );
    expect(org).toEqual({ plan: "free", plan_expires_at: null });
    expect((await me(company.member)).plan).toBe("free");
    // The outsider's own trial is untouched.
    expect((await me(company.outsider)).plan).toBe("pro");
    const notified = await queryRows<{ user_id: string }>(
      deps.db,
      sql`select user_id from notifications where kind in ('trial_ended', 'subscription_ended')
          and user_id in (${company.owner.userId}, ${company.admin.userId},
            ${company.manager.userId}, ${company.member.userId})`,
    );
    expect(notified.map((n) => n.user_id).sort()).toEqual(
      [company.owner.userId, company.admin.userId].sort(),
    );
  });

  it("a guest who registers starts the trial on its own organisation, named after the account", async () => {
    const guest = await t.post("/api/v1/auth/guest", { ip: randomIp() });
    expectStatus(guest, 201);
    const guestOrg = await orgIdOf(ctx.database, { userId: guest.body.user.id });
    const registered = await t.post("/api/v1/auth/register", {
      json: { email: `g${Date.now()}@example.com`, password: "secret123", name: "Ada Trading" },
      ip: randomIp(),
      token: guest.body.access_token,
    });
    expectStatus(registered, 201);
    expect(registered.body.user).toMatchObject({ plan: "pro", is_trial_active: true });
    const body = await me({ accessToken: registered.body.access_token } as Session);
    expect(body.org).toEqual({ id: guestOrg, name: "Ada Trading", role: "owner" });
    expect(body.plan).toBe("pro");
    const [org] = await queryRows<{ plan: string; trial: boolean }>(
      deps.db,
      sql`select plan, trial_ends_at = plan_expires_at as trial from orgs where id = ${guestOrg}`,
    );
    expect(org).toEqual({ plan: "pro", trial: true });
  });

  it("a trial past its end counts as free for every member before the downgrade runs", async () => {
    const owner = await registerUser(app);
    const member = await registerUser(app);
    await joinOrg(ctx.database, owner, member, "member");
    now = new Date(Date.now() + 30 * DAY);
    const body = await me(await signInAgain(member));
    expect(body.plan).toBe("free");
    expect(body.limits.seats.max).toBe(1);
  });
});

describe("quotas per organisation", () => {
  it("seats: the plan's, and the members taking them, in /me", async () => {
    const company = await createCompany(ctx);
    await setPlan(deps, company.owner.userId, "pro");
    expect((await me(company.member)).limits.seats).toEqual({ max: 5, used: 5 });
    await setPlan(deps, company.owner.userId, "business");
    expect((await me(company.owner)).limits.seats).toEqual({ max: 50, used: 5 });
    expect((await me(company.outsider)).limits.seats).toEqual({ max: 5, used: 1 });
  });

  it("customers: the organisation's count, held or in the pool; a member is refused at the limit", async () => {
    const company = await createCompany(ctx);
    await setPlan(deps, company.owner.userId, "free", null);
    const orgId = await orgIdOf(ctx.database, company.owner);
    // 997 held by the owner, one in the pool, one held by the manager.
    await deps.db.execute(
      sql`insert into customers (user_id, org_id, company)
          select ${company.owner.userId}::uuid, ${orgId}::uuid, 'Kept ' || g
          from generate_series(1, 997) g`,
    );
    await deps.db.execute(
      sql`insert into customers (user_id, org_id, company) values
          (null, ${orgId}::uuid, 'In the pool'), (${company.manager.userId}::uuid, ${orgId}::uuid, 'Managed')`,
    );
    expect((await me(company.member)).limits.customers).toEqual({ max: 1000, used: 999 });
    expect((await createCustomer(company.member, "The last slot")).status).toBe(201);
    const refused = await createCustomer(company.colleague, "One too many");
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "plan_limit_reached",
      limit: "customers",
      max: 1000,
    });
    // The outsider's own organisation is not full.
    expect((await createCustomer(company.outsider, "Elsewhere")).status).toBe(201);
    expect((await me(company.outsider)).limits.customers.used).toBe(1);
    // A change of holder inside the organisation changes no count; a deleted customer frees one.
    await deps.db.execute(
      sql`update customers set user_id = null where org_id = ${orgId}::uuid and company = 'Managed'`,
    );
    const [usage] = await queryRows<{ customers: number }>(
      deps.db,
      sql`select customers from org_usage where org_id = ${orgId}::uuid`,
    );
    expect(usage!.customers).toBe(1000);
    await deps.db.execute(
      sql`delete from customers where org_id = ${orgId}::uuid and company = 'In the pool'`,
    );
    expect((await createCustomer(company.colleague, "Fits again")).status).toBe(201);
  });

  it("agent runs are counted per organisation", async () => {
    const company = await createCompany(ctx);
    await setPlan(deps, company.owner.userId, "business");
    const orgId = await orgIdOf(ctx.database, company.owner);
    await deps.db.execute(
      sql`insert into agent_pipelines (user_id, org_id, product, market, status)
          values (${company.member.userId}::uuid, ${orgId}::uuid, 'LED', 'Germany', 'succeeded')`,
    );
    expect((await me(company.owner)).limits.agent_runs_per_month).toEqual({ max: 100, used: 1 });
  });
});

describe("seats as a plan limit the admin edits", () => {
  const proPlan = async (admin: Session) => {
    const plans = await call(app, "/api/v1/admin/credit-plans", { token: admin.accessToken });
    expect(plans.status).toBe(200);
    return plans.body.items.find((p: { code: string }) => p.code === "pro");
  };

  it("the shipped plans carry their seats in the admin's plan list", async () => {
    const admin = await registerAdmin(ctx);
    const plans = await call(app, "/api/v1/admin/credit-plans", { token: admin.accessToken });
    const seats = Object.fromEntries(
      plans.body.items.map((p: { code: string; limits: { seats?: number } }) => [
        p.code,
        p.limits.seats,
      ]),
    );
    expect(seats).toMatchObject({ free: 1, pro: 5, business: 50 });
  });

  it("an admin changes a plan's seats and /me follows", async () => {
    const admin = await registerAdmin(ctx);
    const pro = await proPlan(admin);
    const patched = await call(app, `/api/v1/admin/credit-plans/${pro.id}`, {
      method: "PATCH",
      token: admin.accessToken,
      csrf: admin.csrfToken,
      json: { limits: { seats: 8 } },
    });
    try {
      expect(patched.status).toBe(200);
      expect(patched.body.limits).toMatchObject({ seats: 8, customers: 20000 });
      const user = await registerUser(app);
      expect((await me(user)).limits.seats).toEqual({ max: 8, used: 1 });
      // null takes the quota away: unlimited seats.
      const unlimited = await call(app, `/api/v1/admin/credit-plans/${pro.id}`, {
        method: "PATCH",
        token: admin.accessToken,
        csrf: admin.csrfToken,
        json: { limits: { seats: null } },
      });
      expect(unlimited.status).toBe(200);
      expect(unlimited.body.limits.seats).toBeUndefined();
      expect((await me(user)).limits.seats.max).toBeNull();
      const refused = await call(app, `/api/v1/admin/credit-plans/${pro.id}`, {
        method: "PATCH",
        token: admin.accessToken,
        csrf: admin.csrfToken,
        json: { limits: { seats: 0 } },
      });
      expect(refused.status).toBe(422);
    } finally {
      await deps.db.execute(
        sql`update subscription_plans set limits = limits || '{"seats": 5}'::jsonb where code = 'pro'`,
      );
    }
  });
});
