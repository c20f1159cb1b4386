import { inflateSync } from "node:zlib";
import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { provideCjkFont } from "../../src/modules/quotations/pdf-font";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
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

/**
 * Quotations priced from products in another currency, on the ECB snapshot of 2024-01-04 the
 * migration seeds (EUR→USD 1.0953, EUR→CNY 7.8330, EUR→JPY 157.91). Expected figures are worked
 * out by hand below and cross-checked against the exchange module's own `convert` route.
 */
const ctx = await createTestContext();
const { app } = ctx;
provideCjkFont(nodeCjkFont);

/** Whole days from a rate's date to today (UTC), as the API adds it to each frozen rate. */
const ageOf = (date: string) =>
  Math.round((Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse(date)) / 86_400_000);
const STORED_SNAPSHOT = { date: "2024-01-04", source: "ECB (snapshot)" };
const SNAPSHOT = { ...STORED_SNAPSHOT, age_days: ageOf("2024-01-04") };
// 7.8330 / 1.0953 = 7.151465351958...; 12 significant digits, half-even.
const USD_CNY = "7.15146535196";
// 157.91 / 1: EUR is the base.
const EUR_JPY = "157.91";

const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

type QuotationBody = NonNullable<ApiOptions<Operation<"/api/v1/quotations", "post">>["json"]>;
type QuotationPatch = NonNullable<
  ApiOptions<Operation<"/api/v1/quotations/{id}", "patch">>["json"]
>;
type ProductBody = NonNullable<ApiOptions<Operation<"/api/v1/products", "post">>["json"]>;

async function seller() {
  const user = await registerUser(app, { name: "Li Wei" });
  const api = as(user);
  // The success paths, typed by the OpenAPI document (ADR 0095); `api` stays for the errors.
  const token = user.accessToken;
  const product = async (json: ProductBody) => {
    const res = await typed(app).post("/api/v1/products", { token, json });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectStatus(res, 201);
    return res.body.id;
  };
  const create = async ({ json }: { json: QuotationBody }) => {
    const res = await typed(app).post("/api/v1/quotations", { token, json });
    expectStatus(res, 201);
    return res;
  };
  const read = async (id: string) => {
    const res = await typed(app).get("/api/v1/quotations/{id}", { token, params: { id } });
    expectStatus(res, 200);
    return res;
  };
  const patch = async (id: string, { json }: { json: QuotationPatch }) => {
    const res = await typed(app).patch("/api/v1/quotations/{id}", { token, params: { id }, json });
    expectStatus(res, 200);
    return res;
  };
  return {
    user,
    api,
    create,
    read,
    patch,
    // 12.99 USD
    cupId: await product({ name: "不锈钢保温杯", sku: "CUP", price: 1299, currency: "USD" }),
    // 150.00 EUR: 150 x 157.91 = 23686.5 JPY, a tie that half-even takes down to 23686.
    kettleId: await product({ name: "Kettle", sku: "KET", price: 15_000, currency: "EUR" }),
    // 0.35 EUR: 0.35 x 157.91 = 55.2685 JPY -> 55.
    lidId: await product({ name: "Lid", sku: "LID", price: 35, currency: "EUR" }),
    // No ECB rate for AED.
    dateId: await product({ name: "Dates", sku: "DATE", price: 500, currency: "AED" }),
    // Same currency as a CNY quotation: no conversion.
    boxId: await product({ name: "Gift box", sku: "BOX", price: 250, currency: "CNY" }),
  };
}

async function convertRoute(user: Session, amount: string, from: string, to: string) {
  const res = await typed(app).get("/api/v1/exchange/convert", {
    token: user.accessToken,
    query: { amount, from, to },
  });
  expectStatus(res, 200);
  return res.body;
}

const quotationRows = async (userId: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from quotations where user_id = ${userId}`,
    )
  )[0]!.n;

async function sheetLines(user: Session, id: string): Promise<string[]> {
  const res = await app.request(`/api/v1/quotations/${id}/export?format=xlsx`, {
    headers: { Authorization: `Bearer ${user.accessToken}` },
  });
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await res.arrayBuffer()) as never);
  const lines: string[] = [];
  workbook.worksheets[0]!.eachRow((row) =>
    lines.push(
      (row.values as unknown[])
        .slice(1)
        .map((v) => String(v ?? ""))
        .join("|"),
    ),
  );
  return lines;
}

/**
 * The text a PDF shows: pdf-lib writes each string as `<glyph codes> Tj` with a subset font
 * whose ToUnicode CMap maps every code back to its character; decode through that map.
 */
async function pdfText(user: Session, id: string): Promise<string> {
  const res = await app.request(`/api/v1/quotations/${id}/export?format=pdf`, {
    headers: { Authorization: `Bearer ${user.accessToken}` },
  });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const raw = bytes.toString("latin1");
  const streams: string[] = [];
  const re = /stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    const body = bytes.subarray(start, end);
    try {
      streams.push(inflateSync(body).toString("latin1"));
    } catch {
      streams.push(body.toString("latin1"));
    }
  }
  const map = new Map<string, string>();
  for (const s of streams.filter((x) => x.includes("beginbfchar"))) {
    for (const [, code, uni] of s.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const units = uni!.match(/.{4}/g)!.map((h) => Number.parseInt(h, 16));
      map.set(code!.toLowerCase(), String.fromCharCode(...units));
    }
  }
  expect(map.size).toBeGreaterThan(0);
  const shown: string[] = [];
  for (const s of streams) {
    for (const [, hex] of s.matchAll(/<([0-9a-fA-F]+)>\s*Tj/g)) {
      shown.push(
        hex!
          .match(/.{4}/g)!
          .map((code) => map.get(code.toLowerCase()) ?? "?")
          .join(""),
      );
    }
  }
  return shown.join("\n");
}

describe("quotations priced in another currency than their products", () => {
  it("converts USD -> CNY exactly, freezes the rate and shows it in both exports", async () => {
    const { user, create, read, cupId, boxId } = await seller();
    const created = await create({
      json: {
        currency: "CNY",
        shipping: 10_000,
        items: [
          { product_id: cupId, quantity: 1000 },
          { product_id: boxId, quantity: 1000 },
          { product_id: cupId, name: "Sample", quantity: 2, unit_price: 1 },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const q = created.body;
    // 12.99 USD x 7.15146535196 = 92.8975349219... CNY -> 92.90 = 9290 fen.
    expect(q.items.map((i: { unit_price: number }) => i.unit_price)).toEqual([9290, 250, 1]);
    expect(q.items.map((i: { line_total: number }) => i.line_total)).toEqual([
      9_290_000, 250_000, 2,
    ]);
    expect(q).toMatchObject({ subtotal: 9_540_002, total: 9_550_002 });
    expect(q.exchange_rates).toEqual([{ from: "USD", to: "CNY", rate: USD_CNY, ...SNAPSHOT }]);

    // The exchange module agrees, rate and rounded result.
    const check = await convertRoute(user, "12.99", "USD", "CNY");
    expect(check).toMatchObject({ rate: USD_CNY, result: "92.90", ...SNAPSHOT });

    // Stored in the column, not only echoed.
    const [row] = await queryRows<{ exchange_rates: unknown }>(
      ctx.deps.db,
      sql`select exchange_rates from quotations where id = ${q.id}`,
    );
    const stored =
      typeof row!.exchange_rates === "string"
        ? JSON.parse(row!.exchange_rates)
        : row!.exchange_rates;
    // Stored as frozen: the age is the API's, computed when the quotation is read.
    expect(stored).toEqual([{ from: "USD", to: "CNY", rate: USD_CNY, ...STORED_SNAPSHOT }]);
    expect((await read(q.id)).body).toEqual(q);

    // Buyers read the rate to 6 significant digits with its source and day (the exact one
    // stays in the API); the stored rate is not the one printed.
    const lines = await sheetLines(user, q.id);
    expect(lines).toContain("Exchange rate|1 USD = 7.15147 CNY, ECB (snapshot) 2024-01-04");
    expect(lines.join("\n")).not.toContain(USD_CNY);
    expect(lines.find((l) => l.startsWith("1|"))).toBe("1|不锈钢保温杯||pcs|1000|92.9|92900");
    // The PDF prints the same line as the xlsx.
    expect(await pdfText(user, q.id)).toContain("1 USD = 7.15147 CNY, ECB (snapshot) 2024-01-04");
  });

  it("converts EUR -> JPY to whole yen, half to even", async () => {
    const { user, create, kettleId, lidId } = await seller();
    const created = await create({
      json: {
        currency: "JPY",
        discount: 100,
        items: [
          { product_id: kettleId, quantity: 3 },
          { product_id: lidId, quantity: 1000 },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const q = created.body;
    // 150.00 x 157.91 = 23686.5 -> 23686 (even); 0.35 x 157.91 = 55.2685 -> 55.
    expect(q.items.map((i: { unit_price: number }) => i.unit_price)).toEqual([23_686, 55]);
    expect(q).toMatchObject({ subtotal: 71_058 + 55_000, total: 71_058 + 55_000 - 100 });
    expect(q.exchange_rates).toEqual([{ from: "EUR", to: "JPY", rate: EUR_JPY, ...SNAPSHOT }]);
    expect((await convertRoute(user, "150", "EUR", "JPY")).result).toBe("23686");
    expect((await convertRoute(user, "0.35", "EUR", "JPY")).result).toBe("55");
    expect(await sheetLines(user, q.id)).toContain(
      "Exchange rate|1 EUR = 157.910 JPY, ECB (snapshot) 2024-01-04",
    );
  });

  it("keeps one rate per pair, and none when nothing was converted", async () => {
    const { user, create, cupId, kettleId, boxId } = await seller();
    const { body: q } = await create({
      json: {
        currency: "CNY",
        items: [
          { product_id: kettleId, quantity: 1 },
          { product_id: cupId, quantity: 1 },
          { product_id: cupId, quantity: 5 },
        ],
      },
    });
    // 150.00 EUR x 7.833 = 1174.95 CNY.
    expect(q.items.map((i: { unit_price: number }) => i.unit_price)).toEqual([117_495, 9290, 9290]);
    expect(q.exchange_rates).toEqual([
      { from: "EUR", to: "CNY", rate: "7.833", ...SNAPSHOT },
      { from: "USD", to: "CNY", rate: USD_CNY, ...SNAPSHOT },
    ]);
    const lines = await sheetLines(user, q.id);
    expect(lines).toContain("Exchange rate|1 EUR = 7.83300 CNY, ECB (snapshot) 2024-01-04");
    expect(lines).toContain("|1 USD = 7.15147 CNY, ECB (snapshot) 2024-01-04");

    const plain = await create({
      json: { currency: "CNY", items: [{ product_id: boxId, quantity: 1 }] },
    });
    expect(plain.body.exchange_rates).toEqual([]);
    expect((await sheetLines(user, plain.body.id)).some((l) => l.includes("Exchange rate"))).toBe(
      false,
    );
    expect(await pdfText(user, plain.body.id)).not.toContain("Exchange rate");
  });

  it("answers 422 when no rate exists for the pair, and writes nothing", async () => {
    const { user, api, create, read, dateId, cupId } = await seller();
    const res = await api("/api/v1/quotations", {
      json: {
        currency: "CNY",
        items: [
          { product_id: cupId, quantity: 1 },
          { product_id: dateId, quantity: 1 },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      "No exchange rate from AED to CNY is available: give unit_price or use the product's currency",
    );
    expect(res.body.errors[0]).toMatchObject({
      loc: ["body", "items", 1, "unit_price"],
      type: "no_exchange_rate",
    });
    expect(await quotationRows(user.userId)).toBe(0);

    // An explicit price needs no rate.
    const priced = await create({
      json: { currency: "CNY", items: [{ product_id: dateId, quantity: 1, unit_price: 900 }] },
    });
    expect(priced.status).toBe(201);
    expect(priced.body.exchange_rates).toEqual([]);
    const patched = await api(`/api/v1/quotations/${priced.body.id}`, {
      method: "PATCH",
      json: { items: [{ product_id: dateId, quantity: 2 }] },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.detail).toMatch(/^No exchange rate from AED to CNY/);
    expect((await read(priced.body.id)).body).toEqual(priced.body);

    const repriceAlone = await api(`/api/v1/quotations/${priced.body.id}`, {
      method: "PATCH",
      json: { reprice: true },
    });
    expect(repriceAlone.status).toBe(422);
  });

  // Runs last: it adds a newer day to the rates table.
  it("keeps the frozen rate when rates move, until reprice: true", async () => {
    const { user, api, create, read, patch, cupId, kettleId } = await seller();
    const { body: q } = await create({
      json: { currency: "CNY", items: [{ product_id: cupId, quantity: 100 }] },
    });
    expect(q.items[0]!.unit_price).toBe(9290);
    const { body: jq } = await create({
      json: { currency: "JPY", items: [{ product_id: kettleId, quantity: 1 }] },
    });
    expect(jq.items[0]!.unit_price).toBe(23_686);

    // The provider publishes a newer day with other rates.
    await queryRows(
      ctx.deps.db,
      sql`insert into exchange_rates (base, quote, date, source, rate, fetched_at) values
          ('EUR', 'USD', '2024-02-01', 'ECB', 1.1, now()),
          ('EUR', 'CNY', '2024-02-01', 'ECB', 7.9, now()),
          ('EUR', 'JPY', '2024-02-01', 'ECB', 160.12, now())`,
    );
    // 7.9 / 1.1 = 7.181818...; 12.99 x 7.18181818182 = 93.2918... -> 93.29.
    const today = await convertRoute(user, "12.99", "USD", "CNY");
    expect(today).toMatchObject({ rate: "7.18181818182", result: "93.29", date: "2024-02-01" });

    // GET: unchanged.
    expect((await read(q.id)).body).toEqual(q);

    // A PATCH that does not touch the items: unchanged figures and rate.
    const noted = await patch(q.id, {
      json: { notes: "Prices firm for 30 days" },
    });
    expect(noted.status).toBe(200);
    expect(noted.body).toMatchObject({
      subtotal: q.subtotal,
      total: q.total,
      exchange_rates: q.exchange_rates,
    });
    expect(noted.body.items).toEqual(q.items);

    // A PATCH that re-prices the items (more of them): the frozen rate, not today's.
    const more = await patch(q.id, {
      json: { items: [{ product_id: cupId, quantity: 200 }] },
    });
    expect(more.status).toBe(200);
    expect(more.body.items[0]!.unit_price).toBe(9290);
    expect(more.body).toMatchObject({ subtotal: 1_858_000, total: 1_858_000 });
    expect(more.body.exchange_rates).toEqual([
      { from: "USD", to: "CNY", rate: USD_CNY, ...SNAPSHOT },
    ]);

    // A pair the quotation did not hold yet takes today's rate; the frozen one stays.
    const mixed = await patch(q.id, {
      json: {
        items: [
          { product_id: cupId, quantity: 200 },
          { product_id: kettleId, quantity: 1 },
        ],
      },
    });
    expect(mixed.status).toBe(200);
    // 150.00 EUR x 7.9 = 1185.00 CNY.
    expect(mixed.body.items.map((i: { unit_price: number }) => i.unit_price)).toEqual([
      9290, 118_500,
    ]);
    expect(mixed.body.exchange_rates).toEqual([
      {
        from: "EUR",
        to: "CNY",
        rate: "7.9",
        date: "2024-02-01",
        source: "ECB",
        age_days: ageOf("2024-02-01"),
      },
      { from: "USD", to: "CNY", rate: USD_CNY, ...SNAPSHOT },
    ]);

    // reprice: true takes today's rates for every pair.
    const repriced = await patch(q.id, {
      json: { reprice: true, items: [{ product_id: cupId, quantity: 200 }] },
    });
    expect(repriced.status).toBe(200);
    expect(repriced.body.items[0]!.unit_price).toBe(9329);
    expect(repriced.body).toMatchObject({ subtotal: 1_865_800, total: 1_865_800 });
    expect(repriced.body.exchange_rates).toEqual([
      {
        from: "USD",
        to: "CNY",
        rate: "7.18181818182",
        date: "2024-02-01",
        source: "ECB",
        age_days: ageOf("2024-02-01"),
      },
    ]);
    expect((await read(q.id)).body).toEqual(repriced.body);
    expect(await sheetLines(user, q.id)).toContain(
      "Exchange rate|1 USD = 7.18182 CNY, ECB 2024-02-01",
    );

    // The JPY quotation was never touched: still the snapshot's figure and rate.
    expect((await read(jq.id)).body).toEqual(jq);
    // Same items again, no reprice: still the snapshot rate (157.91), not 160.12.
    const same = await patch(jq.id, {
      json: { items: [{ product_id: kettleId, quantity: 1 }] },
    });
    expect(same.body.items[0]!.unit_price).toBe(23_686);
    expect(same.body.exchange_rates).toEqual(jq.exchange_rates);
    // A sent quotation cannot be repriced.
    await patch(jq.id, { json: { status: "sent" } });
    const late = await api(`/api/v1/quotations/${jq.id}`, {
      method: "PATCH",
      json: { reprice: true, items: [{ product_id: kettleId, quantity: 1 }] },
    });
    expect(late.status).toBe(409);
    expect((await read(jq.id)).body.items[0]!.unit_price).toBe(23_686);
  });
});
