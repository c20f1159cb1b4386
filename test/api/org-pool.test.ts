import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, expectStatus, type Session, api as typed } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";
import { type Company, createCompany, orgIdOf } from "../support/orgs";

// Issue #22 item 4: the shared customer pool (claim, release, transfer, ownership history and
// bulk actions), each rule's refusal (docs/teams.md, ADR 0099).

const ctx = await createTestContext();
const { app, database } = ctx;
const db = database.db;
const BASE = "/api/v1/customers";

const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

const claim = (user: Session, id: string) => as(user)(`${BASE}/${id}/claim`, { method: "POST" });
const release = (user: Session, id: string, reason: unknown = "not a fit") =>
  as(user)(`${BASE}/${id}/release`, { json: { reason } });
const transfer = (user: Session, id: string, json: Record<string, unknown>) =>
  as(user)(`${BASE}/${id}/transfer`, { json });
const ownership = (user: Session, id: string, query = "") =>
  as(user)(`${BASE}/${id}/ownership${query}`);
const bulk = (user: Session, json: Record<string, unknown>) => as(user)(`${BASE}/bulk`, { json });

/** A customer held by `user` (created through the API: its `create` event comes from the trigger). */
async function held(user: Session, company = "Held Co") {
  const res = await as(user)(BASE, { json: { company } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/**
 * `n` customers in the pool of `owner`'s organisation: inserted held by the owner (the plan's
 * customer count is kept per holder), then put in the pool directly (no release event).
 */
async function pooled(owner: Session, n = 1): Promise<string[]> {
  const org = await orgIdOf(database, owner);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into customers (org_id, user_id, company)
        select ${org}::uuid, ${owner.userId}::uuid, 'Pool ' || g from generate_series(1, ${n}::int) g
        returning id`,
  );
  const ids = rows.map((r) => r.id);
  await db.execute(
    sql`update customers set user_id = null where id = any(${`{${ids.join(",")}}`}::uuid[])`,
  );
  return ids;
}

async function setPool(owner: Session, pool: Record<string, unknown>) {
  const org = await orgIdOf(database, owner);
  await db.execute(
    sql`update orgs set settings = ${JSON.stringify({ pool })}::jsonb where id = ${org}::uuid`,
  );
}

async function holderOf(id: string): Promise<string | null | undefined> {
  const [row] = await queryRows<{ user_id: string | null }>(
    db,
    sql`select user_id from customers where id = ${id}::uuid`,
  );
  return row?.user_id;
}

async function eventsOf(id: string) {
  return queryRows<{ action: string; from_user_id: string | null; to_user_id: string | null }>(
    db,
    sql`select action, from_user_id, to_user_id from customer_ownership_events
        where customer_id = ${id}::uuid order by at, id`,
  );
}

const company = () => createCompany(ctx);

describe("claim", () => {
  it("moves a pool customer to the caller with a claim event, visible in the history", async () => {
    const co = await company();
    const [id] = await pooled(co.owner);
    // Typed by the OpenAPI document (ADR 0095): a renamed field fails the typecheck here.
    const res = await typed(app).post("/api/v1/customers/{id}/claim", {
      params: { id: id! },
      token: co.member.accessToken,
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      id,
      user_id: co.member.userId,
      event: {
        action: "claim",
        from_user_id: null,
        to_user_id: co.member.userId,
        actor_id: co.member.userId,
        reason: null,
      },
    });
    expect(await holderOf(id!)).toBe(co.member.userId);
    const history = await typed(app).get("/api/v1/customers/{id}/ownership", {
      params: { id: id! },
      token: co.member.accessToken,
    });
    expectStatus(history, 200);
    expect(history.body.total).toBe(2);
    expect(history.body.items.map((e) => e.action)).toEqual(["create", "claim"]);
  });

  it("refuses what is not in the caller's pool: another org's (404), a colleague's (404), a missing id (404)", async () => {
    const co = await company();
    const [pool] = await pooled(co.owner);
    const colleagues = await held(co.colleague);
    expect((await claim(co.outsider, pool!)).status).toBe(404);
    expect((await claim(co.member, colleagues)).status).toBe(404);
    expect((await claim(co.member, crypto.randomUUID())).status).toBe(404);
    expect(await holderOf(pool!)).toBeNull();
    expect(await holderOf(colleagues)).toBe(co.colleague.userId);
  });

  it("refuses a customer already held: the caller's own, or another member's for a manager (409)", async () => {
    const co = await company();
    const mine = await held(co.member);
    const own = await claim(co.member, mine);
    expect(own.status).toBe(409);
    expect(own.body.detail).toMatch(/already hold/);
    const other = await claim(co.manager, mine);
    expect(other.status).toBe(409);
    expect(other.body.detail).toMatch(/transfer/);
    expect(await holderOf(mine)).toBe(co.member.userId);
  });

  it("pool.max_claims_per_day: counts the day's claims, released ones included (409 naming it)", async () => {
    const co = await company();
    await setPool(co.owner, { max_claims_per_day: 2 });
    const ids = await pooled(co.owner, 3);
    expect((await claim(co.member, ids[0]!)).status).toBe(200);
    expect((await claim(co.member, ids[1]!)).status).toBe(200);
    expect((await release(co.member, ids[0]!)).status).toBe(200);
    const third = await claim(co.member, ids[2]!);
    expect(third.status).toBe(409);
    expect(third.body.detail).toMatch(/^pool\.max_claims_per_day \(2\) reached/);
    expect(await holderOf(ids[2]!)).toBeNull();
    // Another member's count is their own.
    expect((await claim(co.colleague, ids[2]!)).status).toBe(200);
    // Yesterday's claims do not count.
    await db.execute(
      sql`update customer_ownership_events set at = at - interval '1 day'
          where actor_id = ${co.member.userId}::uuid`,
    );
    expect((await claim(co.member, ids[0]!)).status).toBe(200);
  });

  it("pool.max_customers_per_member: counts what the caller holds (409 naming it)", async () => {
    const co = await company();
    await setPool(co.owner, { max_customers_per_member: 2 });
    await held(co.member);
    const ids = await pooled(co.owner, 2);
    expect((await claim(co.member, ids[0]!)).status).toBe(200);
    const over = await claim(co.member, ids[1]!);
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/^pool\.max_customers_per_member \(2\) reached/);
    // Giving one back makes room.
    expect((await release(co.member, ids[0]!)).status).toBe(200);
    expect((await claim(co.member, ids[1]!)).status).toBe(200);
  });

  it("pool.reclaim_cooldown_days: the former holder waits, anyone else may claim (409 naming it)", async () => {
    const co = await company();
    await setPool(co.owner, { reclaim_cooldown_days: 7 });
    const [id] = await pooled(co.owner);
    expect((await claim(co.member, id!)).status).toBe(200);
    expect((await release(co.member, id!)).status).toBe(200);
    const back = await claim(co.member, id!);
    expect(back.status).toBe(409);
    expect(back.body.detail).toMatch(/^pool\.reclaim_cooldown_days \(7\)/);
    // Eight days after the release it may come back.
    await db.execute(
      sql`update customer_ownership_events set at = at - interval '8 days'
          where customer_id = ${id!}::uuid and action = 'release'`,
    );
    expect((await claim(co.member, id!)).status).toBe(200);
    expect((await release(co.member, id!)).status).toBe(200);
    // The cooldown is the former holder's only.
    expect((await claim(co.colleague, id!)).status).toBe(200);
  });

  it("concurrent claims of one customer: exactly one wins, one claim event", async () => {
    const co = await company();
    const [id] = await pooled(co.owner);
    const claimers = [co.member, co.colleague, co.manager, co.admin, co.owner];
    const answers = await Promise.all(claimers.map((u) => claim(u, id!)));
    // A loser that is a member no longer sees it (404); a manager and up see it held (409).
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([404, 409]).toContain(a.status);
    const winner = claimers[answers.findIndex((a) => a.status === 200)]!;
    expect(await holderOf(id!)).toBe(winner.userId);
    const events = await eventsOf(id!);
    expect(events.filter((e) => e.action === "claim")).toEqual([
      { action: "claim", from_user_id: null, to_user_id: winner.userId },
    ]);
  });

  it(`concurrent claims by one member never pass the caps (${onPostgres ? "PostgreSQL" : "PGlite"})`, async () => {
    const co = await company();
    await setPool(co.owner, { max_claims_per_day: 3, max_customers_per_member: 5 });
    const ids = await pooled(co.owner, 12);
    const answers = await Promise.all(ids.map((id) => claim(co.member, id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body.detail).toMatch(/^pool\.max_claims_per_day \(3\)/);
    }
    await setPool(co.owner, { max_customers_per_member: 5 });
    const more = await Promise.all(ids.map((id) => claim(co.colleague, id)));
    // 9 left in the pool, 5 fit the colleague.
    expect(more.filter((a) => a.status === 200)).toHaveLength(5);
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from customers where user_id = ${co.colleague.userId}::uuid`,
    );
    expect(count!.n).toBe(5);
  });
});

describe("release", () => {
  it("the holder gives a customer back with a reason; the event keeps it", async () => {
    const co = await company();
    const id = await held(co.member);
    const res = await release(co.member, id, "  wrong market  ");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      user_id: null,
      event: {
        action: "release",
        from_user_id: co.member.userId,
        to_user_id: null,
        reason: "wrong market",
      },
    });
    expect(await holderOf(id)).toBeNull();
  });

  it("needs a reason of 1 to 500 characters (422)", async () => {
    const co = await company();
    const id = await held(co.member);
    expect((await as(co.member)(`${BASE}/${id}/release`, { json: {} })).status).toBe(422);
    expect((await release(co.member, id, "   ")).status).toBe(422);
    expect((await release(co.member, id, "x".repeat(501))).status).toBe(422);
    expect(await holderOf(id)).toBe(co.member.userId);
  });

  it("refuses a colleague's (404), another org's (404) and a pool customer (409); a manager may release anyone's", async () => {
    const co = await company();
    const colleagues = await held(co.colleague);
    const [pool] = await pooled(co.owner);
    expect((await release(co.member, colleagues)).status).toBe(404);
    expect((await release(co.outsider, colleagues)).status).toBe(404);
    const twice = await release(co.member, pool!);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toMatch(/already in the pool/);
    expect(await holderOf(colleagues)).toBe(co.colleague.userId);
    expect((await release(co.manager, colleagues)).status).toBe(200);
    expect(await holderOf(colleagues)).toBeNull();
  });
});

describe("transfer", () => {
  it("a manager hands a member's customer to a colleague, and a pool customer to a member", async () => {
    const co = await company();
    const id = await held(co.member);
    const res = await transfer(co.manager, id, {
      to_user_id: co.colleague.userId,
      reason: "holiday",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      user_id: co.colleague.userId,
      event: {
        action: "transfer",
        from_user_id: co.member.userId,
        to_user_id: co.colleague.userId,
        actor_id: co.manager.userId,
        reason: "holiday",
      },
    });
    const [pool] = await pooled(co.owner);
    expect((await transfer(co.admin, pool!, { to_user_id: co.member.userId })).status).toBe(200);
    expect(await holderOf(pool!)).toBe(co.member.userId);
  });

  it("refuses a member (403), a new holder outside the org (422), the same holder (409), another org's customer (404)", async () => {
    const co = await company();
    const id = await held(co.member);
    const member = await transfer(co.member, id, { to_user_id: co.colleague.userId });
    expect(member.status).toBe(403);
    expect(member.body.code).toBe("forbidden");
    expect(member.body.detail).toMatch(/manager/);
    const outside = await transfer(co.manager, id, { to_user_id: co.outsider.userId });
    expect(outside.status).toBe(422);
    const same = await transfer(co.manager, id, { to_user_id: co.member.userId });
    expect(same.status).toBe(409);
    const theirs = await held(co.outsider);
    expect((await transfer(co.manager, theirs, { to_user_id: co.member.userId })).status).toBe(404);
    expect(await holderOf(id)).toBe(co.member.userId);
    expect(await holderOf(theirs)).toBe(co.outsider.userId);
    expect((await eventsOf(id)).map((e) => e.action)).toEqual(["create"]);
  });
});

describe("ownership history", () => {
  it("pages the events oldest first, for whoever sees the customer", async () => {
    const co = await company();
    const id = await held(co.member);
    await release(co.member, id, "later");
    await claim(co.colleague, id);
    await transfer(co.manager, id, { to_user_id: co.member.userId });
    const all = await ownership(co.manager, id);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, page: 1, size: 20 });
    expect(all.body.items).toEqual([
      expect.objectContaining({
        action: "create",
        to_user_id: co.member.userId,
        actor_id: co.member.userId,
      }),
      expect.objectContaining({
        action: "release",
        from_user_id: co.member.userId,
        reason: "later",
      }),
      expect.objectContaining({ action: "claim", to_user_id: co.colleague.userId }),
      expect.objectContaining({
        action: "transfer",
        from_user_id: co.colleague.userId,
        to_user_id: co.member.userId,
      }),
    ]);
    const second = await ownership(co.member, id, "?page=2&size=3");
    expect(second.body).toMatchObject({ total: 4, page: 2, size: 3 });
    expect(second.body.items.map((e: { action: string }) => e.action)).toEqual(["transfer"]);
    // The colleague held it once but sees it no more; another org never.
    expect((await ownership(co.colleague, id)).status).toBe(404);
    expect((await ownership(co.outsider, id)).status).toBe(404);
    // A pool customer's history is open to every member.
    const [pool] = await pooled(co.owner);
    expect((await ownership(co.colleague, pool!)).body.items).toEqual([
      expect.objectContaining({ action: "create", to_user_id: co.owner.userId }),
    ]);
  });
});

describe("bulk", () => {
  async function mixed(co: Company) {
    const own = [await held(co.member, "Own 1"), await held(co.member, "Own 2")];
    const colleagues = await held(co.colleague);
    const [pool] = await pooled(co.owner);
    const outsiders = await held(co.outsider);
    return { own, colleagues, pool: pool!, outsiders, missing: crypto.randomUUID() };
  }

  it("release by a member: judged id by id, in the order given, each change with its event", async () => {
    const co = await company();
    const m = await mixed(co);
    const res = await typed(app).post("/api/v1/customers/bulk", {
      token: co.member.accessToken,
      json: {
        action: "release",
        reason: "cleanup",
        ids: [m.own[0]!, m.colleagues, m.pool, m.outsiders, m.missing, m.own[1]!, m.own[0]!],
      },
    });
    expectStatus(res, 200);
    expect(res.body.done).toEqual(m.own);
    expect(res.body.refused).toEqual([
      { id: m.colleagues, detail: "not found" },
      { id: m.pool, detail: "already in the pool" },
      { id: m.outsiders, detail: "not found" },
      { id: m.missing, detail: "not found" },
    ]);
    for (const id of m.own) {
      expect(await holderOf(id)).toBeNull();
      expect((await eventsOf(id)).map((e) => e.action)).toEqual(["create", "release"]);
    }
    expect(await holderOf(m.colleagues)).toBe(co.colleague.userId);
    expect(await holderOf(m.outsiders)).toBe(co.outsider.userId);
  });

  it("transfer by a manager: anything in the org, never another org's; by a member: 403", async () => {
    const co = await company();
    const m = await mixed(co);
    const ids = [...m.own, m.colleagues, m.pool, m.outsiders];
    const refused = await bulk(co.member, {
      action: "transfer",
      to_user_id: co.colleague.userId,
      ids,
    });
    expect(refused.status).toBe(403);
    const outside = await bulk(co.manager, {
      action: "transfer",
      to_user_id: co.outsider.userId,
      ids,
    });
    expect(outside.status).toBe(422);
    const res = await bulk(co.manager, {
      action: "transfer",
      to_user_id: co.colleague.userId,
      ids,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.done).toEqual([...m.own, m.pool]);
    expect(res.body.refused).toEqual([
      { id: m.colleagues, detail: "already held by that member" },
      { id: m.outsiders, detail: "not found" },
    ]);
    expect(await holderOf(m.pool)).toBe(co.colleague.userId);
    expect(await eventsOf(m.pool)).toEqual([
      { action: "create", from_user_id: null, to_user_id: co.owner.userId },
      { action: "transfer", from_user_id: null, to_user_id: co.colleague.userId },
    ]);
    expect(await holderOf(m.outsiders)).toBe(co.outsider.userId);
  });

  it("set_status and delete: a member's own only (a pool customer: claim first); transitions apply", async () => {
    const co = await company();
    const m = await mixed(co);
    const status = await bulk(co.member, {
      action: "set_status",
      status: "won",
      ids: [m.own[0], m.pool, m.colleagues],
    });
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    // new -> won is not an allowed transition.
    expect(status.body.done).toEqual([]);
    expect(status.body.refused).toEqual([
      { id: m.own[0], detail: "a new customer cannot become won" },
      { id: m.pool, detail: expect.stringMatching(/^pool: claim/) },
      { id: m.colleagues, detail: "not found" },
    ]);
    const contacted = await bulk(co.member, {
      action: "set_status",
      status: "contacted",
      ids: m.own,
    });
    expect(contacted.body.done).toEqual(m.own);
    const [row] = await queryRows<{ status: string }>(
      db,
      sql`select status from customers where id = ${m.own[0]!}::uuid`,
    );
    expect(row!.status).toBe("contacted");
    const gone = await bulk(co.member, { action: "delete", ids: [m.own[0], m.pool, m.outsiders] });
    expect(gone.body.done).toEqual([m.own[0]]);
    expect(gone.body.refused.map((r: { id: string }) => r.id)).toEqual([m.pool, m.outsiders]);
    expect(await holderOf(m.own[0]!)).toBeUndefined();
    const byAdmin = await bulk(co.admin, {
      action: "delete",
      ids: [m.pool, m.colleagues, m.outsiders],
    });
    expect(byAdmin.body.done).toEqual([m.pool, m.colleagues]);
    expect(await holderOf(m.outsiders)).toBe(co.outsider.userId);
  });

  it("validates the body: 1..1000 uuids, the action's own field (422)", async () => {
    const co = await company();
    const id = await held(co.member);
    const cases: Record<string, unknown>[] = [
      { action: "release", reason: "x", ids: [] },
      {
        action: "release",
        reason: "x",
        ids: Array.from({ length: 1001 }, () => crypto.randomUUID()),
      },
      { action: "release", reason: "x", ids: ["not-a-uuid"] },
      { action: "release", ids: [id] },
      { action: "transfer", ids: [id] },
      { action: "set_status", ids: [id] },
      { action: "archive", ids: [id] },
    ];
    for (const json of cases) {
      const res = await bulk(co.member, json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(422);
    }
    expect(await holderOf(id)).toBe(co.member.userId);
  });

  it("1000 ids in one request", async () => {
    const co = await company();
    const ids = await pooled(co.owner, 1000);
    const res = await bulk(co.manager, { action: "transfer", to_user_id: co.member.userId, ids });
    expect(res.status).toBe(200);
    expect(res.body.done).toHaveLength(1000);
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from customer_ownership_events
          where action = 'transfer' and to_user_id = ${co.member.userId}::uuid`,
    );
    expect(count!.n).toBe(1000);
  });
});

describe("create events", () => {
  it("every insert path writes the create event (trigger): the API's create, a plain SQL insert", async () => {
    const co = await company();
    const id = await held(co.member);
    const [pool] = await pooled(co.owner);
    expect(await eventsOf(id)).toEqual([
      { action: "create", from_user_id: null, to_user_id: co.member.userId },
    ]);
    expect(await eventsOf(pool!)).toEqual([
      { action: "create", from_user_id: null, to_user_id: co.owner.userId },
    ]);
  });
});
