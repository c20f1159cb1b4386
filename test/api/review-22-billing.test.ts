import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { grantSubscriptionAllowances } from "../../src/jobs/tasks";
import type { Deps } from "../../src/ports";
import { expectStatus, type Session, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany, joinOrg, orgIdOf } from "../support/orgs";
import { deliver, packageByCredits, paidEvent, planByCode } from "./payments-helpers";

// An order pays for the organisation it was created in (issue #22 review, ADR 0102). Before,
// payment_fulfil, the monthly allowance and payment_refund_apply acted on the payer's
// organisation when the money (or the refund) arrived: an outsider who ordered a plan for their
// own organisation and joined a company before paying moved the company's plan, gave it their
// credits, or had a refund taken from the company's wallet.
const ctx = await createTestContext();
const { app, deps } = ctx;
const t = typed(app);
const admin = await registerAdmin(ctx);

type OrderPath =
  | "/api/v1/payments/create-order"
  | "/api/v1/credits/purchase"
  | "/api/v1/credits/subscribe";

async function order(
  user: Session,
  json: Record<string, unknown>,
  path: OrderPath = "/api/v1/payments/create-order",
) {
  const answer = await t.post(path, {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: { pay_type: "alipay", ...json } as never,
  });
  expect(answer.status).toBe(201);
  return answer.body as unknown as { order_no: string; amount: number; currency: string };
}

async function pay(o: { order_no: string; amount: number; currency: string }) {
  expect((await deliver(app, deps, paidEvent(o))).status).toBe(200);
}

async function orgState(orgId: string) {
  const [row] = await queryRows<{ plan: string; balance: number }>(
    deps.db,
    sql`select o.plan, coalesce(c.balance, 0)::int as balance from orgs o
        left join org_credits c on c.org_id = o.id where o.id = ${orgId}`,
  );
  return row!;
}

async function refund(orderNo: string) {
  const answer = await t.post("/api/v1/admin/payments/{order_no}/refund", {
    params: { order_no: orderNo },
    token: admin.accessToken,
    json: { reason: "review #22" },
  } as never);
  expectStatus(answer, 200);
  return answer.body as { status: string; credits_reversed: number; order_status: string };
}

const at = (date: Date): Deps => ({ ...deps, clock: { now: () => date } });

describe("an order pays for the organisation it was created in", () => {
  it("a plan paid after the payer joined a company is their former organisation's, not the company's", async () => {
    const company = await createCompany(ctx);
    const companyOrg = await orgIdOf(ctx.database, company.owner);
    await pay(await order(company.owner, { plan: "business" }));
    const before = await orgState(companyOrg);
    expect(before.plan).toBe("business");

    const ownOrg = await orgIdOf(ctx.database, company.outsider);
    // A yearly plan: its second month's allowance is granted after the move too.
    const pro = await order(
      company.outsider,
      { plan_id: (await planByCode(app, "pro")).id, billing_cycle: "yearly" },
      "/api/v1/credits/subscribe",
    );
    await joinOrg(ctx.database, company.owner, company.outsider, "member");
    await pay(pro);

    // The company keeps its plan and its wallet; the pro plan and its allowance are where the
    // order was made.
    expect(await orgState(companyOrg)).toEqual(before);
    const own = await orgState(ownOrg);
    expect(own.plan).toBe("pro");
    const [sub] = await queryRows<{ org_id: string; user_id: string }>(
      deps.db,
      sql`select org_id, user_id from subscriptions where order_no = ${pro.order_no}`,
    );
    expect(sub).toEqual({ org_id: ownOrg, user_id: company.outsider.userId });
    const allowance = await queryRows<{ org_id: string; user_id: string }>(
      deps.db,
      sql`select org_id, user_id from credit_ledger
          where kind = 'plan_allowance' and user_id = ${company.outsider.userId}`,
    );
    expect(allowance.map((row) => row.org_id)).toEqual([ownOrg]);

    // The month after, the allowance still goes to the organisation that pays for the plan.
    await grantSubscriptionAllowances(at(new Date(Date.now() + 32 * 86_400_000)));
    expect((await orgState(companyOrg)).balance).toBe(before.balance);
    const granted = await queryRows<{ org_id: string }>(
      deps.db,
      sql`select org_id from credit_ledger
          where kind = 'plan_allowance' and user_id = ${company.outsider.userId}`,
    );
    expect(granted.map((row) => row.org_id)).toEqual([ownOrg, ownOrg]);

    // Refunding it recomputes the former organisation's plan; the company's is untouched.
    const refunded = await refund(pro.order_no);
    expect(refunded.order_status).toBe("refunded");
    expect((await orgState(companyOrg)).plan).toBe("business");
    expect((await orgState(ownOrg)).plan).not.toBe("business");
  });

  it("credits paid after the payer joined a company go to the organisation that ordered them, and a refund takes them back from there", async () => {
    const company = await createCompany(ctx);
    const companyOrg = await orgIdOf(ctx.database, company.owner);
    const ownOrg = await orgIdOf(ctx.database, company.outsider);
    const pack = await packageByCredits(app, 100);
    const credits = await order(
      company.outsider,
      { package_id: pack.id },
      "/api/v1/credits/purchase",
    );
    await joinOrg(ctx.database, company.owner, company.outsider, "member");
    const companyBefore = (await orgState(companyOrg)).balance;
    const ownBefore = (await orgState(ownOrg)).balance;
    await pay(credits);
    expect((await orgState(companyOrg)).balance).toBe(companyBefore);
    expect((await orgState(ownOrg)).balance).toBe(ownBefore + 100);

    const refunded = await refund(credits.order_no);
    expect(refunded.credits_reversed).toBe(100);
    expect((await orgState(companyOrg)).balance).toBe(companyBefore);
    expect((await orgState(ownOrg)).balance).toBe(ownBefore);
    const [row] = await queryRows<{ org_id: string; user_id: string; delta: number }>(
      deps.db,
      sql`select org_id, user_id, delta from credit_ledger
          where kind = 'admin_adjustment' and note like ${`%${credits.order_no}%`}`,
    );
    expect(row).toEqual({ org_id: ownOrg, user_id: company.outsider.userId, delta: -100 });
  });

  it("the company's own subscription stays the company's after its payer hands ownership over", async () => {
    const company = await createCompany(ctx);
    const companyOrg = await orgIdOf(ctx.database, company.owner);
    await pay(await order(company.owner, { plan: "business" }));
    const handed = await t.post("/api/v1/org/transfer-ownership", {
      token: company.owner.accessToken,
      csrf: company.owner.csrfToken,
      json: { user_id: company.admin.userId },
    } as never);
    expectStatus(handed, 200);
    // A member, and now the former owner, may not cancel the company's plan: billing is the
    // owner's.
    for (const user of [company.member, company.manager, company.owner]) {
      const refused = await t.post("/api/v1/credits/subscription/cancel", {
        token: user.accessToken,
        csrf: user.csrfToken,
      } as never);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: "forbidden" });
    }
    // The new owner sees the running subscription and may cancel it at the period's end.
    const subscription = await t.get("/api/v1/credits/subscription", {
      token: company.admin.accessToken,
    });
    expectStatus(subscription, 200);
    expect(subscription.body).toMatchObject({ plan: "business", status: "active" });
    const cancel = await t.post("/api/v1/credits/subscription/cancel", {
      token: company.admin.accessToken,
      csrf: company.admin.csrfToken,
    } as never);
    expectStatus(cancel, 200);
    const [row] = await queryRows<{ cancel_at_period_end: boolean }>(
      deps.db,
      sql`select cancel_at_period_end from subscriptions where org_id = ${companyOrg}`,
    );
    expect(row!.cancel_at_period_end).toBe(true);
  });
});
