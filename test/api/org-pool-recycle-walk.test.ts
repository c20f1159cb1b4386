import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { recyclePoolCustomers } from "../../src/modules/customers/pool/recycle";
import { recycleCustomers } from "../../src/modules/customers/queries/pool";
import { call, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// The pool recycle's walk (ADR 0103): a read-only page of due customers (past N days, or warned
// today) per organisation, then the recycles by primary key in timed batches, each row re-checked
// as it is locked. Pages and walks of any size give the same outcome; a run stopped half-way is
// finished by the next, without a second event or notification.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const D0 = Date.parse("2026-07-01T00:00:00.000Z");
const ctx = await createTestContext({ runtime: { clock: { now: () => new Date(D0 + 3 * HOUR) } } });
const { app, deps, database } = ctx;
const db = database.db;
const at = (ms: number) => new Date(ms).toISOString();
const runOn = (day: number, sizes?: { orgsPerWalk?: number; page?: number }) =>
  recyclePoolCustomers(deps, new Date(D0 + day * DAY + 3 * HOUR), sizes);

async function setPool(owner: Session, pool: Record<string, unknown>) {
  const org = await orgIdOf(database, owner);
  await db.execute(
    sql`update orgs set settings = ${JSON.stringify({ pool })}::jsonb where id = ${org}::uuid`,
  );
  return org;
}

/** `n` customers held by `holder`, clocks started at `since` + g seconds, status `status`. */
async function held(holder: Session, n: number, since: number, status = "contacted") {
  const org = await orgIdOf(database, holder);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into customers (org_id, user_id, company, status, created_at, last_contact_at)
        select ${org}::uuid, ${holder.userId}::uuid, 'Walk ' || g, ${status},
          ${at(since - 400 * DAY)}::timestamptz,
          ${at(since)}::timestamptz + make_interval(secs => g)
        from generate_series(1, ${n}) g
        returning id`,
  );
  return rows.map((r) => r.id);
}

async function heldCount(org: string) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from customers where org_id = ${org}::uuid and user_id is not null`,
  );
  return row!.n;
}

async function recycleEvents(org: string) {
  const [row] = await queryRows<{ n: number; distinct: number }>(
    db,
    sql`select count(*)::int as n, count(distinct customer_id)::int as distinct
        from customer_ownership_events where org_id = ${org}::uuid and action = 'recycle'`,
  );
  return row!;
}

async function notice(user: Session, kind: string) {
  return queryRows<{ data: Record<string, unknown> }>(
    db,
    sql`select data from notifications where user_id = ${user.userId}::uuid and kind = ${kind}`,
  );
}

describe("pool recycle walk", () => {
  it("tiny pages and walks find the same customers as one page: recycles, warnings, exempt", async () => {
    // Three organisations with rules, walked two per walk, three rows per page: the cursor
    // crosses organisations and, inside one, from the recycle range into the warning range.
    const a = await createCompany(ctx);
    const b = await createCompany(ctx);
    const c = await createCompany(ctx);
    const orgA = await setPool(a.owner, { recycle_after_days: 10, warn_days_before: 3 });
    const orgB = await setPool(b.owner, { recycle_after_days: 20, warn_days_before: 5 });
    const orgC = await setPool(c.owner, { recycle_after_days: 10, exempt_statuses: ["lost"] });
    // A: 7 due, 4 warned today (clock crossed 7 days during the day before D0), 2 won (exempt
    // by default), 3 warned earlier (8 days: between the windows, neither).
    await held(a.member, 7, D0 - 15 * DAY);
    await held(a.colleague, 4, D0 - 8 * DAY + HOUR);
    await held(a.member, 2, D0 - 30 * DAY, "won");
    await held(a.member, 3, D0 - 9 * DAY + HOUR);
    // B: 5 due, 2 warned (15 days), 1 fresh.
    await held(b.member, 5, D0 - 25 * DAY);
    await held(b.member, 2, D0 - 16 * DAY + HOUR);
    await held(b.member, 1, D0 - DAY);
    // C: no warnings; 4 due, 3 lost (exempt), won is not exempt here.
    await held(c.member, 4, D0 - 11 * DAY - HOUR);
    await held(c.member, 3, D0 - 40 * DAY, "lost");
    await held(c.colleague, 1, D0 - 40 * DAY, "won");

    const result = await runOn(0, { orgsPerWalk: 2, page: 3 });
    expect(result).toMatchObject({ warned: 6, warnings: 2, recycled: 17 });
    expect(await heldCount(orgA)).toBe(4 + 2 + 3);
    expect(await heldCount(orgB)).toBe(2 + 1);
    expect(await heldCount(orgC)).toBe(3);
    expect(await recycleEvents(orgA)).toEqual({ n: 7, distinct: 7 });
    expect((await notice(a.colleague, "pool_recycle_warning"))[0]!.data).toMatchObject({
      count: 4,
      recycle_on: "2026-07-04",
    });
    expect((await notice(b.member, "pool_recycle_warning"))[0]!.data).toMatchObject({
      count: 2,
      recycle_on: "2026-07-06",
    });
    expect((await notice(a.member, "pool_recycled"))[0]!.data).toMatchObject({ count: 7 });
    expect((await notice(c.member, "pool_recycled"))[0]!.data).toMatchObject({ count: 4 });
    expect((await notice(c.colleague, "pool_recycled"))[0]!.data).toMatchObject({ count: 1 });

    // The same run again with the default sizes: nothing left to recycle, the same warnings
    // found and not written twice; warned customers are not warned again the next day.
    expect(await runOn(0)).toMatchObject({ warned: 6, warnings: 0, recycled: 0 });
    expect(await runOn(1, { page: 1 })).toMatchObject({ warned: 0, recycled: 0 });
    expect(await notice(a.colleague, "pool_recycle_warning")).toHaveLength(1);
    // Three companies of six accounts each: registration's password hashing on busy cores.
  }, 90_000);

  it("a run stopped half-way is finished by the next, one event and one count per customer", async () => {
    const co = await createCompany(ctx);
    const org = await setPool(co.owner, { recycle_after_days: 10 });
    const ids = await held(co.member, 12, D0 - 20 * DAY);
    // The first run got through five of them before it stopped (a crash between batches).
    const cutoff = at(D0);
    const done = await recycleCustomers(db, {
      targets: ids.slice(0, 5).map((id) => ({ id, org_id: org, days: 10, exempt: ["won"] })),
      cutoff,
      now: at(D0 + 3 * HOUR),
      day: "2026-07-01",
    });
    expect(done).toBe(5);
    expect(await runOn(0)).toMatchObject({ recycled: 7 });
    expect(await heldCount(org)).toBe(0);
    expect(await recycleEvents(org)).toEqual({ n: 12, distinct: 12 });
    const recycled = await notice(co.member, "pool_recycled");
    expect(recycled).toHaveLength(1);
    expect(recycled[0]!.data).toMatchObject({ count: 12 });
  });

  it("re-checks each customer as it locks it: a follow-up, a status or a holder change since the read keeps it", async () => {
    const co = await createCompany(ctx);
    const org = await setPool(co.owner, { recycle_after_days: 10 });
    const [followed, won, released, otherOrg, due] = await held(co.member, 5, D0 - 20 * DAY);
    // What users did between the walk's read and the recycle's batch.
    const res = await call(app, `/api/v1/customers/${followed}/followups`, {
      token: co.member.accessToken,
      json: { channel: "email", note: "Called back" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await db.execute(sql`update customers set status = 'won' where id = ${won}::uuid`);
    await db.execute(sql`update customers set user_id = null where id = ${released}::uuid`);
    const target = (id: string, orgId = org) => ({ id, org_id: orgId, days: 10, exempt: ["won"] });
    const taken = await recycleCustomers(db, {
      targets: [
        target(followed!),
        target(won!),
        target(released!),
        // A target named with another organisation (its rule) is not this one's.
        target(otherOrg!, await orgIdOf(database, co.outsider)),
        target(due!),
      ],
      cutoff: at(D0),
      now: at(D0 + 3 * HOUR),
      day: "2026-07-01",
    });
    expect(taken).toBe(1);
    const holders = await queryRows<{ id: string; user_id: string | null }>(
      db,
      sql`select id, user_id from customers where org_id = ${org}::uuid and company like 'Walk %'`,
    );
    const holderOf = new Map(holders.map((h) => [h.id, h.user_id]));
    expect(holderOf.get(followed!)).toBe(co.member.userId);
    expect(holderOf.get(won!)).toBe(co.member.userId);
    expect(holderOf.get(otherOrg!)).toBe(co.member.userId);
    expect(holderOf.get(due!)).toBeNull();
    expect(await recycleEvents(org)).toEqual({ n: 1, distinct: 1 });
  });
});
