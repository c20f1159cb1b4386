import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { sha256Hex } from "../../src/lib/crypto";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeSmtp, tokenOf } from "../fakes/smtp";
import { api, call, expectStatus, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Issue #22: invitations by e-mail, revoking, accepting with and without bring_data
// (API.md "Company workspaces", docs/adr/0100-org-membership-and-invitations.md).

const FRONTEND = "https://app.trade.example";
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
const ctx = await createTestContext({
  env: { FRONTEND_URL: FRONTEND },
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: "no-reply@trade.example" }) },
});
const { app, database } = ctx;
const db = database.db;
const typed = api(app);
// Seats enough for a company of five and its invitations; the seat tests set their own.
await db.execute(sql`update subscription_plans set limits = limits || '{"seats": 100}'::jsonb`);

const write = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });

/** The token of the invitation mail to `address` (the link goes to FRONTEND_URL/invite). */
async function invitationToken(address: string) {
  const mail = await smtp.waitFor(
    (m) =>
      m.envelopeTo.includes(address.toLowerCase()) &&
      m.links.some((l) => l.startsWith(`${FRONTEND}/invite?token=`)),
  );
  return tokenOf(mail);
}

async function verified(user: Session) {
  await db.execute(sql`update users set email_verified_at = now() where id = ${user.userId}::uuid`);
  return user;
}

/** A new account with a verified address, alone in its personal organisation. */
const invitee = async (name = "Invitee") => verified(await registerUser(app, { name }));

async function invite(by: Session, email: string, role: "admin" | "manager" | "member" = "member") {
  const answer = await typed.post("/api/v1/org/invitations", {
    ...write(by),
    json: { email, role },
  });
  expectStatus(answer, 201);
  return { id: answer.body.id, token: await invitationToken(email) };
}

const accept = (user: Session, token: string, bringData?: boolean) =>
  call(app, "/api/v1/org/invitations/accept", {
    ...write(user),
    json: bringData === undefined ? { token } : { token, bring_data: bringData },
  });

async function membership(userId: string) {
  const [row] = await queryRows<{ org_id: string; role: string }>(
    db,
    sql`select org_id, role from org_members where user_id = ${userId}::uuid`,
  );
  return row!;
}

/** Sets the seats of the plan the organisation is on; returns a function putting them back. */
async function withSeats(orgId: string, seats: number) {
  const [plan] = await queryRows<{ code: string; limits: Record<string, unknown> }>(
    db,
    sql`select p.code, p.limits from subscription_plans p join orgs o on o.plan = p.code
      where o.id = ${orgId}::uuid`,
  );
  await db.execute(sql`update subscription_plans set limits = limits || ${JSON.stringify({ seats })}::jsonb
    where code = ${plan!.code}`);
  return () =>
    db.execute(sql`update subscription_plans set limits = ${JSON.stringify(plan!.limits)}::jsonb
      where code = ${plan!.code}`);
}

describe("POST/GET/DELETE /api/v1/org/invitations", () => {
  it("an admin invites: the mail links FRONTEND_URL/invite, only the token's SHA-256 is stored", async () => {
    const { admin, owner } = await createCompany(ctx);
    const email = `Invited-${Date.now()}@Example.com`;
    const answer = await typed.post("/api/v1/org/invitations", {
      ...write(admin),
      json: { email, role: "manager", expires_in_days: 3 },
    });
    expectStatus(answer, 201);
    expect(answer.body).toMatchObject({
      email: email.toLowerCase(),
      role: "manager",
      invited_by: admin.userId,
    });
    const days =
      (Date.parse(answer.body.expires_at) - Date.parse(answer.body.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(3, 5);
    const token = await invitationToken(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await queryRows<{ token_hash: string; org_id: string }>(
      db,
      sql`select token_hash, org_id from org_invitations where id = ${answer.body.id}::uuid`,
    );
    expect(stored).toEqual({
      token_hash: await sha256Hex(token),
      org_id: await orgIdOf(database, owner),
    });
    const list = await typed.get("/api/v1/org/invitations", { token: owner.accessToken });
    expectStatus(list, 200);
    expect(list.body.items.map((i) => i.id)).toEqual([answer.body.id]);
  });

  it("refuses a member or a manager inviting or listing (403)", async () => {
    const { member, manager } = await createCompany(ctx);
    for (const user of [member, manager]) {
      const invited = await typed.post("/api/v1/org/invitations", {
        ...write(user),
        json: { email: `x-${Date.now()}@example.com`, role: "member" },
      });
      expectStatus(invited, 403);
      expect(invited.body.code).toBe("forbidden");
      const listed = await typed.get("/api/v1/org/invitations", { token: user.accessToken });
      expectStatus(listed, 403);
    }
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from org_invitations where org_id = ${await orgIdOf(database, member)}::uuid`,
    );
    expect(count!.n).toBe(0);
  });

  it("409 for a member's address and for an address already invited; the owner role is not on offer", async () => {
    const { admin, colleague } = await createCompany(ctx);
    const asMember = await typed.post("/api/v1/org/invitations", {
      ...write(admin),
      json: { email: colleague.email.toUpperCase(), role: "member" },
    });
    expectStatus(asMember, 409);
    expect(asMember.body.detail).toMatch(/already a member/);
    const email = `twice-${Date.now()}@example.com`;
    await invite(admin, email);
    const again = await typed.post("/api/v1/org/invitations", {
      ...write(admin),
      json: { email, role: "admin" },
    });
    expectStatus(again, 409);
    expect(again.body.detail).toMatch(/pending invitation/);
    const owner = await call(app, "/api/v1/org/invitations", {
      ...write(admin),
      json: { email: `o-${Date.now()}@example.com`, role: "owner" },
    });
    expect(owner.status).toBe(422);
    const tooLong = await call(app, "/api/v1/org/invitations", {
      ...write(admin),
      json: { email: `l-${Date.now()}@example.com`, role: "member", expires_in_days: 31 },
    });
    expect(tooLong.status).toBe(422);
  });

  it("402 plan_limit_reached when members plus pending invitations fill the seats", async () => {
    const { owner } = await createCompany(ctx);
    const restore = await withSeats(await orgIdOf(database, owner), 6);
    try {
      const first = await invite(owner, `seat-a-${Date.now()}@example.com`);
      const full = await typed.post("/api/v1/org/invitations", {
        ...write(owner),
        json: { email: `seat-b-${Date.now()}@example.com`, role: "member" },
      });
      expectStatus(full, 402);
      expect(full.body).toMatchObject({ code: "plan_limit_reached", limit: "seats", max: 6 });
      expect(full.body.detail).toMatch(/seats/);
      const revoked = await typed.delete("/api/v1/org/invitations/{id}", {
        ...write(owner),
        params: { id: first.id },
      });
      expectStatus(revoked, 204);
      await invite(owner, `seat-c-${Date.now()}@example.com`);
    } finally {
      await restore();
    }
  });

  it("revoking: admin+ only, another org's id is 404, twice changes nothing, the list drops it", async () => {
    const { owner, admin, member, outsider } = await createCompany(ctx);
    const { id, token } = await invite(admin, `rev-${Date.now()}@example.com`);
    const byMember = await typed.delete("/api/v1/org/invitations/{id}", {
      ...write(member),
      params: { id },
    });
    expectStatus(byMember, 403);
    const foreign = await typed.delete("/api/v1/org/invitations/{id}", {
      ...write(outsider),
      params: { id },
    });
    expectStatus(foreign, 404);
    const first = await typed.delete("/api/v1/org/invitations/{id}", {
      ...write(owner),
      params: { id },
    });
    expectStatus(first, 204);
    const second = await typed.delete("/api/v1/org/invitations/{id}", {
      ...write(owner),
      params: { id },
    });
    expectStatus(second, 204);
    const list = await typed.get("/api/v1/org/invitations", { token: admin.accessToken });
    expectStatus(list, 200);
    expect(list.body.items).toEqual([]);
    const [row] = await queryRows<{ email: string }>(
      db,
      sql`select email from org_invitations where id = ${id}::uuid`,
    );
    const late = await verified(await registerUser(app, { email: row!.email }));
    const used = await accept(late, token);
    expect(used.status).toBe(409);
    expect(used.body.detail).toMatch(/revoked/);
  });
});

describe("POST /api/v1/org/invitations/accept", () => {
  it("joins with the invited role; the old records stay behind; single use under concurrency", async () => {
    const { admin, owner } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const joiner = await invitee();
    const oldOrg = await orgIdOf(database, joiner);
    const customer = await call(app, "/api/v1/customers", {
      ...write(joiner),
      json: { company: "Mine" },
    });
    expect(customer.status).toBe(201);
    const { token } = await invite(admin, joiner.email, "manager");
    const answers = await Promise.all([accept(joiner, token), accept(joiner, token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!;
    expect(won.body).toMatchObject({
      org_id: orgId,
      role: "manager",
      previous_org_id: oldOrg,
      brought_data: false,
      credits_moved: 0,
    });
    expect(await membership(joiner.userId)).toEqual({ org_id: orgId, role: "manager" });
    const [left] = await queryRows<{ org_id: string }>(
      db,
      sql`select org_id from customers where id = ${customer.body.id}::uuid`,
    );
    expect(left!.org_id).toBe(oldOrg);
    const org = await typed.get("/api/v1/org", { token: joiner.accessToken });
    expectStatus(org, 200);
    expect(org.body).toMatchObject({ id: orgId, role: "manager", member_count: 6 });
    const reused = await accept(joiner, token);
    expect(reused.status).toBe(409);
  });

  it("refuses an unknown, expired or used token; an unverified or different address; a shared current org", async () => {
    const { admin } = await createCompany(ctx);
    const unknown = await accept(await invitee(), "no-such-token");
    expect(unknown.status).toBe(404);

    const late = await invitee();
    const expired = await invite(admin, late.email);
    await db.execute(sql`update org_invitations set expires_at = now() - interval '1 minute'
      where id = ${expired.id}::uuid`);
    const tooLate = await accept(late, expired.token);
    expect(tooLate.status).toBe(409);
    expect(tooLate.body.detail).toMatch(/expired/);

    const unverified = await registerUser(app, { name: "Unverified" });
    const forUnverified = await invite(admin, unverified.email);
    const notYet = await accept(unverified, forUnverified.token);
    expect(notYet.status).toBe(403);
    expect(notYet.body.detail).toMatch(/[Vv]erify/);

    const stranger = await invitee("Stranger");
    const someoneElse = await invite(admin, `else-${Date.now()}@example.com`);
    const wrong = await accept(stranger, someoneElse.token);
    expect(wrong.status).toBe(403);
    expect(wrong.body.detail).toMatch(/another e-mail address/);

    // The admin of another company is not alone in their organisation.
    const other = await createCompany(ctx);
    await verified(other.admin);
    const busy = await invite(admin, other.admin.email);
    const shared = await accept(other.admin, busy.token);
    expect(shared.status).toBe(409);
    expect(shared.body.detail).toMatch(/other members/);
    expect(await membership(other.admin.userId)).toMatchObject({
      org_id: await orgIdOf(database, other.owner),
      role: "admin",
    });
    // Nothing was used up by the refusals: the invitation still works for its address.
    const stillPending = await typed.get("/api/v1/org/invitations", { token: admin.accessToken });
    expectStatus(stillPending, 200);
    expect(stillPending.body.items.map((i) => i.id)).toContain(busy.id);
  });

  it("re-checks the seats at accept (402)", async () => {
    const { owner } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const [a, b] = [await invitee("A"), await invitee("B")];
    let restore = await withSeats(orgId, 7);
    const first = await invite(owner, a.email);
    const second = await invite(owner, b.email);
    await restore();
    restore = await withSeats(orgId, 6);
    try {
      expect((await accept(a, first.token)).status).toBe(200);
      const full = await accept(b, second.token);
      expect(full.status).toBe(402);
      expect(full.body).toMatchObject({ code: "plan_limit_reached", limit: "seats" });
      expect((await membership(b.userId)).org_id).not.toBe(orgId);
    } finally {
      await restore();
    }
  });

  it("bring_data moves the records and the credits; a product whose SKU exists loses its SKU", async () => {
    const { owner, admin } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const joiner = await invitee("Bringer");
    const oldOrg = await orgIdOf(database, joiner);
    const customer = await call(app, "/api/v1/customers", {
      ...write(joiner),
      json: { company: "Brought" },
    });
    expect(customer.status).toBe(201);
    const sku = `SKU-${Date.now()}`;
    await db.execute(sql`insert into products (org_id, user_id, name, sku) values
      (${orgId}::uuid, ${owner.userId}::uuid, 'Theirs', ${sku}),
      (${oldOrg}::uuid, ${joiner.userId}::uuid, 'Clash', ${sku}),
      (${oldOrg}::uuid, ${joiner.userId}::uuid, 'Unique', ${`${sku}-U`})`);
    const [wallet] = await queryRows<{ balance: number }>(
      db,
      sql`select balance from org_credits where org_id = ${oldOrg}::uuid`,
    );
    const { token } = await invite(admin, joiner.email);
    const answer = await accept(joiner, token, true);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      org_id: orgId,
      brought_data: true,
      credits_moved: wallet!.balance,
      products_without_sku: 1,
    });
    const [moved] = await queryRows<{ org_id: string; user_id: string }>(
      db,
      sql`select org_id, user_id from customers where id = ${customer.body.id}::uuid`,
    );
    expect(moved).toEqual({ org_id: orgId, user_id: joiner.userId });
    const products = await queryRows<{ name: string; sku: string | null; org_id: string }>(
      db,
      sql`select name, sku, org_id from products where name in ('Theirs', 'Clash', 'Unique')
        and org_id in (${orgId}::uuid, ${oldOrg}::uuid) order by name`,
    );
    expect(products).toEqual([
      { name: "Clash", sku: null, org_id: orgId },
      { name: "Theirs", sku, org_id: orgId },
      { name: "Unique", sku: `${sku}-U`, org_id: orgId },
    ]);
    const [left] = await queryRows<{ balance: number }>(
      db,
      sql`select coalesce((select balance from org_credits where org_id = ${oldOrg}::uuid), 0) as balance`,
    );
    expect(left!.balance).toBe(0);
    const transfers = await queryRows<{ org_id: string; delta: number; user_id: string }>(
      db,
      sql`select org_id, delta, user_id from credit_ledger
        where kind = 'org_transfer' and user_id = ${joiner.userId}::uuid order by delta`,
    );
    expect(transfers).toEqual([
      { org_id: oldOrg, delta: -wallet!.balance, user_id: joiner.userId },
      { org_id: orgId, delta: wallet!.balance, user_id: joiner.userId },
    ]);
    // The customer is the joiner's in the new organisation: they see it, the owner sees it too.
    const mine = await call(app, `/api/v1/customers/${customer.body.id}`, {
      token: joiner.accessToken,
    });
    expect(mine.status).toBe(200);
  });
});

describe("invitation mail budget", () => {
  it("refuses the 31st invitation of an hour by one inviter with 429 before anything is written or mailed", async () => {
    const { owner, admin } = await createCompany(ctx);
    const stamp = Date.now();
    for (let i = 0; i < 30; i++) {
      const answer = await call(app, "/api/v1/org/invitations", {
        ...write(owner),
        json: { email: `budget-${stamp}-${i}@example.com`, role: "member" },
      });
      expect(answer.status).toBe(201);
    }
    const over = await call(app, "/api/v1/org/invitations", {
      ...write(owner),
      json: { email: `budget-${stamp}-over@example.com`, role: "member" },
    });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("rate_limited");
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from org_invitations
        where email = ${`budget-${stamp}-over@example.com`}`,
    );
    expect(row!.n).toBe(0);
    // The budget is the inviter's: another admin of the company still invites.
    const other = await call(app, "/api/v1/org/invitations", {
      ...write(admin),
      json: { email: `budget-${stamp}-admin@example.com`, role: "member" },
    });
    expect(other.status).toBe(201);
  });
});
