import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { moveOrgCredits } from "../../src/modules/credits/queries/org-move";
import { expireDueCredits, grantCredits } from "../../src/modules/credits/service";
import { appWithBillableRoute } from "../support/billable";
import { call, expectStatus, registerUser, type Session, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// One wallet per organisation, member monthly limits (issue #22 item 5, ADR 0098), over HTTP on
// the real app and database. The billable route charges quotation_from_inquiry: 2 credits.

const ctx = await createTestContext();
const { app, deps, database } = ctx;
const billable = appWithBillableRoute(deps);
const charge = (who: Session) =>
  call(billable, "/test/billable", { json: {}, token: who.accessToken });

/** The wallet's balance row, the sum of its ledger and of its lots: always equal. */
async function wallet(orgId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number; lots: number }>(
    deps.db,
    sql`select (select balance from org_credits where org_id = ${orgId}::uuid) as balance,
          (select coalesce(sum(delta), 0)::int from credit_ledger where org_id = ${orgId}::uuid) as ledger,
          (select coalesce(sum(remaining), 0)::int from credit_lots where org_id = ${orgId}::uuid) as lots`,
  );
  return row!;
}

async function setLimit(who: Session, limit: number | null) {
  await database.db.execute(
    sql`update org_members set monthly_credit_limit = ${limit} where user_id = ${who.userId}::uuid`,
  );
}

async function topUp(who: Session, amount: number) {
  await grantCredits(deps, {
    userId: who.userId,
    amount,
    kind: "purchase",
    sourceType: "order",
    sourceId: `test-${crypto.randomUUID()}`,
  });
}

const balanceOf = async (who: Session) => {
  const res = await typed(app).get("/api/v1/credits/balance", { token: who.accessToken });
  expectStatus(res, 200);
  return res.body;
};

describe("one wallet", () => {
  it("is the organisation's: every member spends it, and each ledger row names the member", async () => {
    const company = await createCompany(ctx);
    const { owner, member, colleague } = company;
    const orgId = await orgIdOf(database, owner);
    // The owner's registration credits are the organisation's; the members' stayed behind.
    expect((await balanceOf(member)).balance).toBe(30);
    expectStatus(await charge(member), 200);
    expectStatus(await charge(colleague), 200);
    const [ownerView, memberView] = [await balanceOf(owner), await balanceOf(member)];
    expect(ownerView.balance).toBe(26);
    expect(memberView).toMatchObject({ balance: 26, member_used_month: 2, member_limit: null });
    expect(ownerView.member_used_month).toBe(0);
    const rows = await queryRows<{ user_id: string; org_id: string; delta: number }>(
      deps.db,
      sql`select user_id, org_id, delta from credit_ledger
          where org_id = ${orgId}::uuid and kind = 'consumption' order by created_at`,
    );
    expect(rows.map((r) => [r.user_id, r.delta])).toEqual(
      expect.arrayContaining([
        [member.userId, -2],
        [colleague.userId, -2],
      ]),
    );
    const consumptions = await queryRows<{ user_id: string; org_id: string }>(
      deps.db,
      sql`select user_id, org_id from credit_consumptions where org_id = ${orgId}::uuid`,
    );
    expect(consumptions.map((c) => c.user_id).sort()).toEqual(
      [member.userId, colleague.userId].sort(),
    );
    expect(await wallet(orgId)).toEqual({ balance: 26, ledger: 26, lots: 26 });
    // The /me statement reads the same wallet (user_credits is its view per member).
    const me = await call(app, "/api/v1/auth/me", { token: colleague.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.credits ?? me.body.user?.credits).toBe(26);
  });

  it("refunds to the organisation charged, and expires allowance lots per organisation", async () => {
    const { owner, member } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    const failed = await call(billable, "/test/billable", {
      json: { fail: true },
      token: member.accessToken,
    });
    expect(failed.status).toBe(503);
    expect(await wallet(orgId)).toEqual({ balance: 30, ledger: 30, lots: 30 });
    const expiresAt = new Date(Date.now() + 600_000);
    await grantCredits(deps, {
      userId: member.userId,
      amount: 10,
      kind: "plan_allowance",
      sourceType: "order",
      sourceId: `allowance-${member.userId}`,
      expiresAt,
    });
    expect((await balanceOf(owner)).expiring).toEqual([
      { amount: 10, expires_at: expiresAt.toISOString() },
    ]);
    const later = { now: () => new Date(expiresAt.getTime() + 1000) };
    const result = await expireDueCredits({ ...deps, clock: later });
    expect(result.credits).toBeGreaterThanOrEqual(10);
    const [expiry] = await queryRows<{ user_id: string; delta: number }>(
      deps.db,
      sql`select user_id, delta from credit_ledger where org_id = ${orgId}::uuid and kind = 'expiry'`,
    );
    expect(expiry).toEqual({ user_id: member.userId, delta: -10 });
    expect(await wallet(orgId)).toEqual({ balance: 30, ledger: 30, lots: 30 });
  });
});

describe("member monthly limits", () => {
  it("refuses a charge past the limit with 402 naming it, and notifies at 75% and 100%", async () => {
    const { owner, admin, manager, member, colleague } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    await topUp(owner, 100);
    await setLimit(member, 8);
    expect(await balanceOf(member)).toMatchObject({ member_limit: 8, member_used_month: 0 });
    for (let i = 0; i < 4; i++) expectStatus(await charge(member), 200);
    const refused = await charge(member);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      detail: "monthly credit limit of 8 credits reached (used 8)",
      code: "member_limit_reached",
      required: 2,
      available: 0,
      balance: 122,
      limit: 8,
      used: 8,
    });
    // The wallet has credits: a colleague without a limit still spends it.
    expectStatus(await charge(colleague), 200);
    expect(await wallet(orgId)).toEqual({ balance: 120, ledger: 120, lots: 120 });
    expect(await balanceOf(member)).toMatchObject({ member_limit: 8, member_used_month: 8 });

    const notices = await queryRows<{
      user_id: string;
      dedupe_key: string;
      data: { used: number };
    }>(
      deps.db,
      sql`select user_id, dedupe_key, data from notifications
          where kind = 'member_credit_limit' and data ->> 'member_id' = ${member.userId}`,
    );
    const month = new Date().toISOString().slice(0, 7);
    const recipients = (threshold: number) =>
      notices
        .filter(
          (n) => n.dedupe_key === `member_credit_limit:${threshold}:${member.userId}:${month}`,
        )
        .map((n) => n.user_id)
        .sort();
    // The member, the owner and the admin; not the manager or another member; once each.
    const expected = [member.userId, owner.userId, admin.userId].sort();
    expect(recipients(75)).toEqual(expected);
    expect(recipients(100)).toEqual(expected);
    expect(notices).toHaveLength(6);
    expect(
      notices.some((n) => n.user_id === manager.userId || n.user_id === colleague.userId),
    ).toBe(false);

    // Raising the limit lets the member spend again, up to the new one.
    await setLimit(member, 10);
    expectStatus(await charge(member), 200);
    expect((await charge(member)).status).toBe(402);
  });

  it("counts refunded charges out, refuses everything at a limit of 0, and never limits admin adjustments", async () => {
    const { owner, member } = await createCompany(ctx);
    await setLimit(member, 2);
    const failed = await call(billable, "/test/billable", {
      json: { fail: true },
      token: member.accessToken,
    });
    expect(failed.status).toBe(503);
    expectStatus(await charge(member), 200);
    expect((await charge(member)).body.code).toBe("member_limit_reached");
    await setLimit(member, 0);
    const zero = await charge(member);
    expect(zero.status).toBe(402);
    expect(zero.body.detail).toBe("monthly credit limit of 0 credits reached (used 2)");
    const platformAdmin = await registerAdmin(ctx);
    const adjust = await call(app, `/api/v1/admin/credit-users/${member.userId}/adjust`, {
      token: platformAdmin.accessToken,
      json: { delta: -5, reason: "Correction" },
    });
    expect(adjust.status).toBe(200);
    expect(adjust.body.balance).toBe(23);
    expect((await balanceOf(owner)).balance).toBe(23);
    // The admin's wallet list: one row per organisation, named with its owner.
    const wallets = await call(
      app,
      `/api/v1/admin/credit-users?q=${encodeURIComponent(owner.email)}`,
      {
        token: platformAdmin.accessToken,
      },
    );
    expect(wallets.status).toBe(200);
    expect(wallets.body.items).toEqual([
      expect.objectContaining({
        org_id: await orgIdOf(database, owner),
        org_name: expect.any(String),
        user_id: owner.userId,
        email: owner.email,
        balance: 23,
      }),
    ]);
  });
});

describe("history and usage by member", () => {
  it("shows a member their own rows and a manager the organisation's, filtered by member", async () => {
    const { owner, manager, member, colleague, outsider } = await createCompany(ctx);
    expectStatus(await charge(member), 200);
    expectStatus(await charge(colleague), 200);
    const history = (who: Session, query: Record<string, string> = {}) =>
      call(app, `/api/v1/credits/history?${new URLSearchParams(query)}`, {
        token: who.accessToken,
      });

    const own = await history(member);
    expect(own.status).toBe(200);
    expect(own.body.items.map((r: { user_id: string }) => r.user_id)).toEqual([member.userId]);
    expect(own.body.total).toBe(1);
    expect((await history(member, { user_id: member.userId })).status).toBe(200);
    const refused = await history(member, { user_id: colleague.userId });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
    expect(refused.body.detail).toMatch(/manager/);

    const all = await history(manager);
    expect(all.status).toBe(200);
    const names = new Set(all.body.items.map((r: { user_id: string }) => r.user_id));
    expect(names).toEqual(new Set([owner.userId, member.userId, colleague.userId]));
    const filtered = await history(manager, { user_id: colleague.userId });
    expect(filtered.status).toBe(200);
    expect(filtered.body.items).toEqual([
      expect.objectContaining({ user_id: colleague.userId, delta: -2, kind: "consumption" }),
    ]);
    expect((await history(manager, { user_id: outsider.userId })).status).toBe(404);
    expect((await history(outsider, { user_id: member.userId })).status).toBe(404);
    expect((await history(manager, { user_id: "not-a-uuid" })).status).toBe(422);
  });

  it("gives a member's usage to manager+ only, and nobody's outside the organisation", async () => {
    const { admin, manager, member, colleague, outsider } = await createCompany(ctx);
    expectStatus(await charge(colleague), 200);
    const usage = (who: Session, userId?: string) =>
      call(app, `/api/v1/usage/stats${userId ? `?user_id=${userId}` : ""}`, {
        token: who.accessToken,
      });
    const own = await usage(member);
    expect(own.status).toBe(200);
    expect((await usage(member, member.userId)).status).toBe(200);
    const refused = await usage(member, colleague.userId);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/manager/);
    for (const boss of [manager, admin]) {
      const seen = await usage(boss, colleague.userId);
      expect(seen.status).toBe(200);
      expect(seen.body.days.length).toBeGreaterThan(0);
    }
    const colleagueOwn = await usage(colleague);
    expect((await usage(manager, colleague.userId)).body).toEqual(colleagueOwn.body);
    expect((await usage(manager, outsider.userId)).status).toBe(404);
    expect((await usage(outsider, member.userId)).status).toBe(404);
    expect((await usage(manager, crypto.randomUUID())).status).toBe(404);
  });
});

describe("bring_data: moveOrgCredits", () => {
  it("moves what is left into the new organisation with a ledger row on each side", async () => {
    const { owner } = await createCompany(ctx);
    const joining = await registerUser(app);
    const from = await orgIdOf(database, joining);
    const to = await orgIdOf(database, owner);
    const expiresAt = new Date(Date.now() + 86_400_000);
    await grantCredits(deps, {
      userId: joining.userId,
      amount: 12,
      kind: "plan_allowance",
      sourceType: "order",
      sourceId: `move-${joining.userId}`,
      expiresAt,
    });
    expectStatus(await charge(joining), 200);
    const now = new Date().toISOString();
    const { moved } = await moveOrgCredits(deps.db, {
      userId: joining.userId,
      fromOrgId: from,
      toOrgId: to,
      now,
    });
    expect(moved).toBe(40);
    expect(await wallet(from)).toEqual({ balance: 0, ledger: 0, lots: 0 });
    expect(await wallet(to)).toEqual({ balance: 70, ledger: 70, lots: 70 });
    const rows = await queryRows<{
      org_id: string;
      user_id: string;
      delta: number;
      source_id: string;
    }>(
      deps.db,
      sql`select org_id, user_id, delta, source_id from credit_ledger
          where kind = 'org_transfer' and user_id = ${joining.userId}::uuid order by delta`,
    );
    expect(rows.map((r) => [r.org_id, r.user_id, r.delta])).toEqual([
      [from, joining.userId, -40],
      [to, joining.userId, 40],
    ]);
    expect(rows[0]!.source_id).toBe(rows[1]!.source_id);
    // The allowance keeps its expiry (10 of it was spent first: soonest-expiring first).
    expect((await balanceOf(owner)).expiring).toEqual([
      { amount: 10, expires_at: expiresAt.toISOString() },
    ]);
    // Nothing left: a second move writes nothing.
    expect(
      await moveOrgCredits(deps.db, { userId: joining.userId, fromOrgId: from, toOrgId: to, now }),
    ).toEqual({ moved: 0 });
    expect(
      (
        await queryRows<{ n: number }>(
          deps.db,
          sql`select count(*)::int as n from credit_ledger where kind = 'org_transfer'
              and user_id = ${joining.userId}::uuid`,
        )
      )[0]!.n,
    ).toBe(2);
  });
});
