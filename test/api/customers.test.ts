import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;
const BASE = "/api/v1/customers" as const;
const DAY = 86_400_000;
type ListQuery = NonNullable<ApiOptions<Operation<typeof BASE, "get">>["query"]>;

const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

async function create(user: Session, json: Record<string, unknown>) {
  const res = await as(user)(BASE, { json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("customer CRUD", () => {
  // Typed by the OpenAPI document (test/support/client.ts `api()`): a renamed or retyped field of
  // Customer fails `npm run typecheck` here (docs/adr/0095-faster-typed-test-loop.md).
  it("creates, reads, updates and deletes a customer of the caller", async () => {
    const user = await registerUser(app);
    const token = user.accessToken;
    const next = new Date(Date.now() + 5 * DAY).toISOString();
    const made = await typed(app).post(BASE, {
      token,
      json: {
        company: "  Acme Imports GmbH ",
        contact_name: "Anna Berg",
        email: "Anna.Berg@Acme.example",
        phone: "+49 30 1234567",
        whatsapp: "+49 151 1234567",
        country: "DE",
        source: "Canton Fair",
        tags: ["vip", "textiles", "vip"],
        notes: "Wants 40HQ quotes",
        estimated_value: 1_250_000,
        estimated_currency: "EUR",
        next_followup_at: next,
      },
    });
    expectStatus(made, 201);
    const created = made.body;
    expect(created).toMatchObject({
      user_id: user.userId,
      company: "Acme Imports GmbH",
      email: "anna.berg@acme.example",
      tags: ["vip", "textiles"],
      status: "new",
      notes: "Wants 40HQ quotes",
      estimated_value: 1_250_000,
      estimated_currency: "EUR",
      last_contact_at: null,
      next_followup_at: next,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    const params = { id: created.id };

    const got = await typed(app).get(`${BASE}/{id}`, { token, params });
    expectStatus(got, 200);
    expect(got.body).toEqual(created);

    const patched = await typed(app).patch(`${BASE}/{id}`, {
      token,
      params,
      json: { notes: "Sent catalogue", estimated_value: 0, phone: null, status: "contacted" },
    });
    expectStatus(patched, 200);
    expect(patched.body.notes).toBe("Sent catalogue");
    expect(patched.body.estimated_value).toBe(0);
    expect(patched.body.phone).toBeNull();
    expect(patched.body.status).toBe("contacted");
    expect(patched.body.company).toBe("Acme Imports GmbH");

    const del = await typed(app).delete(`${BASE}/{id}`, { token, params });
    expectStatus(del, 204);
    expect(del.body).toBeUndefined();
    expect((await typed(app).get(`${BASE}/{id}`, { token, params })).status).toBe(404);
    expect((await typed(app).delete(`${BASE}/{id}`, { token, params })).status).toBe(404);
  });

  it("rejects invalid bodies with 422", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "company"],
      [{ notes: "no identity" }, "company"],
      [{ company: "   " }, "company"],
      [{ company: "X", email: "not-an-email" }, "email"],
      [{ company: "X", estimated_value: -1 }, "estimated_value"],
      [{ company: "X", estimated_value: 1.5 }, "estimated_value"],
      [{ company: "X", estimated_currency: "usd" }, "estimated_currency"],
      [{ company: "X", status: "archived" }, "status"],
      [{ company: "X", next_followup_at: "tomorrow" }, "next_followup_at"],
      [{ company: "X", unknown_field: 1 }, ""],
    ];
    for (const [json, field] of cases) {
      const res = await api(BASE, { json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      if (field) {
        expect(
          res.body.errors.some((e: { loc: string[] }) => e.loc.includes(field)),
          JSON.stringify(res.body),
        ).toBe(true);
      }
    }
    const customer = await create(user, { email: "only@email.example" });
    const patch = await api(`${BASE}/${customer.id}`, { method: "PATCH", json: {} });
    expect(patch.status).toBe(422);
    const badValue = await api(`${BASE}/${customer.id}`, {
      method: "PATCH",
      json: { estimated_value: -5 },
    });
    expect(badValue.status).toBe(422);
    expect(
      (await api(BASE, { body: "{not json", headers: { "Content-Type": "application/json" } }))
        .status,
    ).toBe(422);
  });

  it("keeps a company, contact or email: a PATCH that blanks all three is 422 and changes nothing", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const customer = await create(user, { company: "Lagos Foods", email: "buyer@lagos.example" });
    const blanked = await api(`${BASE}/${customer.id}`, {
      method: "PATCH",
      json: { company: null, email: null, notes: "changed" },
    });
    expect(blanked.status).toBe(422);
    const after = await api(`${BASE}/${customer.id}`);
    expect(after.body).toMatchObject({
      company: "Lagos Foods",
      email: "buyer@lagos.example",
      notes: null,
    });
    const partly = await api(`${BASE}/${customer.id}`, {
      method: "PATCH",
      json: { company: null },
    });
    expect(partly.status).toBe(200);
    expect(partly.body).toMatchObject({ company: null, email: "buyer@lagos.example" });
  });

  it("needs a token", async () => {
    expect((await call(app, BASE)).status).toBe(401);
    expect((await call(app, BASE, { json: { company: "X" } })).status).toBe(401);
  });
});

describe("status transitions", () => {
  it("allows the documented moves and rejects the others with 409", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const c = await create(user, { company: "Transit Ltd" });
    const move = (status: string) => api(`${BASE}/${c.id}`, { method: "PATCH", json: { status } });

    for (const status of ["contacted", "negotiating", "quoted", "won"]) {
      const res = await move(status);
      expect(res.status, status).toBe(200);
      expect(res.body.status).toBe(status);
    }
    // Same status is a no-op.
    expect((await move("won")).status).toBe(200);
    // won -> lost and won -> new are not allowed; nothing changes.
    const bad = await move("lost");
    expect(bad.status).toBe(409);
    expect(bad.body).toMatchObject({ status: "won", allowed_statuses: ["negotiating", "dormant"] });
    expect((await move("new")).status).toBe(409);
    // A rejected status leaves the other fields of the same patch unapplied too.
    const mixed = await api(`${BASE}/${c.id}`, {
      method: "PATCH",
      json: { status: "new", notes: "should not stick" },
    });
    expect(mixed.status).toBe(409);
    expect((await api(`${BASE}/${c.id}`)).body).toMatchObject({ status: "won", notes: null });

    expect((await move("dormant")).status).toBe(200);
    expect((await move("contacted")).status).toBe(200);
    expect((await move("lost")).status).toBe(200);
    expect((await move("quoted")).status).toBe(409);
    expect((await move("contacted")).status).toBe(200); // reopen

    const fresh = await create(user, { company: "Straight to lost", status: "new" });
    expect(
      (await api(`${BASE}/${fresh.id}`, { method: "PATCH", json: { status: "won" } })).status,
    ).toBe(409);
  });
});

describe("customer list", () => {
  it("pages, filters, searches and sorts the caller's customers", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    await create(other, { company: "Alpha Other Co", email: "alpha@other.example" });
    const a = await create(user, {
      company: "Alpha Trading",
      country: "US",
      tags: ["vip"],
      estimated_value: 500,
    });
    const b = await create(user, {
      contact_name: "Bob Alphonse",
      country: "us",
      estimated_value: 9000,
      next_followup_at: new Date(Date.now() - DAY).toISOString(),
    });
    const c = await create(user, {
      email: "buyer@ALPHA-mail.example",
      country: "FR",
      tags: ["vip", "eu"],
      next_followup_at: new Date(Date.now() + DAY).toISOString(),
    });
    const d = await create(user, { company: "Zeta 100%_Corp", status: "quoted" });

    // Typed: the query parameters and the page are the document's (test/support/client.ts).
    const list = async (query: ListQuery = {}) => {
      const answer = await typed(app).get(BASE, { token: user.accessToken, query });
      expectStatus(answer, 200);
      return answer.body;
    };
    const ids = async (query: ListQuery) => (await list(query)).items.map((x) => x.id);

    const all = await list();
    expect(all).toMatchObject({ total: 4, page: 1, size: 20 });
    expect(all.items.map((x) => x.id)).toEqual([d.id, c.id, b.id, a.id]);

    expect((await ids({ q: "ALPH" })).sort()).toEqual([a.id, b.id, c.id].sort());
    // LIKE wildcards in q are literal.
    expect(await ids({ q: "100%_" })).toEqual([d.id]);
    expect((await list({ q: "%" })).total).toBe(1);

    expect((await list({ status: "quoted" })).items).toHaveLength(1);
    expect((await list({ country: "US" })).total).toBe(2);
    expect((await ids({ tag: "vip" })).sort()).toEqual([a.id, c.id].sort());
    expect(await ids({ due: true })).toEqual([b.id]);

    expect(await ids({ sort: "-estimated_value" })).toEqual([b.id, a.id, d.id, c.id]);
    expect((await ids({ sort: "company" })).slice(0, 2)).toEqual([a.id, d.id]);
    expect((await ids({ sort: "created_at" }))[0]).toBe(a.id);

    const page2 = await list({ page: 2, size: 3 });
    expect(page2).toMatchObject({ total: 4, page: 2, size: 3 });
    expect(page2.items.map((x) => x.id)).toEqual([a.id]);
    expect(await list({ page: 5, size: 3 })).toMatchObject({ items: [], total: 4, page: 5 });
    expect(await list({ q: "nothing-matches" })).toMatchObject({ items: [], total: 0 });
  });

  it("searches company, contact and e-mail by any fragment, short and CJK terms included", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const ids = async (q: string) =>
      (await api(`${BASE}?q=${encodeURIComponent(q)}`)).body.items
        .map((x: { id: string }) => x.id)
        .sort();
    const cn = await create(user, { company: "上海进出口贸易有限公司", contact_name: "王伟" });
    const en = await create(user, { company: "Orbit Textiles", email: "Sales@Orbit.example" });
    const xy = await create(user, { contact_name: "Xy Lo", status: "won" });

    expect(await ids("进出口")).toEqual([cn.id]); // CJK: the strpos path
    expect(await ids("王")).toEqual([cn.id]);
    expect(await ids("xy")).toEqual([xy.id]); // two letters: no trigram to look up
    expect(await ids("TEXT")).toEqual([en.id]); // the trigram path, any case
    expect(await ids("sales@orbit")).toEqual([en.id]); // e-mail, stored lower-cased
    expect(await ids("o")).toEqual([en.id, xy.id].sort());
    // Search and a filter together, with the total of both.
    const both = await api(`${BASE}?q=xy&status=won`);
    expect(both.body).toMatchObject({ total: 1 });
    expect((await api(`${BASE}?q=xy&status=new`)).body).toMatchObject({ items: [], total: 0 });
    // A change of the company moves the search with it (search_text is generated).
    expect(
      (await api(`${BASE}/${en.id}`, { method: "PATCH", json: { company: "Nova" } })).status,
    ).toBe(200);
    expect(await ids("orbit t")).toEqual([]);
    expect(await ids("nova")).toEqual([en.id]);
  });

  it("accepts size up to 1000 and rejects 1001 and bad parameters with 422", async () => {
    const user = await registerUser(app);
    const api = as(user);
    expect((await api(`${BASE}?size=1000`)).status).toBe(200);
    expect((await api(`${BASE}?size=1000`)).body.size).toBe(1000);
    for (const query of [
      "size=1001",
      "size=0",
      "page=0",
      "sort=password",
      "status=archived",
      "due=yes",
    ]) {
      const res = await api(`${BASE}?${query}`);
      expect(res.status, query).toBe(422);
    }
    expect((await api(`${BASE}/silent?size=1001`)).status).toBe(422);
    expect((await api(`${BASE}/health-scores?size=1001`)).status).toBe(422);
    expect((await api(`${BASE}/health-scores?size=1000`)).status).toBe(200);
  });

  it("can serve the list queries from user_id-leading indexes", async () => {
    const plans = await deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explain = async (query: ReturnType<typeof sql>) =>
        (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
      const user = crypto.randomUUID();
      const out: string[] = [];
      for (const query of [
        sql`select *, count(*) over () from customers c where c.user_id = ${user}
            order by c.created_at desc, c.id desc limit 20`,
        sql`select *, count(*) over () from customers c where c.user_id = ${user}
            and c.status = 'quoted' order by c.created_at desc, c.id desc limit 20`,
        sql`select *, count(*) over () from customers c where c.user_id = ${user}
            and c.next_followup_at <= now() order by c.created_at desc limit 20`,
      ]) {
        out.push((await explain(query)).rows.map((r) => Object.values(r)[0]).join("\n"));
      }
      return out;
    });
    for (const plan of plans) expect(plan).toMatch(/customers_user_\w+_idx/);
  });
});

describe("list pages", () => {
  // A page is found on ids alone and its rows read after (src/db/page.ts, pageKey): the pages of
  // every order, filtered or not, must be the one list cut into pieces, ties and nulls included.
  it("cut every order and filter into the same list as one page holds", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const body = await create(user, {
        company: i % 3 === 0 ? `Paging Co ${i % 4}` : `Other ${i}`,
        contact_name: `Buyer ${i}`,
        status: i % 2 === 0 ? "quoted" : "new",
        ...(i % 4 === 0 ? {} : { estimated_value: (i % 3) * 1000, estimated_currency: "USD" }),
        ...(i % 5 === 0
          ? {}
          : { next_followup_at: new Date(Date.now() + (i % 2) * DAY).toISOString() }),
      });
      ids.push(body.id);
    }
    // Ties on created_at and updated_at, which only the id then orders.
    await queryRows(
      deps.db,
      sql`update customers set created_at = '2026-01-01T00:00:00Z', updated_at = '2026-01-02T00:00:00Z'
          where user_id = ${user.userId} and company like 'Paging%'`,
    );
    const idsOf = (body: { items: { id: string }[] }) => body.items.map((x) => x.id);
    const sorts = ["created_at", "updated_at", "next_followup_at", "estimated_value", "company"];
    for (const sort of sorts.flatMap((s) => [s, `-${s}`])) {
      for (const filter of ["", "&status=quoted", "&q=paging", "&q=buyer&status=new"]) {
        const whole = (await api(`${BASE}?size=1000&sort=${sort}${filter}`)).body;
        const pieces: string[] = [];
        for (let page = 1; page <= Math.ceil(whole.total / 3); page++) {
          const body = (await api(`${BASE}?size=3&page=${page}&sort=${sort}${filter}`)).body;
          expect(body.total, `${sort}${filter}`).toBe(whole.total);
          pieces.push(...idsOf(body));
        }
        expect(pieces, `${sort}${filter}`).toEqual(idsOf(whole));
      }
    }
    const newest = (await api(`${BASE}?size=1000`)).body;
    expect(new Set(idsOf(newest))).toEqual(new Set(ids));
    expect((await api(`${BASE}?size=1000&q=paging`)).body.total).toBe(4);
    expect((await api(`${BASE}?size=3&page=9&q=paging`)).body).toMatchObject({
      items: [],
      total: 4,
      page: 9,
    });
  });
});

describe("literal routes and ids", () => {
  it("never parses health-overview, health-scores or silent as an id; a non-UUID id is 422", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const overview = await api(`${BASE}/health-overview`);
    expect(overview.status).toBe(200);
    expect(overview.body).toHaveProperty("counts");
    const scores = await api(`${BASE}/health-scores`);
    expect(scores.status).toBe(200);
    expect(scores.body).toHaveProperty("items");
    const silent = await api(`${BASE}/silent`);
    expect(silent.status).toBe(200);
    expect(silent.body).toHaveProperty("silence_days");
    for (const path of [
      `${BASE}/not-a-uuid`,
      `${BASE}/123`,
      `${BASE}/not-a-uuid/health`,
      `${BASE}/not-a-uuid/followups`,
    ]) {
      const res = await api(path);
      expect(res.status, path).toBe(422);
      expect(res.body.errors[0].loc).toEqual(["path", "id"]);
    }
    expect((await api(`${BASE}/nope`, { method: "PATCH", json: { notes: "x" } })).status).toBe(422);
    expect((await api(`${BASE}/nope`, { method: "DELETE" })).status).toBe(422);
    const missing = crypto.randomUUID();
    expect((await api(`${BASE}/${missing}`)).status).toBe(404);
    expect((await api(`${BASE}/${missing}/health`)).status).toBe(404);
    expect((await api(`${BASE}/${missing}/followups`)).status).toBe(404);
  });

  it("describes every customer route in the OpenAPI document", async () => {
    const doc = (await call(app, "/api/v1/openapi.json")).body;
    const paths = Object.keys(doc.paths);
    for (const path of [
      BASE,
      `${BASE}/health-overview`,
      `${BASE}/health-scores`,
      `${BASE}/silent`,
      `${BASE}/{id}`,
      `${BASE}/{id}/health`,
      `${BASE}/{id}/followups`,
    ]) {
      expect(paths, path).toContain(path);
    }
  });
});

describe("tenant isolation", () => {
  it("hides another user's customer behind 404 everywhere", async () => {
    const owner = await registerUser(app);
    const intruder = await registerUser(app);
    const mine = await create(owner, { company: "Private Buyer Inc", email: "p@buyer.example" });
    await as(owner)(`${BASE}/${mine.id}/followups`, { json: { channel: "email" } });
    const api = as(intruder);
    const path = `${BASE}/${mine.id}`;
    expect((await api(path)).status).toBe(404);
    expect((await api(path, { method: "PATCH", json: { notes: "hijack" } })).status).toBe(404);
    expect((await api(path, { method: "PATCH", json: { status: "lost" } })).status).toBe(404);
    expect((await api(path, { method: "DELETE" })).status).toBe(404);
    expect((await api(`${path}/followups`)).status).toBe(404);
    expect((await api(`${path}/followups`, { json: { channel: "phone" } })).status).toBe(404);
    expect((await api(`${path}/health`)).status).toBe(404);

    for (const list of [BASE, `${BASE}?q=private`, `${BASE}/silent`, `${BASE}/health-scores`]) {
      const res = await api(list);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body), list).not.toContain(mine.id);
    }
    expect((await api(`${BASE}/health-overview`)).body.total).toBe(0);

    // The owner's customer is untouched.
    const still = await as(owner)(path);
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ notes: null, status: "contacted" });
    expect((await as(owner)(`${path}/followups`)).body.total).toBe(1);
  });
});

describe("follow-ups", () => {
  it("logs contacts, moves the dates and schedules by cadence", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const c = await create(user, { company: "Cadence Co" });
    const path = `${BASE}/${c.id}/followups`;

    const before = Date.now();
    const first = await api(path, { json: { channel: "email", note: "Intro mail" } });
    expect(first.status).toBe(201);
    const after = Date.now();
    const contacted = Date.parse(first.body.followup.contacted_at);
    expect(contacted).toBeGreaterThanOrEqual(before - 1000);
    expect(contacted).toBeLessThanOrEqual(after + 1000);
    // new: 2 days, and the customer becomes contacted.
    expect(first.body.customer.status).toBe("contacted");
    expect(first.body.customer.last_contact_at).toBe(first.body.followup.contacted_at);
    expect(Date.parse(first.body.customer.next_followup_at)).toBe(contacted + 2 * DAY);
    expect(first.body.followup).toMatchObject({
      user_id: user.userId,
      customer_id: c.id,
      channel: "email",
      note: "Intro mail",
      next_followup_at: first.body.customer.next_followup_at,
    });

    // contacted: 3 days from the given contact time.
    const t2 = new Date(Date.now() - 60_000).toISOString();
    const second = await api(path, { json: { channel: "phone", contacted_at: t2 } });
    expect(second.status).toBe(201);
    // t2 is earlier than the first contact: last_contact_at keeps the max, next stays.
    expect(second.body.customer.last_contact_at).toBe(first.body.customer.last_contact_at);
    expect(second.body.customer.next_followup_at).toBe(first.body.customer.next_followup_at);

    // contacted: 3 days; negotiating: 2 days.
    const again = await api(path, { json: { channel: "phone" } });
    expect(Date.parse(again.body.customer.next_followup_at)).toBe(
      Date.parse(again.body.followup.contacted_at) + 3 * DAY,
    );
    await api(`${BASE}/${c.id}`, { method: "PATCH", json: { status: "negotiating" } });
    const talks = await api(path, { json: { channel: "meeting" } });
    expect(Date.parse(talks.body.customer.next_followup_at)).toBe(
      Date.parse(talks.body.followup.contacted_at) + 2 * DAY,
    );
    await api(`${BASE}/${c.id}`, { method: "PATCH", json: { status: "quoted" } });
    const third = await api(path, { json: { channel: "whatsapp" } });
    const t3 = Date.parse(third.body.followup.contacted_at);
    expect(Date.parse(third.body.customer.next_followup_at)).toBe(t3 + 3 * DAY);
    expect(third.body.customer.status).toBe("quoted");

    // A given next_followup_at wins; null clears it.
    const planned = new Date(Date.now() + 10 * DAY).toISOString();
    const fourth = await api(path, { json: { channel: "meeting", next_followup_at: planned } });
    expect(fourth.body.customer.next_followup_at).toBe(planned);
    const fifth = await api(path, { json: { channel: "other", next_followup_at: null } });
    expect(fifth.body.customer.next_followup_at).toBeNull();

    // won: 30 days; lost: none.
    await api(`${BASE}/${c.id}`, { method: "PATCH", json: { status: "won" } });
    const sixth = await api(path, { json: { channel: "email" } });
    expect(Date.parse(sixth.body.customer.next_followup_at)).toBe(
      Date.parse(sixth.body.followup.contacted_at) + 30 * DAY,
    );
    const lost = await create(user, { company: "Lost Co" });
    await api(`${BASE}/${lost.id}`, { method: "PATCH", json: { status: "lost" } });
    const lostLog = await api(`${BASE}/${lost.id}/followups`, { json: { channel: "email" } });
    expect(lostLog.body.customer).toMatchObject({ status: "lost", next_followup_at: null });

    const list = await api(`${path}?size=2`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 8, page: 1, size: 2 });
    expect(list.body.items[0].id).toBe(sixth.body.followup.id);
    expect((await api(`${path}?page=5&size=2`)).body).toMatchObject({ items: [], total: 8 });

    const rows = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from followup_logs where customer_id = ${c.id}`,
    );
    expect(rows[0]!.n).toBe(8);
  });

  it("validates the follow-up body", async () => {
    const user = await registerUser(app);
    const api = as(user);
    const c = await create(user, { company: "Valid Co" });
    const path = `${BASE}/${c.id}/followups`;
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const json of [
      {},
      { channel: "pigeon" },
      { channel: "email", contacted_at: "yesterday" },
      { channel: "email", contacted_at: future },
      { channel: "email", extra: 1 },
    ]) {
      const res = await api(path, { json });
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
    const fresh = await api(`${BASE}/${c.id}`);
    expect(fresh.body).toMatchObject({ status: "new", last_contact_at: null });
    expect((await api(path)).body.total).toBe(0);
  });
});
