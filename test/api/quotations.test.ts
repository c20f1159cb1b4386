import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { provideCjkFont } from "../../src/modules/quotations/pdf-font";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
import { call, expectStatus, registerUser, type Session, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;
provideCjkFont(nodeCjkFont);

const Q = "/api/v1/quotations" as const;
const ONE = "/api/v1/quotations/{id}" as const;

const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

/** Customers are another module's routes; a row is all these tests need. */
async function customerOf(user: Session, company = "Acme GmbH") {
  const [row] = await queryRows<{ id: string }>(
    ctx.deps.db,
    sql`insert into customers (user_id, company, contact_name, email, country)
        values (${user.userId}, ${company}, 'Anna Schmidt', 'anna@acme.example', 'DE')
        returning id`,
  );
  return row!.id;
}

async function seller() {
  const user = await registerUser(app, { name: "Li Wei" });
  const api = as(user);
  const token = user.accessToken;
  const t = typed(app);
  const cup = await t.post("/api/v1/products", {
    token,
    json: { name: "不锈钢保温杯", sku: "CUP", price: 1299, currency: "USD", unit: "pcs" },
  });
  expectStatus(cup, 201);
  const lid = await t.post("/api/v1/products", {
    token,
    json: { name: "Bamboo lid", sku: "LID", price: 250, currency: "CNY" },
  });
  expectStatus(lid, 201);
  return { user, api, t, token, cupId: cup.body.id, lidId: lid.body.id };
}

describe("quotations", () => {
  it("computes totals exactly in minor units and serves CRUD", async () => {
    const { user, api, t, token, cupId } = await seller();
    const customerId = await customerOf(user);
    const created = await t.post(Q, {
      token,
      json: {
        customer_id: customerId,
        currency: "USD",
        incoterm: "FOB",
        valid_until: "2026-12-31",
        discount: 1001,
        shipping: 4999,
        notes: "Payment 30% T/T in advance",
        items: [
          { product_id: cupId, quantity: 1000 },
          { name: "Custom logo printing", quantity: 3, unit_price: 33 },
          { product_id: cupId, name: "保温杯 gift box", quantity: 7, unit_price: 1 },
        ],
      },
    });
    expectStatus(created, 201);
    const q = created.body;
    expect(q.quote_no).toMatch(/^Q-\d{8}-001$/);
    expect(q.status).toBe("draft");
    expect(q.items.map((i) => i.line_total)).toEqual([1_299_000, 99, 7]);
    expect(q.items[0]).toMatchObject({ name: "不锈钢保温杯", unit_price: 1299, position: 1 });
    expect(q.subtotal).toBe(1_299_106);
    expect(q.total).toBe(1_299_106 - 1001 + 4999);
    expect(q).toMatchObject({
      incoterm: "FOB",
      valid_until: "2026-12-31",
      customer_id: customerId,
    });

    const second = await t.post(Q, {
      token,
      json: { currency: "USD", items: [{ name: "x", quantity: 1, unit_price: 0 }] },
    });
    expectStatus(second, 201);
    expect(second.body.quote_no).toMatch(/^Q-\d{8}-002$/);
    expect(second.body).toMatchObject({ subtotal: 0, total: 0, customer_id: null });

    const got = await t.get(ONE, { token, params: { id: q.id } });
    expectStatus(got, 200);
    expect(got.body).toEqual(q);
    const list = await t.get(Q, { token, query: { customer_id: customerId } });
    expectStatus(list, 200);
    expect(list.body).toMatchObject({ total: 1, page: 1 });
    expect(list.body.items[0]).toMatchObject({ id: q.id, item_count: 3, total: q.total });
    const drafts = await t.get(Q, { token, query: { status: "draft" } });
    expectStatus(drafts, 200);
    expect(drafts.body.total).toBe(2);
    const sent = await t.get(Q, { token, query: { status: "sent" } });
    expectStatus(sent, 200);
    expect(sent.body.total).toBe(0);
    expect((await api("/api/v1/quotations?size=1001")).status).toBe(422);

    const removed = await t.delete(ONE, { token, params: { id: second.body.id } });
    expectStatus(removed, 204);
    expect((await api(`/api/v1/quotations/${second.body.id}`)).status).toBe(404);
    const [left] = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from quotation_items where quotation_id = ${second.body.id}`,
    );
    expect(left!.n).toBe(0);
  });

  it("rejects a negative total and bad items; converts a foreign-currency product", async () => {
    const { api, t, token, cupId, lidId } = await seller();
    const negative = await api("/api/v1/quotations", {
      json: {
        currency: "USD",
        discount: 1002,
        shipping: 1,
        items: [{ name: "a", quantity: 1, unit_price: 1000 }],
      },
    });
    expect(negative.status).toBe(422);
    expect(negative.body.detail).toMatch(/negative/);
    const exactlyZero = await t.post(Q, {
      token,
      json: {
        currency: "USD",
        discount: 1001,
        shipping: 1,
        items: [{ name: "a", quantity: 1, unit_price: 1000 }],
      },
    });
    expectStatus(exactlyZero, 201);
    expect(exactlyZero.body.total).toBe(0);

    // A CNY product in a USD quotation is converted (quotations-exchange.test.ts has the rest):
    // 2.50 CNY x 0.139831482191 (1.0953 / 7.8330) = 0.3496 USD -> 35 cents.
    const converted = await t.post(Q, {
      token,
      json: { currency: "USD", items: [{ product_id: lidId, quantity: 10 }] },
    });
    expectStatus(converted, 201);
    expect(converted.body).toMatchObject({ subtotal: 350, total: 350 });
    expect(converted.body.exchange_rates).toMatchObject([
      { from: "CNY", to: "USD", rate: "0.139831482191" },
    ]);
    const explicit = await t.post(Q, {
      token,
      json: { currency: "USD", items: [{ product_id: lidId, quantity: 10, unit_price: 35 }] },
    });
    expectStatus(explicit, 201);
    expect(explicit.body).toMatchObject({ subtotal: 350, total: 350 });

    for (const items of [
      [],
      [{ name: "a", quantity: 0, unit_price: 1 }],
      [{ name: "a", quantity: 1.5, unit_price: 1 }],
      [{ name: "a", quantity: 1, unit_price: -1 }],
      [{ name: "a", quantity: 1, unit_price: 0.5 }],
      [{ name: "a", quantity: 1 }],
      [{ quantity: 1, unit_price: 1 }],
      [{ name: "a", quantity: 2_000_000, unit_price: 2_000_000 }],
    ]) {
      const res = await api("/api/v1/quotations", { json: { currency: "USD", items } });
      expect(res.status, JSON.stringify(items)).toBe(422);
    }
    expect(
      (
        await api("/api/v1/quotations", {
          json: { currency: "usd", items: [{ product_id: cupId, quantity: 1 }] },
        })
      ).status,
    ).toBe(422);
    const count = await t.get(Q, { token });
    expectStatus(count, 200);
    expect(count.body.total).toBe(3);
  });

  it("recomputes totals when PATCH replaces items, atomically", async () => {
    const { api, t, token, cupId } = await seller();
    const made = await t.post(Q, {
      token,
      json: {
        currency: "USD",
        discount: 100,
        shipping: 500,
        items: [{ product_id: cupId, quantity: 10 }],
      },
    });
    expectStatus(made, 201);
    const q = made.body;
    expect(q.total).toBe(12_990 - 100 + 500);
    const params = { id: q.id };
    const replaced = await t.patch(ONE, {
      token,
      params,
      json: {
        items: [
          { name: "Sample", quantity: 2, unit_price: 2500 },
          { product_id: cupId, quantity: 3 },
        ],
      },
    });
    expectStatus(replaced, 200);
    expect(replaced.body.items.map((i) => [i.name, i.line_total])).toEqual([
      ["Sample", 5000],
      ["不锈钢保温杯", 3897],
    ]);
    expect(replaced.body).toMatchObject({ subtotal: 8897, total: 8897 - 100 + 500 });

    const discounted = await t.patch(ONE, {
      token,
      params,
      json: { discount: 897, shipping: 0 },
    });
    expectStatus(discounted, 200);
    expect(discounted.body).toMatchObject({ subtotal: 8897, discount: 897, total: 8000 });

    // A negative total changes nothing: neither the amounts nor the items.
    const tooMuch = await api(`/api/v1/quotations/${q.id}`, {
      method: "PATCH",
      json: { items: [{ name: "Tiny", quantity: 1, unit_price: 1 }] },
    });
    expect(tooMuch.status).toBe(422);
    const onlyDiscount = await api(`/api/v1/quotations/${q.id}`, {
      method: "PATCH",
      json: { discount: 9000 },
    });
    expect(onlyDiscount.status).toBe(422);
    const after = await t.get(ONE, { token, params });
    expectStatus(after, 200);
    expect(after.body).toMatchObject({ subtotal: 8897, total: 8000 });
    expect(after.body.items).toHaveLength(2);

    const currencyAlone = await api(`/api/v1/quotations/${q.id}`, {
      method: "PATCH",
      json: { currency: "EUR" },
    });
    expect(currencyAlone.status).toBe(422);
  });

  it("moves through draft -> sent -> accepted and freezes a sent quotation", async () => {
    const { api, t, token, cupId } = await seller();
    const made = await t.post(Q, {
      token,
      json: { currency: "USD", items: [{ product_id: cupId, quantity: 1 }] },
    });
    expectStatus(made, 201);
    const q = made.body;
    const patch = (json: unknown) => api(`/api/v1/quotations/${q.id}`, { method: "PATCH", json });
    const moveTo = async (status: "sent" | "accepted") => {
      const answer = await t.patch(ONE, { token, params: { id: q.id }, json: { status } });
      expectStatus(answer, 200);
      return answer.body;
    };
    expect((await patch({ status: "accepted" })).status).toBe(409);
    expect((await moveTo("sent")).status).toBe("sent");
    expect((await patch({ notes: "changed" })).status).toBe(409);
    expect((await patch({ status: "draft" })).status).toBe(409);
    expect((await moveTo("accepted")).status).toBe("accepted");
    expect((await patch({ status: "rejected" })).status).toBe(409);
    expect((await patch({ status: "bogus" })).status).toBe(422);
  });

  it("isolates sellers: quotations, customers and products of others", async () => {
    const owner = await seller();
    const stranger = await seller();
    const ownersCustomer = await customerOf(owner.user);
    const made = await owner.t.post(Q, {
      token: owner.token,
      json: {
        currency: "USD",
        customer_id: ownersCustomer,
        items: [{ product_id: owner.cupId, quantity: 1 }],
      },
    });
    expectStatus(made, 201);
    const q = made.body;
    for (const [method, path] of [
      ["GET", `/api/v1/quotations/${q.id}`],
      ["PATCH", `/api/v1/quotations/${q.id}`],
      ["DELETE", `/api/v1/quotations/${q.id}`],
      ["GET", `/api/v1/quotations/${q.id}/export?format=xlsx`],
      ["GET", `/api/v1/quotations/${q.id}/export?format=pdf`],
    ] as const) {
      const res = await stranger.api(path, {
        method,
        json: method === "PATCH" ? { notes: "mine now" } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const strangersList = await stranger.t.get(Q, { token: stranger.token });
    expectStatus(strangersList, 200);
    expect(strangersList.body.total).toBe(0);

    const foreignCustomer = await stranger.api("/api/v1/quotations", {
      json: {
        currency: "USD",
        customer_id: ownersCustomer,
        items: [{ name: "a", quantity: 1, unit_price: 1 }],
      },
    });
    expect(foreignCustomer.status).toBe(422);
    const foreignProduct = await stranger.api("/api/v1/quotations", {
      json: { currency: "USD", items: [{ product_id: owner.cupId, quantity: 1 }] },
    });
    expect(foreignProduct.status).toBe(422);
    const foreignProductWithPrice = await stranger.api("/api/v1/quotations", {
      json: {
        currency: "USD",
        items: [{ product_id: owner.cupId, name: "a", quantity: 1, unit_price: 5 }],
      },
    });
    expect(foreignProductWithPrice.status).toBe(422);
    const mine = await stranger.t.post(Q, {
      token: stranger.token,
      json: { currency: "USD", items: [{ name: "a", quantity: 1, unit_price: 1 }] },
    });
    expectStatus(mine, 201);
    const repoint = await stranger.api(`/api/v1/quotations/${mine.body.id}`, {
      method: "PATCH",
      json: { customer_id: ownersCustomer },
    });
    expect(repoint.status).toBe(422);
    const untouched = await owner.t.get(ONE, { token: owner.token, params: { id: q.id } });
    expectStatus(untouched, 200);
    expect(untouched.body.notes).toBeNull();
  });

  it("exports an xlsx that parses back with the items and the total", async () => {
    const { user, t, token, cupId } = await seller();
    const customerId = await customerOf(user, "Müller Import 贸易");
    const made = await t.post(Q, {
      token,
      json: {
        currency: "USD",
        customer_id: customerId,
        incoterm: "CIF",
        shipping: 12_345,
        items: [
          { product_id: cupId, quantity: 1000 },
          { name: "Silicone sleeve", quantity: 1000, unit_price: 45 },
        ],
      },
    });
    expectStatus(made, 201);
    const q = made.body;
    const res = await t.get(`${ONE}/export`, {
      token,
      params: { id: q.id },
      query: { format: "xlsx" },
    });
    expectStatus(res, 200);
    expect(res.res.headers.get("content-type")).toContain("spreadsheetml");
    expect(res.res.headers.get("content-disposition")).toBe(
      `attachment; filename="${q.quote_no}.xlsx"`,
    );
    const bytes = await (
      await app.request(`/api/v1/quotations/${q.id}/export?format=xlsx`, {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      })
    ).arrayBuffer();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const flat = rows.map((r) => r.map((v) => String(v ?? "")).join("|"));
    expect(flat.some((r) => r.includes(q.quote_no))).toBe(true);
    expect(flat.some((r) => r.includes("Müller Import 贸易"))).toBe(true);
    expect(flat.some((r) => r.includes("CIF"))).toBe(true);
    const cupRow = rows.find((r) => r[1] === "不锈钢保温杯");
    expect(cupRow?.slice(4, 7)).toEqual([1000, 12.99, 12_990]);
    const sleeveRow = rows.find((r) => r[1] === "Silicone sleeve");
    expect(sleeveRow?.slice(4, 7)).toEqual([1000, 0.45, 450]);
    const totalRow = rows.find((r) => r[5] === "Total");
    expect(totalRow?.[6]).toBe((1_299_000 + 45_000 + 12_345) / 100);
    expect(q.total).toBe(1_356_345);
  });

  it("exports a PDF with the CJK font embedded and subset", async () => {
    const { user, t, token, cupId } = await seller();
    const made = await t.post(Q, {
      token,
      json: {
        currency: "USD",
        notes: "交货期：30天。Payment by T/T.",
        items: [
          { product_id: cupId, quantity: 1000, description: "双层真空，304不锈钢 / double wall" },
          { name: "Emoji 😀 and Ω symbols", quantity: 1, unit_price: 1 },
          ...Array.from({ length: 60 }, (_, i) => ({
            name: `Item ${i} 品名测试 with a fairly long English name that needs wrapping in its column`,
            quantity: i + 1,
            unit_price: 100,
          })),
        ],
      },
    });
    expectStatus(made, 201);
    const q = made.body;
    const res = await app.request(`/api/v1/quotations/${q.id}/export?format=pdf`, {
      headers: { Authorization: `Bearer ${user.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${q.quote_no}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder("latin1").decode(bytes);
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text).toMatch(/\/FontFile2/);
    expect(text).toMatch(/NotoSansSC/);
    // Subset: the 10 MB font becomes a small document.
    expect(bytes.byteLength).toBeLessThan(400_000);
    const pages = text.match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThan(1);
  });

  it("answers 503 for PDF when the runtime has no font, and 422 for an unknown format", async () => {
    const { user, t, token, cupId } = await seller();
    const made = await t.post(Q, {
      token,
      json: { currency: "USD", items: [{ product_id: cupId, quantity: 1 }] },
    });
    expectStatus(made, 201);
    const q = made.body;
    const bad = await call(app, `/api/v1/quotations/${q.id}/export?format=docx`, {
      token: user.accessToken,
    });
    expect(bad.status).toBe(422);
    provideCjkFont(undefined);
    try {
      const res = await call(app, `/api/v1/quotations/${q.id}/export?format=pdf`, {
        token: user.accessToken,
      });
      expect(res.status).toBe(503);
    } finally {
      provideCjkFont(nodeCjkFont);
    }
  });
});
