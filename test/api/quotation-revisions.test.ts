import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, randomIp, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany } from "../support/orgs";

// Issue #23: revisions, copies, the customer's stage and unpriced lines (API.md "Trade
// documents", docs/quotations.md, ADR 0106).

const ctx = await createTestContext();
const { app, database } = ctx;
const Q = "/api/v1/quotations";

const as = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });
const post = (user: Session, path: string, json?: unknown) =>
  call(app, path, { ...as(user), method: "POST", ...(json === undefined ? {} : { json }) });
const patch = (user: Session, id: string, json: unknown) =>
  call(app, `${Q}/${id}`, { ...as(user), method: "PATCH", json });
const get = (user: Session, id: string) => call(app, `${Q}/${id}`, { token: user.accessToken });

async function customer(user: Session, status = "new") {
  const res = await post(user, "/api/v1/customers", { company: "Acme GmbH", status });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function customerStatus(id: string) {
  const [row] = await queryRows<{ status: string }>(
    database.db,
    sql`select status from customers where id = ${id}`,
  );
  return row!.status;
}

const TRADE = {
  buyer_address: "Hafenstrasse 1\n20457 Hamburg",
  named_place: "Ningbo",
  port_of_loading: "Ningbo",
  lead_time: "25 days after deposit",
  packing: "20 pcs per carton\nCarton 60x40x30 cm",
};

async function quotation(user: Session, customerId: string | null, items?: unknown[]) {
  const res = await post(user, Q, {
    customer_id: customerId,
    currency: "USD",
    incoterm: "FOB",
    discount: 100,
    shipping: 500,
    notes: "Samples free",
    ...TRADE,
    items: items ?? [
      { name: "Vacuum cup", quantity: 10, unit_price: 1299 },
      { name: "Bamboo lid", quantity: 5, unit_price: 250, unit: "set" },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function sent(user: Session, customerId: string | null = null) {
  const q = await quotation(user, customerId);
  expect((await patch(user, q.id, { status: "sent" })).status).toBe(200);
  return q;
}

const lines = (q: { items: Record<string, unknown>[] }) =>
  q.items.map(({ id: _id, ...rest }) => rest);

describe("quotation revisions", () => {
  it("a sent quotation gets a draft revision: same number, revision + 1, previous superseded", async () => {
    const user = await registerUser(app);
    const customerId = await customer(user);
    const original = await sent(user, customerId);
    expect(original.revision).toBe(0);
    expect(original.previous_id).toBeNull();
    expect(original).toMatchObject(TRADE);

    const r1 = await post(user, `${Q}/${original.id}/revisions`);
    expect(r1.status, JSON.stringify(r1.body)).toBe(201);
    expect(r1.body).toMatchObject({
      quote_no: original.quote_no,
      revision: 1,
      previous_id: original.id,
      status: "draft",
      customer_id: customerId,
      currency: "USD",
      incoterm: "FOB",
      discount: 100,
      shipping: 500,
      subtotal: original.subtotal,
      total: original.total,
      notes: "Samples free",
      proforma_no: null,
      ...TRADE,
    });
    expect(lines(r1.body)).toEqual(lines(original));
    expect((await get(user, original.id)).body.status).toBe("superseded");

    // The revision is a draft: edited, sent, then revised again.
    const edited = await patch(user, r1.body.id, {
      items: [{ name: "Vacuum cup", quantity: 20, unit_price: 1199 }],
    });
    expect(edited.status).toBe(200);
    expect((await patch(user, r1.body.id, { status: "sent" })).status).toBe(200);
    const r2 = await post(user, `${Q}/${r1.body.id}/revisions`);
    expect(r2.status).toBe(201);
    expect(r2.body).toMatchObject({ quote_no: original.quote_no, revision: 2 });
    expect(r2.body.items).toHaveLength(1);
    // The original's lines are untouched by the revision's edits.
    expect(lines((await get(user, original.id)).body)).toEqual(lines(original));

    // The list shows all three, one number.
    const list = await call(app, `${Q}?size=10`, { token: user.accessToken });
    expect(
      list.body.items.map((q: { revision: number; status: string }) => [q.revision, q.status]),
    ).toEqual([
      [2, "draft"],
      [1, "superseded"],
      [0, "superseded"],
    ]);
  });

  it("accepted, rejected and expired quotations can be revised too", async () => {
    const user = await registerUser(app);
    for (const status of ["accepted", "rejected", "expired"]) {
      const q = await sent(user);
      expect((await patch(user, q.id, { status })).status).toBe(200);
      const r = await post(user, `${Q}/${q.id}/revisions`);
      expect(r.status, status).toBe(201);
      expect(r.body.revision).toBe(1);
    }
  });

  it("refuses a draft and an already revised quotation (409 quotation_not_revisable)", async () => {
    const user = await registerUser(app);
    const draft = await quotation(user, null);
    const refused = await post(user, `${Q}/${draft.id}/revisions`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "quotation_not_revisable", status: "draft" });
    expect((await get(user, draft.id)).body.status).toBe("draft");

    const q = await sent(user);
    const [first, second] = await Promise.all([
      post(user, `${Q}/${q.id}/revisions`),
      post(user, `${Q}/${q.id}/revisions`),
    ]);
    // Two at once: exactly one revision.
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const again = await post(user, `${Q}/${q.id}/revisions`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "quotation_not_revisable", status: "superseded" });

    // Its revision deleted, a superseded quotation may be revised again.
    const revision = first.status === 201 ? first.body : second.body;
    expect((await call(app, `${Q}/${revision.id}`, { ...as(user), method: "DELETE" })).status).toBe(
      204,
    );
    const redo = await post(user, `${Q}/${q.id}/revisions`);
    expect(redo.status).toBe(201);
    expect(redo.body.revision).toBe(1);
  });

  it("a PATCH never makes a quotation superseded", async () => {
    const user = await registerUser(app);
    const q = await sent(user);
    const res = await patch(user, q.id, { status: "superseded" });
    expect(res.status).toBe(409);
  });

  it("another organisation's quotation is not found; a member revises only what they may change", async () => {
    const company = await createCompany(ctx);
    const mine = await sent(company.member);
    for (const path of [`${Q}/${mine.id}/revisions`, `${Q}/${mine.id}/duplicate`]) {
      const outsider = await post(company.outsider, path);
      expect(outsider.status).toBe(404);
      // Another member of the same organisation does not see it either.
      const colleague = await post(company.colleague, path);
      expect(colleague.status).toBe(404);
    }
    expect((await get(company.member, mine.id)).body.status).toBe("sent");
    // A manager sees the organisation's quotations: the revision keeps the member as its seller.
    const byManager = await post(company.manager, `${Q}/${mine.id}/revisions`);
    expect(byManager.status).toBe(201);
    expect(byManager.body.user_id).toBe(company.member.userId);
    expect((await get(company.member, byManager.body.id)).status).toBe(200);
  });
});

describe("printed fields", () => {
  it('are set on a draft by PATCH ("" clears one) and refused on a sent quotation', async () => {
    const user = await registerUser(app);
    const q = await quotation(user, null);
    const changed = await patch(user, q.id, {
      named_place: "Shanghai",
      lead_time: "",
      packing: "10 pcs per carton",
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      named_place: "Shanghai",
      lead_time: null,
      packing: "10 pcs per carton",
      port_of_loading: TRADE.port_of_loading,
    });
    const tooLong = await patch(user, q.id, { port_of_loading: "x".repeat(201) });
    expect(tooLong.status).toBe(422);
    expect((await patch(user, q.id, { status: "sent" })).status).toBe(200);
    const refused = await patch(user, q.id, { named_place: "Ningbo" });
    expect(refused.status).toBe(409);
    expect((await get(user, q.id)).body.named_place).toBe("Shanghai");
  });
});

describe("quotation duplicate", () => {
  it("makes a fresh draft with a new number and the same lines", async () => {
    const user = await registerUser(app);
    const customerId = await customer(user);
    const q = await sent(user, customerId);
    const copy = await post(user, `${Q}/${q.id}/duplicate`);
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body.id).not.toBe(q.id);
    expect(copy.body.quote_no).not.toBe(q.quote_no);
    expect(copy.body.quote_no).toMatch(/^Q-\d{8}-\d{3}$/);
    expect(copy.body).toMatchObject({
      status: "draft",
      revision: 0,
      previous_id: null,
      customer_id: customerId,
      total: q.total,
      ...TRADE,
    });
    expect(lines(copy.body)).toEqual(lines(q));
    // The source is untouched.
    expect((await get(user, q.id)).body.status).toBe("sent");
    // A draft can be copied too.
    expect((await post(user, `${Q}/${copy.body.id}/duplicate`)).status).toBe(201);
  });

  it("a member copying a quotation of a customer now in the pool is told to claim it", async () => {
    const company = await createCompany(ctx);
    const customerId = await customer(company.member);
    const q = await quotation(company.member, customerId);
    const release = await post(company.member, `/api/v1/customers/${customerId}/release`, {
      reason: "Not my market",
    });
    expect(release.status, JSON.stringify(release.body)).toBe(200);
    const copy = await post(company.member, `${Q}/${q.id}/duplicate`);
    expect(copy.status).toBe(409);
  });
});

describe("marking sent or accepted", () => {
  it("moves the customer's stage forward, never back", async () => {
    const user = await registerUser(app);
    const fresh = await customer(user, "new");
    const q = await sent(user, fresh);
    expect(await customerStatus(fresh)).toBe("quoted");
    expect((await patch(user, q.id, { status: "accepted" })).status).toBe(200);
    expect(await customerStatus(fresh)).toBe("won");

    // A won customer stays won when another quotation is sent to them.
    await sent(user, fresh);
    expect(await customerStatus(fresh)).toBe("won");

    // Negotiating moves on to quoted; rejected leaves the stage as it is.
    const talking = await customer(user, "negotiating");
    const q2 = await sent(user, talking);
    expect(await customerStatus(talking)).toBe("quoted");
    expect((await patch(user, q2.id, { status: "rejected" })).status).toBe(200);
    expect(await customerStatus(talking)).toBe("quoted");
  });

  it("a line priced 0 blocks sending (409 naming the lines) until it is priced", async () => {
    const user = await registerUser(app);
    const customerId = await customer(user);
    const q = await quotation(user, customerId, [
      { name: "Vacuum cup", quantity: 10, unit_price: 1299 },
      { name: "Unmatched: silicone sleeve", quantity: 10, unit_price: 0 },
      { name: "Gift box", quantity: 10, unit_price: 0 },
    ]);
    const refused = await patch(user, q.id, { status: "sent" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "quotation_unpriced", lines: [2, 3] });
    expect((await get(user, q.id)).body.status).toBe("draft");
    expect(await customerStatus(customerId)).toBe("new");

    // Sending with new items that still hold a 0 is refused the same way, and writes nothing.
    const withItems = await patch(user, q.id, {
      status: "sent",
      items: [
        { name: "Vacuum cup", quantity: 10, unit_price: 1299 },
        { name: "Gift box", quantity: 10, unit_price: 0 },
      ],
    });
    expect(withItems.status).toBe(409);
    expect(withItems.body.lines).toEqual([2]);
    expect((await get(user, q.id)).body.items).toHaveLength(3);

    const priced = await patch(user, q.id, {
      status: "sent",
      items: [
        { name: "Vacuum cup", quantity: 10, unit_price: 1299 },
        { name: "Gift box", quantity: 10, unit_price: 80 },
      ],
    });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.status).toBe("sent");
    expect(await customerStatus(customerId)).toBe("quoted");
  });
});

describe("a guest's quotations moved into an account", () => {
  it("keep a revision chain under one number and their proforma numbers apart", async () => {
    const year = new Date().getUTCFullYear();
    const account = await registerUser(app);
    const own = await sent(account);
    expect((await patch(account, own.id, { status: "accepted" })).status).toBe(200);
    const ownPi = await app.request(`${Q}/${own.id}/export?document=proforma&format=xlsx`, {
      headers: { Authorization: `Bearer ${account.accessToken}` },
    });
    expect(ownPi.status).toBe(200);

    const started = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    expect(started.status).toBe(201);
    const g = { accessToken: started.body.access_token, csrfToken: "" } as Session;
    const original = await sent(g);
    expect(original.quote_no).toBe(own.quote_no); // the same day's first number
    const r1 = await post(g, `${Q}/${original.id}/revisions`);
    expect(r1.status).toBe(201);
    expect((await patch(g, r1.body.id, { status: "sent" })).status).toBe(200);
    expect((await patch(g, r1.body.id, { status: "accepted" })).status).toBe(200);
    const guestPi = await app.request(`${Q}/${r1.body.id}/export?document=proforma&format=xlsx`, {
      headers: { Authorization: `Bearer ${g.accessToken}` },
    });
    expect(guestPi.headers.get("Content-Disposition")).toContain(`PI-${year}-0001`);

    const login = await call(app, "/api/v1/auth/login", {
      token: g.accessToken,
      ip: randomIp(),
      json: { email: account.email, password: account.password },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const moved = [(await get(account, original.id)).body, (await get(account, r1.body.id)).body];
    // One new number for the chain, distinct from the account's own.
    expect(moved[0].quote_no).not.toBe(own.quote_no);
    expect(moved[0].quote_no).toMatch(new RegExp(`^${own.quote_no}-G[0-9A-F]{6}$`));
    expect(moved[1].quote_no).toBe(moved[0].quote_no);
    expect(moved.map((q) => q.revision)).toEqual([0, 1]);
    expect(moved[1].proforma_no).toBe(`PI-${year}-0001-${r1.body.id.slice(0, 8)}`);
    expect((await get(account, own.id)).body.proforma_no).toBe(`PI-${year}-0001`);
  });
});
