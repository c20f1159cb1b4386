import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeSmtp, tokenOf } from "../fakes/smtp";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";
import { deliver, packageByCredits, paidEvent, planByCode } from "./payments-helpers";

/** `call`'s answers are untyped: the status checked with the body in the message. */
function expectStatus(answer: { status: number; body: unknown }, status: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
}

// Second review of issue #22 (ADR 0102): an order acts on the organisation it was placed for.
// bring_data moves the old organisation's wallet to the company and leaves the old
// organisation with no member; a credit order of the old organisation must follow the wallet,
// or its credits are granted (a late payment) into, and taken back (a refund) from, a wallet
// nobody can reach any more, while the company keeps what it received.

const FRONTEND = "https://app.trade.example";
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
const ctx = await createTestContext({
  env: { FRONTEND_URL: FRONTEND },
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: "no-reply@trade.example" }) },
});
const { app, database, deps } = ctx;
const db = database.db;
const admin = await registerAdmin(ctx);
await db.execute(sql`update subscription_plans set limits = limits || '{"seats": 100}'::jsonb`);

const write = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });

async function verified(user: Session) {
  await db.execute(sql`update users set email_verified_at = now() where id = ${user.userId}::uuid`);
  return user;
}

async function invite(by: Session, email: string) {
  const answer = await call(app, "/api/v1/org/invitations", {
    ...write(by),
    json: { email, role: "member" },
  });
  expectStatus(answer, 201);
  const mail = await smtp.waitFor(
    (m) =>
      m.envelopeTo.includes(email.toLowerCase()) &&
      m.links.some((l) => l.startsWith(`${FRONTEND}/invite?token=`)),
  );
  return tokenOf(mail);
}

async function joinWithData(companyOwner: Session, user: Session) {
  const token = await invite(companyOwner, user.email);
  const answer = await call(app, "/api/v1/org/invitations/accept", {
    ...write(user),
    json: { token, bring_data: true },
  });
  expectStatus(answer, 200);
  return answer.body as { credits_moved: number };
}

async function orderCredits(user: Session, credits: number) {
  const pack = await packageByCredits(app, credits);
  const answer = await call(app, "/api/v1/credits/purchase", {
    ...write(user),
    json: { package_id: pack.id, pay_type: "alipay" },
  });
  expectStatus(answer, 201);
  return answer.body as { order_no: string; amount: number; currency: string };
}

async function pay(order: { order_no: string; amount: number; currency: string }) {
  expectStatus(await deliver(app, deps, paidEvent(order)), 200);
}

async function balance(orgId: string) {
  const [row] = await queryRows<{ balance: number }>(
    db,
    sql`select coalesce((select balance from org_credits where org_id = ${orgId}::uuid), 0)::int
        as balance`,
  );
  return row!.balance;
}

async function refund(orderNo: string) {
  const answer = await call(app, `/api/v1/admin/payments/${orderNo}/refund`, {
    token: admin.accessToken,
    json: { reason: "review #22b" },
  });
  expectStatus(answer, 200);
  return answer.body as { credits_reversed: number; order_status: string };
}

describe("a credit order of an organisation whose wallet bring_data moved", () => {
  it("paid after the move, grants its credits to the company the wallet went to", async () => {
    const { owner: companyOwner } = await createCompany(ctx);
    const companyOrg = await orgIdOf(database, companyOwner);
    const solo = await verified(await registerUser(app, { name: "Solo" }));
    const soloOrg = await orgIdOf(database, solo);
    const order = await orderCredits(solo, 100);
    await joinWithData(companyOwner, solo);
    const companyBefore = await balance(companyOrg);

    await pay(order);
    expect(await balance(companyOrg)).toBe(companyBefore + 100);
    expect(await balance(soloOrg)).toBe(0);
    // The solo account, now a member of the company, sees the credits it paid for.
    const seen = await call(app, "/api/v1/credits/balance", { token: solo.accessToken });
    expectStatus(seen, 200);
    expect(seen.body.balance).toBe(companyBefore + 100);
  });

  it("refunded after the move, takes its credits back from the company they went to", async () => {
    const { owner: companyOwner } = await createCompany(ctx);
    const companyOrg = await orgIdOf(database, companyOwner);
    const solo = await verified(await registerUser(app, { name: "Solo" }));
    const soloOrg = await orgIdOf(database, solo);
    const companyBefore = await balance(companyOrg);
    const order = await orderCredits(solo, 100);
    await pay(order);
    const soloBalance = await balance(soloOrg);
    expect(soloBalance).toBeGreaterThanOrEqual(100);
    const moved = await joinWithData(companyOwner, solo);
    expect(moved.credits_moved).toBe(soloBalance);
    expect(await balance(companyOrg)).toBe(companyBefore + soloBalance);

    const refunded = await refund(order.order_no);
    expect(refunded.order_status).toBe("refunded");
    expect(refunded.credits_reversed).toBe(100);
    expect(await balance(companyOrg)).toBe(companyBefore + soloBalance - 100);
    const [row] = await queryRows<{ org_id: string; delta: number }>(
      db,
      sql`select org_id, delta from credit_ledger
          where kind = 'admin_adjustment' and note like ${`%${order.order_no}%`}`,
    );
    expect(row).toEqual({ org_id: companyOrg, delta: -100 });
  });
});

describe("a plan paid by an owner who then joined a company with bring_data", () => {
  it("refunded in full, ends the allowance the move brought into the company", async () => {
    const { owner: companyOwner } = await createCompany(ctx);
    const companyOrg = await orgIdOf(database, companyOwner);
    const solo = await verified(await registerUser(app, { name: "Solo" }));
    const soloOrg = await orgIdOf(database, solo);
    const pro = await planByCode(app, "pro");
    const ordered = await call(app, "/api/v1/credits/subscribe", {
      ...write(solo),
      json: { plan_id: pro.id, billing_cycle: "monthly", pay_type: "alipay" },
    });
    expectStatus(ordered, 201);
    const order = ordered.body as { order_no: string; amount: number; currency: string };
    await pay(order);
    const soloBalance = await balance(soloOrg);
    expect(soloBalance).toBeGreaterThanOrEqual(pro.monthly_credits);
    const companyBefore = await balance(companyOrg);
    await joinWithData(companyOwner, solo);
    expect(await balance(companyOrg)).toBe(companyBefore + soloBalance);

    const refunded = await refund(order.order_no);
    expect(refunded.order_status).toBe("refunded");
    // The allowance the refunded plan granted no longer counts, wherever it went.
    expect(await balance(companyOrg)).toBe(companyBefore + soloBalance - pro.monthly_credits);
    const expired = await queryRows<{ org_id: string; delta: number }>(
      db,
      sql`select org_id, delta from credit_ledger where kind = 'expiry' and user_id = ${solo.userId}::uuid`,
    );
    expect(expired).toEqual([{ org_id: companyOrg, delta: -pro.monthly_credits }]);
  });
});
