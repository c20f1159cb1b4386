import { sql } from "drizzle-orm";
import JSZip from "jszip";
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

// Exports are read back with jszip and the raw sheet XML, not with exceljs (the writer), so a
// cell that only exceljs would call a date does not pass.

const ctx = await createTestContext();
const { app, deps } = ctx;
type CustomerBody = NonNullable<ApiOptions<Operation<"/api/v1/customers", "post">>["json"]>;
type ProductBody = NonNullable<ApiOptions<Operation<"/api/v1/products", "post">>["json"]>;

async function download(path: string, token: string) {
  const res = await app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function upload(path: string, token: string, bytes: Uint8Array, filename: string) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], filename));
  return call(app, path, { method: "POST", token, body: form });
}

interface RawSheet {
  xml: string;
  /** Cells by reference ("A1"): style index, type attribute and the raw value or text. */
  cells: Map<string, { s: number; t: string | null; v: string }>;
  /** Number format code of each cell style index. */
  formats: string[];
}

/** Excel's built-in date formats (ECMA-376 18.8.30) by numFmtId. */
const BUILTIN_DATE_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

async function rawSheet(bytes: Uint8Array): Promise<RawSheet> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
  const styles = await zip.file("xl/styles.xml")!.async("string");
  const sharedXml = (await zip.file("xl/sharedStrings.xml")?.async("string")) ?? "";
  const shared = [...sharedXml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    [...m[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => unescapeXml(t[1]!)).join(""),
  );
  const custom = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
      Number(m[1]),
      unescapeXml(m[2]!),
    ]),
  );
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)![1]!;
  const formats = [...cellXfs.matchAll(/<xf [^>]*?numFmtId="(\d+)"/g)].map((m) => {
    const id = Number(m[1]);
    return custom.get(id) ?? (BUILTIN_DATE_IDS.has(id) ? `builtin-date-${id}` : `builtin-${id}`);
  });
  const cells = new Map<string, { s: number; t: string | null; v: string }>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attrs = m[2]!;
    const s = Number(/ s="(\d+)"/.exec(attrs)?.[1] ?? 0);
    const t = / t="(\w+)"/.exec(attrs)?.[1] ?? null;
    const inner = m[3] ?? "";
    const v = unescapeXml(/<v>([\s\S]*?)<\/v>/.exec(inner)?.[1] ?? "");
    // An inline string (the streamed export's text cells): the text of its <t> runs.
    const inline = [...inner.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => unescapeXml(t[1]!));
    cells.set(m[1]!, {
      s,
      t,
      v: t === "s" ? shared[Number(v)]! : t === "inlineStr" ? inline.join("") : v,
    });
  }
  return { xml, cells, formats };
}

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

const isDateFormat = (code: string) =>
  code.startsWith("builtin-date-") || /^[^"]*(yy|dd|mm)/i.test(code.replace(/"[^"]*"/g, ""));

/** Excel serial day number (1900 system) of an instant. */
const serial = (iso: string) => Date.parse(iso) / 86_400_000 + 25_569;

/** The column letter of each header cell in row 1. */
function headerColumns(sheet: RawSheet): Map<string, string> {
  const out = new Map<string, string>();
  for (const [ref, cell] of sheet.cells) {
    const m = /^([A-Z]+)1$/.exec(ref);
    if (m) out.set(cell.v, m[1]!);
  }
  return out;
}

function expectSheetLayout(sheet: RawSheet) {
  expect(sheet.xml).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
  const widths = [...sheet.xml.matchAll(/<col [^>]*width="([\d.]+)"/g)].map((m) => Number(m[1]));
  expect(widths.length).toBeGreaterThan(3);
  for (const w of widths) {
    expect(w).toBeGreaterThanOrEqual(8);
    expect(w).toBeLessThanOrEqual(60);
  }
}

interface CustomerRow {
  company: string | null;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  whatsapp: string | null;
  country: string | null;
  source: string | null;
  tags: string[];
  status: string;
  notes: string | null;
  estimated_value: number | null;
  estimated_currency: string;
  last_contact_at: string | null;
  next_followup_at: string | null;
}

/** Every field a seller gives a customer; timestamps as ISO text so they compare exactly. */
const customersOf = (userId: string) =>
  queryRows<CustomerRow>(
    deps.db,
    sql`select company, contact_name, email, phone, whatsapp, country, source, tags, status,
        notes, estimated_value, estimated_currency,
        to_char(last_contact_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as last_contact_at,
        to_char(next_followup_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as next_followup_at
      from customers where user_id = ${userId}::uuid order by coalesce(email, company)`,
  );

async function seedCustomers(user: Session) {
  // Typed by the OpenAPI document (ADR 0095).
  const api = (json: CustomerBody) =>
    typed(app).post("/api/v1/customers", { token: user.accessToken, json });
  const full = await api({
    company: "Acme, Inc.",
    contact_name: "Lee Ann",
    email: "ann@acme.example",
    phone: "+1 555 0100",
    whatsapp: "+1 555 0101",
    country: "US",
    source: "Canton Fair",
    tags: ["vip", "textiles"],
    notes: '=HYPERLINK("http://x")\nsecond line',
    estimated_value: 1_234_567,
    estimated_currency: "USD",
    next_followup_at: "2030-01-02T03:04:05.678Z",
  });
  expect(full.status, JSON.stringify(full.body)).toBe(201);
  expectStatus(full, 201);
  const yen = await api({
    company: "上海贸易有限公司",
    contact_name: "王伟",
    email: "wang@sh.example",
    estimated_value: 5000,
    estimated_currency: "JPY",
    next_followup_at: "2030-06-01T00:00:00.000Z",
  });
  expect(yen.status).toBe(201);
  const bare = await api({ company: "No Email Co" });
  expect(bare.status).toBe(201);
  await typed(app).patch("/api/v1/customers/{id}", {
    token: user.accessToken,
    params: { id: full.body.id },
    json: { status: "contacted" },
  });
  // Set by logging a follow-up; written directly here so the value is exact.
  await queryRows(
    deps.db,
    sql`update customers set last_contact_at = '2029-12-31T23:59:58.123Z'
        where id = ${full.body.id}::uuid`,
  );
  await queryRows(
    deps.db,
    sql`update customers set last_contact_at = '2029-05-04T00:00:00Z'
        where id = ${yen.body.id}::uuid`,
  );
}

describe("customer export", () => {
  it("writes date cells, number cells, a frozen header and fitted columns", async () => {
    const user = await registerUser(app);
    await seedCustomers(user);
    const { res, bytes } = await download("/api/v1/customers/export", user.accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("spreadsheetml");
    const sheet = await rawSheet(bytes);
    expectSheetLayout(sheet);
    const col = headerColumns(sheet);
    expect([...col.keys()]).toEqual([
      "company",
      "contact_name",
      "email",
      "phone",
      "whatsapp",
      "country",
      "source",
      "tags",
      "status",
      "notes",
      "estimated_value",
      "estimated_currency",
      "last_contact_at",
      "next_followup_at",
    ]);
    // Row 2 is the oldest customer (Acme).
    for (const [field, iso] of [
      ["last_contact_at", "2029-12-31T23:59:58.123Z"],
      ["next_followup_at", "2030-01-02T03:04:05.678Z"],
    ] as const) {
      const cell = sheet.cells.get(`${col.get(field)}2`)!;
      expect(cell.t, field).toBeNull(); // a number cell, not a string
      expect(Number(cell.v)).toBeCloseTo(serial(iso), 9);
      expect(isDateFormat(sheet.formats[cell.s]!), sheet.formats[cell.s]).toBe(true);
    }
    const value = sheet.cells.get(`${col.get("estimated_value")}2`)!;
    expect(value).toMatchObject({ t: null, v: "12345.67" });
    expect(sheet.cells.get(`${col.get("estimated_value")}3`)).toMatchObject({ t: null, v: "5000" });
    // Text is a string cell as typed: no CSV guard apostrophe in .xlsx.
    expect(sheet.cells.get(`${col.get("notes")}2`)).toMatchObject({
      t: "inlineStr",
      v: '=HYPERLINK("http://x")\nsecond line',
    });
    expect(sheet.cells.get(`${col.get("company")}3`)!.v).toBe("上海贸易有限公司");
  });

  for (const format of ["xlsx", "csv"] as const) {
    it(`round-trips every field into another account (${format})`, async () => {
      const seller = await registerUser(app);
      await seedCustomers(seller);
      const before = await customersOf(seller.userId);
      expect(before).toHaveLength(3);
      expect(before.some((r) => r.last_contact_at === "2029-12-31T23:59:58.123Z")).toBe(true);

      const out = await download(`/api/v1/customers/export?format=${format}`, seller.accessToken);
      expect(out.res.status).toBe(200);
      const other = await registerUser(app);
      const imported = await upload(
        "/api/v1/customers/import",
        other.accessToken,
        out.bytes,
        `customers.${format}`,
      );
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ rows: 3, created: 3, updated: 0, invalid: 0 });
      const after = await customersOf(other.userId);
      expect(after).toHaveLength(before.length);
      // Field by field, so a failure names the field that was lost.
      before.forEach((row, i) => {
        for (const field of Object.keys(row) as (keyof CustomerRow)[]) {
          expect(after[i]![field], `${row.company} ${field}`).toEqual(row[field]);
        }
      });
    });
  }

  it("needs an access token and refuses an unknown format", async () => {
    expect((await call(app, "/api/v1/customers/export")).status).toBe(401);
    const user = await registerUser(app);
    const bad = await call(app, "/api/v1/customers/export?format=pdf", {
      token: user.accessToken,
    });
    expect(bad.status).toBe(422);
  });
});

describe("product export", () => {
  async function seedProducts(user: Session) {
    // Typed by the OpenAPI document (ADR 0095).
    const api = (json: ProductBody) =>
      typed(app).post("/api/v1/products", { token: user.accessToken, json });
    for (const json of [
      {
        name: "不锈钢保温杯",
        sku: "CUP-304",
        price: 1299,
        currency: "USD",
        unit: "pcs",
        moq: 1000,
        category: "Drinkware",
        description: "双层真空\n304 stainless",
        hs_code: "9617.00",
      },
      { name: "Kettle", sku: "KT-1", price: 150_000, currency: "JPY", moq: 12 },
      { name: "@Sample only" },
    ]) {
      const res = await api(json);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }
  const productsOf = (userId: string) =>
    queryRows<Record<string, unknown>>(
      deps.db,
      sql`select name, sku, price, currency, unit, moq, category, description, hs_code
        from products where user_id = ${userId}::uuid order by name`,
    );

  it("exports .xlsx with number cells, a frozen header and the import's headers", async () => {
    const user = await registerUser(app);
    await seedProducts(user);
    const { res, bytes } = await download("/api/v1/products/export", user.accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="products-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const sheet = await rawSheet(bytes);
    expectSheetLayout(sheet);
    const col = headerColumns(sheet);
    expect([...col.keys()]).toEqual([
      "name",
      "sku",
      "price",
      "currency",
      "unit",
      "moq",
      "category",
      "description",
      "hs_code",
      "lead_time_days",
      "aliases",
    ]);
    expect(sheet.cells.get(`${col.get("price")}2`)).toMatchObject({ t: null, v: "12.99" });
    expect(sheet.cells.get(`${col.get("moq")}2`)).toMatchObject({ t: null, v: "1000" });
    expect(sheet.cells.get(`${col.get("price")}3`)).toMatchObject({ t: null, v: "150000" });
    // A string cell as typed: the CSV guard apostrophe is not written into .xlsx.
    expect(sheet.cells.get(`${col.get("name")}4`)).toMatchObject({
      t: "inlineStr",
      v: "@Sample only",
    });
    // The description with a line break is wrapped, and wide CJK text widens its column.
    const nameWidth = Number(/<col min="1" max="1" width="([\d.]+)"/.exec(sheet.xml)![1]);
    expect(nameWidth).toBeGreaterThanOrEqual(14);
  });

  for (const format of ["xlsx", "csv"] as const) {
    it(`round-trips into another account (${format})`, async () => {
      const user = await registerUser(app);
      await seedProducts(user);
      const out = await download(`/api/v1/products/export?format=${format}`, user.accessToken);
      expect(out.res.status).toBe(200);
      if (format === "csv") {
        expect(out.res.headers.get("content-type")).toContain("text/csv");
        const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(out.bytes);
        expect(text.split("\r\n")[0]).toBe(
          "\uFEFFname,sku,price,currency,unit,moq,category,description,hs_code,lead_time_days,aliases",
        );
        expect(text).toContain("'@Sample only");
      }
      const other = await registerUser(app);
      const res = await upload(
        "/api/v1/products/import",
        other.accessToken,
        out.bytes,
        `p.${format}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ rows: 3, created: 3, would_create: 3 });
      expect(await productsOf(other.userId)).toEqual(await productsOf(user.userId));
    });
  }

  it("answers only the caller's products and needs a token", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    await seedProducts(b);
    const out = await download("/api/v1/products/export?format=csv", a.accessToken);
    expect(out.res.status).toBe(200);
    const text = new TextDecoder().decode(out.bytes);
    expect(text).not.toContain("CUP-304");
    expect(text.trim().split("\r\n")).toHaveLength(1);
    expect((await call(app, "/api/v1/products/export")).status).toBe(401);
    expect((await call(app, "/api/v1/products/export", { token: "nope" })).status).toBe(401);
    const bad = await call(app, "/api/v1/products/export?format=ods", { token: a.accessToken });
    expect(bad.status).toBe(422);
  });

  it("is declared in the OpenAPI document with both formats", async () => {
    const res = await call(app, "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const op = res.body.paths["/api/v1/products/export"]?.get;
    expect(op).toBeDefined();
    expect(Object.keys(op.responses["200"].content)).toEqual(
      expect.arrayContaining(["text/csv", expect.stringContaining("spreadsheetml")]),
    );
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain("format");
  });
});

describe("quotation .xlsx", () => {
  it("has date cells, number cells, text as typed and a frozen items header", async () => {
    const user = await registerUser(app);
    const created = await typed(app).post("/api/v1/quotations", {
      token: user.accessToken,
      json: {
        currency: "USD",
        valid_until: "2030-03-31",
        notes: "=1+1 is not a formula",
        items: [{ name: "Silicone sleeve", quantity: 1000, unit_price: 45 }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectStatus(created, 201);
    const q = created.body;
    const { res, bytes } = await download(
      `/api/v1/quotations/${q.id}/export?format=xlsx`,
      user.accessToken,
    );
    expect(res.status).toBe(200);
    const sheet = await rawSheet(bytes);
    const byLabel = (label: string) => {
      const ref = [...sheet.cells].find(([r, c]) => /^A\d+$/.test(r) && c.v === label)?.[0];
      expect(ref, label).toBeDefined();
      return sheet.cells.get(`B${ref!.slice(1)}`)!;
    };
    const valid = byLabel("Valid until");
    expect(valid.t).toBeNull();
    expect(Number(valid.v)).toBe(serial("2030-03-31T00:00:00Z"));
    expect(isDateFormat(sheet.formats[valid.s]!)).toBe(true);
    const date = byLabel("Date");
    expect(Number(date.v)).toBe(serial(`${q.created_at.slice(0, 10)}T00:00:00Z`));
    expect(isDateFormat(sheet.formats[date.s]!)).toBe(true);
    expect(byLabel("Notes")).toMatchObject({ t: "s", v: "=1+1 is not a formula" });
    // The frozen split is the items header row.
    const headerRow = [...sheet.cells].find(([, c]) => c.v === "No.")![0].slice(1);
    expect(sheet.xml).toMatch(new RegExp(`<pane [^>]*ySplit="${headerRow}"[^>]*state="frozen"`));
    expect(sheet.xml).toMatch(/<col [^>]*width="/);
    const item = Number(headerRow) + 1;
    expect(sheet.cells.get(`E${item}`)).toMatchObject({ t: null, v: "1000" });
    expect(sheet.cells.get(`F${item}`)).toMatchObject({ t: null, v: "0.45" });
  });
});
