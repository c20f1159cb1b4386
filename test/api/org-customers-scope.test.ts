import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { notifyCustomerReminders } from "../../src/modules/customers/reminders";
import { call, randomIp, type Session, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";
import { type Company, createCompany, orgIdOf } from "../support/orgs";

// Scopes in the customers area (issue #22 item 3, docs/teams.md, src/db/scope.ts): a member sees
// what they hold and the pool, and changes only what they hold; a manager, an admin and the
// owner see and change the whole organisation; another organisation sees nothing. A customer the
// caller does not see is a 404 exactly like an id that does not exist (a colleague's id and
// another organisation's id answer the same); a pool customer a member sees but may not change
// is a 409 naming the rule (claim it first).

const ctx = await createTestContext();
const { app, deps } = ctx;
const BASE = "/api/v1/customers";

const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

async function create(user: Session, company: string, email: string) {
  const res = await as(user)(BASE, { json: { company, email } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; org_id: string; user_id: string | null; owner_name: string };
}

/** Every id a list answer names (items or most_at_risk), as text. */
const idsIn = (body: unknown) => JSON.stringify(body);

let co: Company;
/** One customer each, all silent (last contact 30 days ago): the member's, the colleague's, the pool's, the outsider's. */
let mine: string;
let colleagues: string;
let pooled: string;
let outsiders: string;

beforeAll(async () => {
  co = await createCompany(ctx);
  mine = (await create(co.member, "Member Buyer", "buyer@member.example")).id;
  colleagues = (await create(co.colleague, "Colleague Buyer", "buyer@colleague.example")).id;
  pooled = (await create(co.owner, "Pool Buyer", "buyer@pool.example")).id;
  outsiders = (await create(co.outsider, "Outsider Buyer", "buyer@outsider.example")).id;
  // The pool helper's release route is not needed for reading: a customer without a holder.
  await deps.db.execute(sql`update customers set user_id = null where id = ${pooled}::uuid`);
  await deps.db.execute(
    sql`update customers set last_contact_at = now() - interval '30 days',
          created_at = now() - interval '40 days'
        where id in (${mine}::uuid, ${colleagues}::uuid, ${pooled}::uuid, ${outsiders}::uuid)`,
  );
});

const READ_LISTS = [
  BASE,
  `${BASE}?q=buyer`,
  `${BASE}?q=buy`,
  `${BASE}?status=new`,
  `${BASE}/silent`,
  `${BASE}/health-scores`,
  `${BASE}/health-overview`,
];

async function exportedText(user: Session): Promise<string> {
  const res = await app.request(`${BASE}/export?format=csv`, {
    headers: { Authorization: `Bearer ${user.accessToken}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

describe("customer rows", () => {
  it("name the organisation, the holder and the holder's name (null in the pool)", async () => {
    const res = await typed(app).get("/api/v1/customers/{id}", {
      token: co.member.accessToken,
      params: { id: mine },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      org_id: await orgIdOf(ctx.database, co.owner),
      user_id: co.member.userId,
      owner_name: "Member",
    });
    const pool = await as(co.member)(`${BASE}/${pooled}`);
    expect(pool.status).toBe(200);
    expect(pool.body).toMatchObject({ user_id: null, owner_name: null });
    const list = await as(co.manager)(BASE);
    const names = Object.fromEntries(
      (list.body.items as { id: string; owner_name: string | null }[]).map((c) => [
        c.id,
        c.owner_name,
      ]),
    );
    expect(names).toEqual({
      [mine]: "Member",
      [colleagues]: "Colleague",
      [pooled]: null,
    });
    const scores = await as(co.manager)(`${BASE}/health-scores`);
    expect(scores.body.items).toContainEqual(
      expect.objectContaining({ customer_id: colleagues, user_id: co.colleague.userId }),
    );
  });

  it("a new customer is held by its creator in the creator's organisation", async () => {
    const made = await create(co.manager, "Manager Made", "made@manager.example");
    expect(made).toMatchObject({
      user_id: co.manager.userId,
      org_id: await orgIdOf(ctx.database, co.manager),
      owner_name: "Manager",
    });
    expect((await as(co.manager)(`${BASE}/${made.id}`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("a member", () => {
  it("sees what they hold and the pool in every list, search, export and health view", async () => {
    for (const path of READ_LISTS) {
      const res = await as(co.member)(path);
      expect(res.status, path).toBe(200);
      const text = idsIn(res.body);
      if (!path.includes("health-overview")) {
        expect(text, path).toContain(mine);
        expect(text, path).toContain(pooled);
      }
      expect(text, path).not.toContain(colleagues);
      expect(text, path).not.toContain(outsiders);
    }
    expect((await as(co.member)(`${BASE}/health-overview`)).body.total).toBe(2);
    expect((await as(co.member)(BASE)).body.total).toBe(2);
    const exported = await exportedText(co.member);
    expect(exported).toContain("Member Buyer");
    expect(exported).toContain("Pool Buyer");
    expect(exported).not.toContain("Colleague Buyer");
    expect(exported).not.toContain("Outsider Buyer");
  });

  it("gets a colleague's customer and another organisation's as 404, like an unknown id", async () => {
    for (const id of [colleagues, outsiders, crypto.randomUUID()]) {
      const path = `${BASE}/${id}`;
      for (const [sub, method, json] of [
        ["", "GET", undefined],
        ["", "PATCH", { notes: "mine now" }],
        ["", "DELETE", undefined],
        ["/followups", "GET", undefined],
        ["/followups", "POST", { channel: "phone" }],
        ["/health", "GET", undefined],
      ] as const) {
        const res = await as(co.member)(`${path}${sub}`, { method, json });
        expect(res.status, `${method} ${sub} ${id}`).toBe(404);
        expect(res.body.detail).toBe("Customer not found");
      }
    }
    // Untouched.
    const still = await as(co.colleague)(`${BASE}/${colleagues}`);
    expect(still.body).toMatchObject({ notes: null, status: "new" });
  });

  it("reads a pool customer but changes it only after claiming it (409 naming the rule)", async () => {
    const path = `${BASE}/${pooled}`;
    expect((await as(co.member)(path)).status).toBe(200);
    expect((await as(co.member)(`${path}/followups`)).status).toBe(200);
    expect((await as(co.member)(`${path}/health`)).status).toBe(200);
    for (const [sub, method, json] of [
      ["", "PATCH", { notes: "mine now" }],
      ["", "PATCH", { status: "lost" }],
      ["", "DELETE", undefined],
      ["/followups", "POST", { channel: "phone" }],
    ] as const) {
      const res = await as(co.member)(`${path}${sub}`, { method, json });
      expect(res.status, `${method} ${sub}`).toBe(409);
      expect(res.body.detail).toMatch(/^pool: claim/);
    }
    const still = await as(co.owner)(path);
    expect(still.body).toMatchObject({ notes: null, status: "new", user_id: null });
    expect((await as(co.owner)(`${path}/followups`)).body.total).toBe(0);
  });

  it("changes and follows up what they hold", async () => {
    const path = `${BASE}/${mine}`;
    const patched = await as(co.member)(path, { method: "PATCH", json: { notes: "Met at fair" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ notes: "Met at fair", user_id: co.member.userId });
  });
});

describe("the manager, an admin and the owner", () => {
  it("see every customer of the organisation and change any, the pool's included", async () => {
    for (const boss of [co.manager, co.admin, co.owner]) {
      for (const path of READ_LISTS) {
        const res = await as(boss)(path);
        expect(res.status, path).toBe(200);
        const text = idsIn(res.body);
        if (!path.includes("health-overview")) {
          for (const id of [mine, colleagues, pooled]) expect(text, path).toContain(id);
        }
        expect(text, path).not.toContain(outsiders);
      }
      expect((await as(boss)(BASE)).body.total).toBe(3);
      expect((await as(boss)(`${BASE}/health-overview`)).body.total).toBe(3);
      const exported = await exportedText(boss);
      for (const name of ["Member Buyer", "Colleague Buyer", "Pool Buyer"]) {
        expect(exported).toContain(name);
      }
      expect(exported).not.toContain("Outsider Buyer");
      for (const id of [colleagues, pooled]) {
        const path = `${BASE}/${id}`;
        expect((await as(boss)(path)).status).toBe(200);
        expect((await as(boss)(`${path}/health`)).status).toBe(200);
        const patched = await as(boss)(path, { method: "PATCH", json: { source: boss.email } });
        expect(patched.status).toBe(200);
        expect(patched.body.source).toBe(boss.email);
      }
    }
    // A follow-up on a colleague's customer and one on the pool's; deletes of both kinds.
    const logged = await as(co.manager)(`${BASE}/${colleagues}/followups`, {
      json: { channel: "email", note: "From the manager" },
    });
    expect(logged.status).toBe(201);
    expect(logged.body.customer.user_id).toBe(co.colleague.userId);
    const pooledLog = await as(co.admin)(`${BASE}/${pooled}/followups`, {
      json: { channel: "phone" },
    });
    expect(pooledLog.status).toBe(201);
    const spare = await create(co.colleague, "Spare", "spare@colleague.example");
    const sparePool = await create(co.owner, "Spare Pool", "spare@pool.example");
    await deps.db.execute(
      sql`update customers set user_id = null where id = ${sparePool.id}::uuid`,
    );
    expect((await as(co.manager)(`${BASE}/${spare.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await as(co.admin)(`${BASE}/${sparePool.id}`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("follow-ups", () => {
  it("are the customer's: whoever sees it sees all of its log, whoever logged it", async () => {
    const own = await create(co.member, "Shared Log Co", "log@member.example");
    const path = `${BASE}/${own.id}/followups`;
    expect((await as(co.member)(path, { json: { channel: "email" } })).status).toBe(201);
    expect((await as(co.manager)(path, { json: { channel: "phone" } })).status).toBe(201);
    for (const viewer of [co.member, co.manager, co.owner]) {
      const res = await as(viewer)(path);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(new Set(res.body.items.map((f: { user_id: string }) => f.user_id))).toEqual(
        new Set([co.member.userId, co.manager.userId]),
      );
    }
    expect((await as(co.colleague)(path)).status).toBe(404);
    expect((await as(co.outsider)(path)).status).toBe(404);
    const [org] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from followup_logs
          where customer_id = ${own.id}::uuid and org_id = ${own.org_id}::uuid`,
    );
    expect(org!.n).toBe(2);
  });
});

describe("another organisation", () => {
  it("sees nothing of the company: every route by id is 404, every list leaves it out", async () => {
    for (const id of [mine, colleagues, pooled]) {
      const path = `${BASE}/${id}`;
      for (const [sub, method, json] of [
        ["", "GET", undefined],
        ["", "PATCH", { notes: "x" }],
        ["", "DELETE", undefined],
        ["/followups", "GET", undefined],
        ["/followups", "POST", { channel: "phone" }],
        ["/health", "GET", undefined],
      ] as const) {
        const res = await as(co.outsider)(`${path}${sub}`, { method, json });
        expect(res.status, `${method} ${sub}`).toBe(404);
      }
    }
    for (const path of READ_LISTS) {
      const text = idsIn((await as(co.outsider)(path)).body);
      for (const id of [mine, colleagues, pooled]) expect(text, path).not.toContain(id);
      if (!path.includes("health-overview")) expect(text, path).toContain(outsiders);
    }
    const exported = await exportedText(co.outsider);
    expect(exported).toContain("Outsider Buyer");
    expect(exported).not.toContain("Member Buyer");
    expect(exported).not.toContain("Pool Buyer");
  });
});

describe("the owner filter", () => {
  const owners = async (user: Session, owner: string) => {
    const res = await as(user)(`${BASE}?owner=${owner}&size=100`);
    return res;
  };
  const heldBy = (body: { items: { user_id: string | null }[] }) =>
    new Set(body.items.map((c) => c.user_id));

  it("me, pool and a member's id for managers; a member naming a colleague is 403", async () => {
    const me = await owners(co.member, "me");
    expect(me.status).toBe(200);
    expect(heldBy(me.body)).toEqual(new Set([co.member.userId]));
    expect(me.body.total).toBe(me.body.items.length);
    expect(me.body.items.map((c: { id: string }) => c.id)).toContain(mine);

    const self = await owners(co.member, co.member.userId);
    expect(self.status).toBe(200);
    expect(self.body.total).toBe(me.body.total);

    const pool = await owners(co.member, "pool");
    expect(pool.status).toBe(200);
    expect(heldBy(pool.body)).toEqual(new Set([null]));
    expect(pool.body.items.map((c: { id: string }) => c.id)).toContain(pooled);

    const refused = await owners(co.member, co.colleague.userId);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
    expect(refused.body.detail).toMatch(/manager/);
    // Also with a search: the filter is refused, not answered empty.
    expect((await as(co.member)(`${BASE}?owner=${co.manager.userId}&q=buyer`)).status).toBe(403);

    for (const boss of [co.manager, co.admin, co.owner]) {
      const colleague = await owners(boss, co.colleague.userId);
      expect(colleague.status).toBe(200);
      expect(heldBy(colleague.body)).toEqual(new Set([co.colleague.userId]));
      expect(colleague.body.items.map((c: { id: string }) => c.id)).toContain(colleagues);
      const bossPool = await owners(boss, "pool");
      expect(heldBy(bossPool.body)).toEqual(new Set([null]));
      const searched = await as(boss)(`${BASE}?owner=${co.member.userId}&q=member`);
      expect(searched.status).toBe(200);
      expect(searched.body.items.map((c: { id: string }) => c.id)).toContain(mine);
      expect(heldBy(searched.body)).toEqual(new Set([co.member.userId]));
    }
    const held = await create(co.manager, "Manager Held", "held@manager.example");
    const bossMe = await owners(co.manager, "me");
    expect(heldBy(bossMe.body)).toEqual(new Set([co.manager.userId]));
    expect(bossMe.body.items.map((c: { id: string }) => c.id)).toEqual([held.id]);

    // Another organisation's member: nothing (the outsider is the owner of their own).
    const foreign = await owners(co.outsider, co.member.userId);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ items: [], total: 0 });
    // Not me, pool or an id.
    expect((await owners(co.member, "everyone")).status).toBe(422);
  });
});

describe("imports", () => {
  const upload = (user: Session, csv: string, dryRun = false) => {
    const form = new FormData();
    form.append("file", new File([csv], "customers.csv", { type: "text/csv" }));
    const path = `${BASE}/import${dryRun ? "?dry_run=true" : ""}`;
    return call(app, path, { method: "POST", token: user.accessToken, body: form });
  };

  it("judge duplicates against what the importer sees; new rows are the importer's", async () => {
    const csv =
      "company,email,notes\r\n" +
      "Member Buyer,buyer@member.example,imported\r\n" + // theirs: updated
      "Pool Buyer,buyer@pool.example,imported\r\n" + // the pool's: skipped (claim first)
      "Colleague Buyer,buyer@colleague.example,imported\r\n" + // invisible: a new customer
      "Brand New,new@member.example,imported\r\n";
    const dry = await upload(co.member, csv, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ would_create: 2, would_update: 1, skipped: 1, created: 0 });
    const res = await upload(co.member, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 1, skipped: 1 });
    expect(res.body.preview).toContainEqual(
      expect.objectContaining({ row: 3, action: "skip", email: "buyer@pool.example" }),
    );
    const rows = await queryRows<{ id: string; user_id: string | null; notes: string | null }>(
      deps.db,
      sql`select id, user_id, notes from customers where email in
          ('buyer@member.example', 'buyer@pool.example', 'buyer@colleague.example',
           'new@member.example') order by created_at, id`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(mine)?.notes).toBe("imported");
    expect(byId.get(pooled)).toMatchObject({ user_id: null });
    expect(byId.get(pooled)?.notes).not.toBe("imported");
    expect(byId.get(colleagues)?.notes).not.toBe("imported");
    const created = rows.filter((r) => ![mine, pooled, colleagues].includes(r.id));
    expect(created).toHaveLength(2);
    for (const r of created) expect(r.user_id).toBe(co.member.userId);
    const orgs = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(distinct org_id)::int as n from customers
          where id in (${sql.join(
            created.map((r) => sql`${r.id}::uuid`),
            sql`, `,
          )})`,
    );
    expect(orgs[0]!.n).toBe(1);
  });

  it("a manager's import updates any customer of the organisation; an outsider's none", async () => {
    const csv = "company,email,phone\r\nColleague Buyer,buyer@colleague.example,+1 555 0100\r\n";
    const res = await upload(co.manager, csv);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dry_run: false, updated: 1, created: 0, skipped: 0 });
    expect((await as(co.colleague)(`${BASE}/${colleagues}`)).body.phone).toBe("+1 555 0100");

    const foreign = await upload(
      co.outsider,
      "company,email,phone\r\nX,buyer@member.example,1\r\n",
    );
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ created: 1, updated: 0 });
    expect((await as(co.member)(`${BASE}/${mine}`)).body.phone).toBeNull();
  });
});

describe("reminders", () => {
  it("go to the holder; a pool customer reminds nobody", async () => {
    // Silent and due again (earlier tests logged contacts on some of them).
    await deps.db.execute(
      sql`update customers set last_contact_at = now() - interval '30 days',
            next_followup_at = now() - interval '2 days'
          where id in (${mine}::uuid, ${colleagues}::uuid, ${pooled}::uuid)`,
    );
    const run = await notifyCustomerReminders(deps);
    expect(run.silent).toBeGreaterThanOrEqual(3);
    const rows = await queryRows<{
      user_id: string;
      data: { most_urgent: { customer_id: string }[] };
    }>(deps.db, sql`select user_id, data from notifications where kind = 'reminder_digest'`);
    expect(JSON.stringify(rows)).not.toContain(pooled);
    const named = (userId: string) =>
      rows
        .filter((r) => r.user_id === userId)
        .flatMap((r) => r.data.most_urgent.map((d) => d.customer_id));
    expect(named(co.member.userId)).toContain(mine);
    expect(named(co.member.userId)).not.toContain(colleagues);
    expect(named(co.colleague.userId)).toContain(colleagues);
    expect(named(co.colleague.userId)).not.toContain(mine);
    // The owner, who created the pool customer, is not reminded of it either.
    expect(named(co.owner.userId)).not.toContain(pooled);
  });
});

describe("a guest's rows moved at login", () => {
  it("land in the account's organisation, follow-ups included", async () => {
    const g = await typed(app).post("/api/v1/auth/guest", { ip: randomIp() });
    expect(g.status).toBe(201);
    const guestToken = (g.body as { access_token: string }).access_token;
    const made = await call(app, BASE, { token: guestToken, json: { company: "Guest Buyer" } });
    expect(made.status).toBe(201);
    const logged = await call(app, `${BASE}/${made.body.id}/followups`, {
      token: guestToken,
      json: { channel: "email" },
    });
    expect(logged.status).toBe(201);
    const login = await call(app, "/api/v1/auth/login", {
      json: { email: co.member.email, password: co.member.password },
      token: guestToken,
      ip: randomIp(),
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const org = await orgIdOf(ctx.database, co.member);
    const [moved] = await queryRows<{ customer_org: string; log_org: string; user_id: string }>(
      deps.db,
      sql`select c.org_id as customer_org, f.org_id as log_org, c.user_id
          from customers c join followup_logs f on f.customer_id = c.id
          where c.id = ${made.body.id}::uuid`,
    );
    expect(moved).toEqual({ customer_org: org, log_org: org, user_id: co.member.userId });
    // The company sees it as the member's.
    const seen = await as(co.manager)(`${BASE}/${made.body.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.owner_name).toBe("Member");
  });
});
