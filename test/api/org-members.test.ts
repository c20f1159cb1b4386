import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { chargeCredits } from "../../src/modules/credits/service";
import { api, call, expectStatus, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Issue #22: the organisation, its members, removal, leaving and ownership transfer
// (API.md "Company workspaces", docs/adr/0100-org-membership-and-invitations.md).

const POLL_MS = 50;
const ctx = await createTestContext({ env: { SESSION_REVOCATION_POLL_MS: String(POLL_MS) } });
const { app, database, deps } = ctx;
const db = database.db;
const typed = api(app);

const write = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });

async function customerOf(user: Session, company = "Held Co") {
  const res = await call(app, "/api/v1/customers", { ...write(user), json: { company } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function membership(userId: string) {
  const [row] = await queryRows<{
    org_id: string;
    role: string;
    monthly_credit_limit: number | null;
  }>(
    db,
    sql`select org_id, role, monthly_credit_limit from org_members where user_id = ${userId}::uuid`,
  );
  return row!;
}

async function ownersOf(orgId: string) {
  return queryRows<{ user_id: string }>(
    db,
    sql`select user_id from org_members where org_id = ${orgId}::uuid and role = 'owner'`,
  );
}

describe("GET and PATCH /api/v1/org", () => {
  it("shows the organisation with the plan's seats, the member count and the caller's role", async () => {
    const company = await createCompany(ctx);
    const answer = await typed.get("/api/v1/org", { token: company.manager.accessToken });
    expectStatus(answer, 200);
    const orgId = await orgIdOf(database, company.owner);
    const [plan] = await queryRows<{ plan: string; seats: number | null }>(
      db,
      sql`select o.plan, (p.limits ->> 'seats')::int as seats
        from orgs o left join subscription_plans p on p.code = o.plan where o.id = ${orgId}::uuid`,
    );
    expect(answer.body).toMatchObject({
      id: orgId,
      plan: plan!.plan,
      seats: plan!.seats,
      member_count: 5,
      role: "manager",
      settings: {
        pool: {
          recycle_after_days: null,
          warn_days_before: null,
          exempt_statuses: ["won"],
          max_claims_per_day: null,
          max_customers_per_member: null,
          reclaim_cooldown_days: null,
        },
      },
    });
  });

  it("admin+ renames it and patches the settings, merged into the stored ones; below admin 403", async () => {
    const { owner, admin, manager } = await createCompany(ctx);
    const refused = await typed.patch("/api/v1/org", {
      ...write(manager),
      json: { name: "Mine now" },
    });
    expectStatus(refused, 403);
    expect(refused.body.code).toBe("forbidden");
    expect(refused.body.detail).toMatch(/admin or owner/);

    const first = await typed.patch("/api/v1/org", {
      ...write(admin),
      json: { name: "Acme Trading", settings: { pool: { max_claims_per_day: 5 } } },
    });
    expectStatus(first, 200);
    const second = await typed.patch("/api/v1/org", {
      ...write(owner),
      json: {
        settings: { pool: { recycle_after_days: 30, exempt_statuses: ["won", "negotiating"] } },
      },
    });
    expectStatus(second, 200);
    expect(second.body.name).toBe("Acme Trading");
    expect(second.body.role).toBe("owner");
    expect(second.body.settings.pool).toEqual({
      recycle_after_days: 30,
      warn_days_before: null,
      exempt_statuses: ["won", "negotiating"],
      max_claims_per_day: 5,
      max_customers_per_member: null,
      reclaim_cooldown_days: null,
    });
    // Clearing a rule: null is stored and read back as "no rule".
    const cleared = await typed.patch("/api/v1/org", {
      ...write(owner),
      json: { settings: { pool: { max_claims_per_day: null } } },
    });
    expectStatus(cleared, 200);
    expect(cleared.body.settings.pool.max_claims_per_day).toBeNull();
    expect(cleared.body.settings.pool.recycle_after_days).toBe(30);
  });

  it("refuses settings outside the schema (422) and changes nothing", async () => {
    const { owner } = await createCompany(ctx);
    for (const settings of [
      { pool: { recycle_after_days: 0 } },
      { pool: { exempt_statuses: ["closed"] } },
      { pool: { max_claims_per_day: 1.5 } },
      { pool: { unknown_rule: 1 } },
      { colours: { primary: "red" } },
    ]) {
      const res = await call(app, "/api/v1/org", {
        ...write(owner),
        method: "PATCH",
        json: { settings },
      });
      expect(res.status, JSON.stringify(settings)).toBe(422);
    }
    const after = await typed.get("/api/v1/org", { token: owner.accessToken });
    expectStatus(after, 200);
    expect(after.body.settings.pool.recycle_after_days).toBeNull();
  });
});

describe("GET /api/v1/org/members", () => {
  it("lists every member, owner first, with customers held and credits used this month", async () => {
    const company = await createCompany(ctx);
    await customerOf(company.member, "One");
    await customerOf(company.member, "Two");
    await customerOf(company.manager, "Three");
    const charge = await chargeCredits(deps, {
      userId: company.member.userId,
      operation: "translate",
    });
    const answer = await typed.get("/api/v1/org/members", { token: company.colleague.accessToken });
    expectStatus(answer, 200);
    const items = answer.body.items;
    expect(items.map((m) => m.role)).toEqual(["owner", "admin", "manager", "member", "member"]);
    expect(items.map((m) => m.user_id)).not.toContain(company.outsider.userId);
    const member = items.find((m) => m.user_id === company.member.userId)!;
    expect(member).toMatchObject({
      email: company.member.email,
      name: "Member",
      customer_count: 2,
      credits_used_month: charge.cost,
      monthly_credit_limit: null,
    });
    expect(items.find((m) => m.user_id === company.manager.userId)!.customer_count).toBe(1);
    expect(items.find((m) => m.user_id === company.owner.userId)!.credits_used_month).toBe(0);
  });
});

describe("PATCH /api/v1/org/members/:user_id", () => {
  it("admin sets a member's role and monthly limit", async () => {
    const { admin, member } = await createCompany(ctx);
    const answer = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: member.userId },
      json: { role: "manager", monthly_credit_limit: 100 },
    });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ role: "manager", monthly_credit_limit: 100 });
    expect(await membership(member.userId)).toMatchObject({
      role: "manager",
      monthly_credit_limit: 100,
    });
    const unlimited = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: member.userId },
      json: { monthly_credit_limit: null },
    });
    expectStatus(unlimited, 200);
    expect(unlimited.body).toMatchObject({ role: "manager", monthly_credit_limit: null });
  });

  it("refuses a member raising their own role, the owner's row, owner as a role, another org's user", async () => {
    const { owner, admin, member, outsider } = await createCompany(ctx);
    const self = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(member),
      params: { user_id: member.userId },
      json: { role: "admin" },
    });
    expectStatus(self, 403);
    expect(self.body.code).toBe("forbidden");
    const ownerRow = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: owner.userId },
      json: { monthly_credit_limit: 1 },
    });
    expectStatus(ownerRow, 403);
    expect(ownerRow.body.detail).toMatch(/transfer-ownership/);
    const toOwner = await call(app, `/api/v1/org/members/${member.userId}`, {
      ...write(admin),
      method: "PATCH",
      json: { role: "owner" },
    });
    expect(toOwner.status).toBe(422);
    const foreign = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: outsider.userId },
      json: { role: "member" },
    });
    expectStatus(foreign, 404);
    expect((await membership(member.userId)).role).toBe("member");
    expect((await membership(owner.userId)).role).toBe("owner");
    expect((await membership(outsider.userId)).role).toBe("owner");
  });

  it("only the owner changes an admin; an admin may make a member an admin", async () => {
    const { owner, admin, colleague } = await createCompany(ctx);
    const promoted = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: colleague.userId },
      json: { role: "admin" },
    });
    expectStatus(promoted, 200);
    const byAdmin = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: colleague.userId },
      json: { role: "member" },
    });
    expectStatus(byAdmin, 403);
    expect(byAdmin.body.detail).toMatch(/Only the owner/);
    const byOwner = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(owner),
      params: { user_id: colleague.userId },
      json: { role: "member" },
    });
    expectStatus(byOwner, 200);
    expect(byOwner.body.role).toBe("member");
  });
});

describe("DELETE /api/v1/org/members/:user_id", () => {
  it("refuses a manager, the owner, oneself, another org's user and a transfer_to outside", async () => {
    const { owner, admin, manager, member, outsider } = await createCompany(ctx);
    const byManager = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(manager),
      params: { user_id: member.userId },
    });
    expectStatus(byManager, 403);
    const theOwner = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: owner.userId },
    });
    expectStatus(theOwner, 403);
    expect(theOwner.body.detail).toMatch(/owner cannot be removed/);
    const self = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: admin.userId },
    });
    expectStatus(self, 409);
    expect(self.body.detail).toMatch(/org\/leave/);
    const foreign = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: outsider.userId },
    });
    expectStatus(foreign, 404);
    const outsideHeir = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: member.userId },
      json: { transfer_to: outsider.userId },
    });
    expectStatus(outsideHeir, 422);
    expect(outsideHeir.body.detail).toMatch(/transfer_to/);
    const adminByAdmin = await typed.patch("/api/v1/org/members/{user_id}", {
      ...write(owner),
      params: { user_id: manager.userId },
      json: { role: "admin" },
    });
    expectStatus(adminByAdmin, 200);
    const removeAdmin = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: manager.userId },
    });
    expectStatus(removeAdmin, 403);
    const orgId = await orgIdOf(database, owner);
    for (const user of [owner, admin, manager, member]) {
      expect((await membership(user.userId)).org_id).toBe(orgId);
    }
  });

  it("hands the customers over, keeps the records in the company, ends the sessions, gives a fresh org", async () => {
    const { owner, admin, member, colleague } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const customers = [await customerOf(member, "A"), await customerOf(member, "B")];
    const kept = await customerOf(colleague, "C");
    // A second instance polls the revocations instead of hearing of them directly.
    const other = await ctx.makeApp();
    const before = await call(other, "/api/v1/customers", { token: member.accessToken });
    expect(before.status).toBe(200);

    const answer = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(admin),
      params: { user_id: member.userId },
      json: { transfer_to: colleague.userId },
    });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({
      user_id: member.userId,
      customers_moved: 2,
      to_user_id: colleague.userId,
    });

    const rows = await queryRows<{ id: string; user_id: string; org_id: string }>(
      db,
      sql`select id, user_id, org_id from customers where id in (${customers[0]}::uuid, ${customers[1]}::uuid, ${kept}::uuid)`,
    );
    expect(rows.every((r) => r.user_id === colleague.userId && r.org_id === orgId)).toBe(true);
    // The heir's recycle clock starts at the handover (pool.recycle_after_days counts from it).
    const clocks = await queryRows<{ fresh: boolean }>(
      db,
      sql`select held_since >= now() - interval '1 minute' as fresh from customers
        where id in (${customers[0]}::uuid, ${customers[1]}::uuid)`,
    );
    expect(clocks).toEqual([{ fresh: true }, { fresh: true }]);
    const events = await queryRows<{
      customer_id: string;
      from_user_id: string;
      to_user_id: string;
      actor_id: string;
      org_id: string;
    }>(
      db,
      sql`select customer_id, from_user_id, to_user_id, actor_id, org_id from customer_ownership_events
        where action = 'member_removed' and from_user_id = ${member.userId}::uuid`,
    );
    expect(events.map((e) => e.customer_id).sort()).toEqual([...customers].sort());
    for (const e of events) {
      expect(e).toMatchObject({
        to_user_id: colleague.userId,
        actor_id: admin.userId,
        org_id: orgId,
      });
    }

    // This instance refuses the session at once, the other after its next poll.
    const here = await call(app, "/api/v1/customers", { token: member.accessToken });
    expect(here.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 3));
    const there = await call(other, "/api/v1/customers", { token: member.accessToken });
    expect(there.status).toBe(401);
    const refreshed = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: member.refreshToken },
    });
    expect(refreshed.status).toBe(401);

    const mine = await membership(member.userId);
    expect(mine.org_id).toBe(answer.body.new_org_id);
    expect(mine).toMatchObject({ role: "owner", monthly_credit_limit: null });
    const login = await call(app, "/api/v1/auth/login", {
      json: { email: member.email, password: member.password },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const fresh = await typed.get("/api/v1/org", { token: login.body.access_token });
    expectStatus(fresh, 200);
    expect(fresh.body).toMatchObject({
      id: answer.body.new_org_id,
      plan: "free",
      member_count: 1,
      role: "owner",
    });
    const list = await call(app, "/api/v1/customers", { token: login.body.access_token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    const created = await call(app, "/api/v1/customers", {
      token: login.body.access_token,
      csrf: login.body.csrf_token,
      json: { company: "A fresh start" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [freshCustomer] = await queryRows<{ org_id: string }>(
      db,
      sql`select org_id from customers where id = ${created.body.id}::uuid`,
    );
    expect(freshCustomer!.org_id).toBe(answer.body.new_org_id);
    // No sign-up grant in the new organisation's wallet.
    const [grants] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from credit_ledger where org_id = ${answer.body.new_org_id}::uuid`,
    );
    expect(grants!.n).toBe(0);
    const members = await typed.get("/api/v1/org/members", { token: owner.accessToken });
    expectStatus(members, 200);
    expect(members.body.items.map((m) => m.user_id)).not.toContain(member.userId);
  });

  it("without transfer_to the customers go to the pool", async () => {
    const { owner, member } = await createCompany(ctx);
    const id = await customerOf(member);
    const answer = await typed.delete("/api/v1/org/members/{user_id}", {
      ...write(owner),
      params: { user_id: member.userId },
    });
    expectStatus(answer, 200);
    expect(answer.body.to_user_id).toBeNull();
    const [row] = await queryRows<{ user_id: string | null }>(
      db,
      sql`select user_id from customers where id = ${id}::uuid`,
    );
    expect(row!.user_id).toBeNull();
  });
});

describe("POST /api/v1/org/leave", () => {
  it("the owner must transfer ownership first (409)", async () => {
    const { owner } = await createCompany(ctx);
    const answer = await typed.post("/api/v1/org/leave", write(owner));
    expectStatus(answer, 409);
    expect(answer.body.detail).toMatch(/transfer ownership first/);
    expect((await membership(owner.userId)).role).toBe("owner");
  });

  it("a member leaves: customers to the pool with an event, sessions end, a fresh org", async () => {
    const { owner, manager } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const id = await customerOf(manager);
    const answer = await typed.post("/api/v1/org/leave", write(manager));
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ customers_moved: 1, to_user_id: null });
    const [row] = await queryRows<{ user_id: string | null; org_id: string }>(
      db,
      sql`select user_id, org_id from customers where id = ${id}::uuid`,
    );
    expect(row).toEqual({ user_id: null, org_id: orgId });
    const [event] = await queryRows<{ actor_id: string; reason: string }>(
      db,
      sql`select actor_id, reason from customer_ownership_events
        where customer_id = ${id}::uuid and action = 'member_removed'`,
    );
    expect(event).toEqual({ actor_id: manager.userId, reason: "left" });
    const after = await call(app, "/api/v1/org", { token: manager.accessToken });
    expect(after.status).toBe(401);
    expect((await membership(manager.userId)).org_id).toBe(answer.body.new_org_id);
  });
});

describe("POST /api/v1/org/transfer-ownership", () => {
  it("refuses anyone but the owner, and a user of another org", async () => {
    const { owner, admin, member, outsider } = await createCompany(ctx);
    const byMember = await typed.post("/api/v1/org/transfer-ownership", {
      ...write(member),
      json: { user_id: member.userId },
    });
    expectStatus(byMember, 403);
    const byAdmin = await typed.post("/api/v1/org/transfer-ownership", {
      ...write(admin),
      json: { user_id: admin.userId },
    });
    expectStatus(byAdmin, 403);
    const foreign = await typed.post("/api/v1/org/transfer-ownership", {
      ...write(owner),
      json: { user_id: outsider.userId },
    });
    expectStatus(foreign, 404);
    expect((await membership(owner.userId)).role).toBe("owner");
    expect((await membership(outsider.userId)).role).toBe("owner");
  });

  it("the member becomes the owner and the old owner an admin", async () => {
    const { owner, manager } = await createCompany(ctx);
    const answer = await typed.post("/api/v1/org/transfer-ownership", {
      ...write(owner),
      json: { user_id: manager.userId },
    });
    expectStatus(answer, 200);
    expect(answer.body.role).toBe("admin");
    expect((await membership(manager.userId)).role).toBe("owner");
    expect((await membership(owner.userId)).role).toBe("admin");
    const leave = await typed.post("/api/v1/org/leave", write(owner));
    expectStatus(leave, 200);
  });

  it("concurrent transfers leave exactly one owner", async () => {
    const { owner, admin, manager, member, colleague } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const answers = await Promise.all(
      [admin, manager, member, colleague].map((to) =>
        call(app, "/api/v1/org/transfer-ownership", {
          ...write(owner),
          json: { user_id: to.userId },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403]);
    const owners = await ownersOf(orgId);
    expect(owners).toHaveLength(1);
    expect(owners[0]!.user_id).not.toBe(owner.userId);
  });
});
