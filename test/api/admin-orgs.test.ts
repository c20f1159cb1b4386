import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { api, call, expectStatus, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

/** GET /api/v1/admin/orgs (issue #22 item 6) and the organisation in the admin user views. */

const ctx = await createTestContext();
const { app } = ctx;
const t = api(app);
const admin = await registerAdmin(ctx);
const token = admin.accessToken;
const company = await createCompany(ctx);
const companyOrg = await orgIdOf(ctx.database, company.owner);

const DAY = 86_400_000;
/** Renames an organisation and sets its stored plan and expiry, as a payment or an admin would. */
async function setOrg(orgId: string, fields: { name?: string; plan?: string; expiresAt?: Date }) {
  await queryRows(
    ctx.deps.db,
    sql`update orgs set name = coalesce(${fields.name ?? null}, name),
          plan = coalesce(${fields.plan ?? null}, plan),
          plan_expires_at = coalesce(${fields.expiresAt?.toISOString() ?? null}::timestamptz,
            plan_expires_at)
        where id = ${orgId}::uuid`,
  );
}

async function seatsOf(plan: string): Promise<number | null> {
  const [row] = await queryRows<{ seats: number | null }>(
    ctx.deps.db,
    sql`select (limits ->> 'seats')::int as seats from subscription_plans where code = ${plan}`,
  );
  return row?.seats ?? null;
}

describe("GET /api/v1/admin/orgs", () => {
  it("is for platform admins only: 401 without a token, 403 for an organisation's owner", async () => {
    expect((await call(app, "/api/v1/admin/orgs")).status).toBe(401);
    for (const session of [company.owner, company.member, await registerUser(app)]) {
      const res = await call(app, "/api/v1/admin/orgs", { token: session.accessToken });
      expect(res.status).toBe(403);
      expect(typeof res.body.detail).toBe("string");
    }
  });

  it("shows the plan in effect, its seats, the members, the owner and the balance", async () => {
    const marker = `Fields ${Date.now()}`;
    await setOrg(companyOrg, {
      name: marker,
      plan: "business",
      expiresAt: new Date(Date.now() + 30 * DAY),
    });
    const balance = await t.get("/api/v1/credits/balance", { token: company.owner.accessToken });
    expectStatus(balance, 200);
    const listed = await t.get("/api/v1/admin/orgs", { token, query: { q: marker } });
    expectStatus(listed, 200);
    expect(listed.body.total).toBe(1);
    const org = listed.body.items[0]!;
    expect(org).toMatchObject({
      id: companyOrg,
      name: marker,
      plan: "business",
      seats: await seatsOf("business"),
      member_count: 5,
      owner_id: company.owner.userId,
      owner_email: company.owner.email,
      balance: balance.body.balance,
    });
    expect(org.balance).toBeGreaterThan(0);
    expect(new Date(org.plan_expires_at!).getTime()).toBeGreaterThan(Date.now());
    expect(Number.isNaN(Date.parse(org.created_at))).toBe(false);
  });

  it("shows a lapsed paid plan as free, and filters by the plan in effect", async () => {
    const marker = `Lapsed ${Date.now()}`;
    const [lapsed, paid] = await Promise.all([registerUser(app), registerUser(app)]);
    const [lapsedOrg, paidOrg] = await Promise.all([
      orgIdOf(ctx.database, lapsed),
      orgIdOf(ctx.database, paid),
    ]);
    await setOrg(lapsedOrg, {
      name: `${marker} a`,
      plan: "pro",
      expiresAt: new Date(Date.now() - DAY),
    });
    await setOrg(paidOrg, {
      name: `${marker} b`,
      plan: "pro",
      expiresAt: new Date(Date.now() + DAY),
    });

    const pro = await t.get("/api/v1/admin/orgs", { token, query: { q: marker, plan: "pro" } });
    expectStatus(pro, 200);
    expect(pro.body.items.map((o) => o.id)).toEqual([paidOrg]);
    expect(pro.body.items[0]!.seats).toBe(await seatsOf("pro"));

    const free = await t.get("/api/v1/admin/orgs", { token, query: { q: marker, plan: "free" } });
    expectStatus(free, 200);
    expect(free.body.items.map((o) => [o.id, o.plan, o.member_count])).toEqual([
      [lapsedOrg, "free", 1],
    ]);
  });

  it("matches the owner's e-mail, not a member's", async () => {
    const byOwner = await t.get("/api/v1/admin/orgs", {
      token,
      query: { q: company.owner.email.toUpperCase() },
    });
    expectStatus(byOwner, 200);
    expect(byOwner.body.items.map((o) => o.id)).toEqual([companyOrg]);

    // The member's own (personal) organisation was left when they joined: their address names
    // no organisation's owner any more.
    const byMember = await t.get("/api/v1/admin/orgs", {
      token,
      query: { q: company.member.email },
    });
    expectStatus(byMember, 200);
    expect(byMember.body.items.map((o) => o.id)).not.toContain(companyOrg);
  });

  it("pages newest first, with the total of matches", async () => {
    const marker = `Paged ${Date.now()}`;
    const orgIds: string[] = [];
    for (const n of [1, 2, 3]) {
      const owner = await registerUser(app);
      const orgId = await orgIdOf(ctx.database, owner);
      await setOrg(orgId, { name: `${marker} ${n}` });
      orgIds.push(orgId);
    }
    const first = await t.get("/api/v1/admin/orgs", { token, query: { q: marker, size: 2 } });
    expectStatus(first, 200);
    expect(first.body).toMatchObject({ total: 3, page: 1, size: 2 });
    const second = await t.get("/api/v1/admin/orgs", {
      token,
      query: { q: marker, size: 2, page: 2 },
    });
    expectStatus(second, 200);
    expect([...first.body.items, ...second.body.items].map((o) => o.name)).toEqual([
      `${marker} 3`,
      `${marker} 2`,
      `${marker} 1`,
    ]);
    const past = await t.get("/api/v1/admin/orgs", { token, query: { q: marker, page: 9 } });
    expectStatus(past, 200);
    expect(past.body).toMatchObject({ items: [], total: 3 });
  });

  it("refuses a bad page size or an unknown filter with 422", async () => {
    for (const query of ["size=0", "size=1001", "owner=x"]) {
      const res = await call(app, `/api/v1/admin/orgs?${query}`, { token });
      expect(res.status, query).toBe(422);
    }
  });
});

describe("the admin user views show the organisation and role", () => {
  it("in the list, the single user and the answer to a change", async () => {
    const orgName = `Roles ${Date.now()}`;
    await setOrg(companyOrg, { name: orgName });
    const listed = await t.get("/api/v1/admin/users", {
      token,
      query: { q: company.manager.email },
    });
    expectStatus(listed, 200);
    expect(listed.body.items.map((u) => [u.id, u.org_id, u.org_name, u.org_role])).toEqual([
      [company.manager.userId, companyOrg, orgName, "manager"],
    ]);

    const one = await t.get("/api/v1/admin/users/{id}", {
      token,
      params: { id: company.owner.userId },
    });
    expectStatus(one, 200);
    expect([one.body.org_id, one.body.org_name, one.body.org_role]).toEqual([
      companyOrg,
      orgName,
      "owner",
    ]);

    const patched = await t.patch("/api/v1/admin/users/{id}", {
      token,
      csrf: admin.csrfToken,
      params: { id: company.member.userId },
      json: { status: "active" },
    });
    expectStatus(patched, 200);
    expect([patched.body.org_id, patched.body.org_role]).toEqual([companyOrg, "member"]);

    const outsider = await t.get("/api/v1/admin/users/{id}", {
      token,
      params: { id: company.outsider.userId },
    });
    expectStatus(outsider, 200);
    expect(outsider.body.org_id).toBe(await orgIdOf(ctx.database, company.outsider));
    expect(outsider.body.org_id).not.toBe(companyOrg);
    expect(outsider.body.org_role).toBe("owner");
  });
});
