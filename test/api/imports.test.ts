import { deflateRawSync, inflateRawSync } from "node:zlib";
import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { entryData, inspectZip } from "../../src/lib/zip-guard";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function upload(
  path: string,
  token: string,
  bytes: Uint8Array | string,
  filename: string,
  type = filename.endsWith(".csv") ? "text/csv" : XLSX,
) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], filename, { type }));
  return call(app, path, { method: "POST", token, body: form });
}

async function xlsx(rows: (string | number | Date | null)[][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Sheet1");
  for (const row of rows) ws.addRow(row);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

async function readXlsx(bytes: ArrayBuffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((row) => {
    out.push((row.values as unknown[]).slice(1).map((v) => (v == null ? "" : String(v))));
  });
  return out;
}

async function download(path: string, token: string) {
  const res = await app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  return { res, bytes: await res.arrayBuffer() };
}

interface CustomerRow {
  id: string;
  company: string | null;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  tags: string[];
  status: string;
  notes: string | null;
  estimated_value: number | null;
  estimated_currency: string;
  next_followup_at: Date | string | null;
  updated_at: Date | string;
}

const customersOf = (userId: string) =>
  queryRows<CustomerRow>(
    deps.db,
    sql`select * from customers where user_id = ${userId}::uuid order by created_at, email`,
  );
const productsOf = (userId: string) =>
  queryRows<{
    name: string;
    sku: string | null;
    price: number | null;
    currency: string;
    moq: number | null;
  }>(deps.db, sql`select * from products where user_id = ${userId}::uuid order by name`);

const CUSTOMERS = "/api/v1/customers/import";
const PRODUCTS = "/api/v1/products/import";

function zip(entries: { name: string; data: Uint8Array; size: number }[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new Uint8Array(30 + name.length + e.data.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(8, 8, true);
    lv.setUint32(18, e.data.length, true);
    lv.setUint32(22, e.size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    local.set(e.data, 30 + name.length);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(10, 8, true);
    cv.setUint32(20, e.data.length, true);
    cv.setUint32(24, e.size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    parts.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  return new Uint8Array(Buffer.concat([...parts, ...centrals, eocd]));
}

describe("customer import", () => {
  it("imports a CSV with Chinese headers, quotes, escaped quotes, CRLF and a BOM", async () => {
    const user = await registerUser(app);
    const csv =
      "\uFEFF公司名称,联系人,邮箱,电话,国家,标签,状态,备注,预估金额,币种,下次跟进\r\n" +
      '"Acme, Inc.",Li Lei,LI@Acme.com,+86 138 0000,CN,"vip，展会",negotiating,"said ""yes""\r\nnext line",' +
      '"1,234.50",USD,2030-05-01\r\n' +
      "Beta GmbH,,sales@beta.de,,DE,,已报价,,1000,JPY,\r\n";
    const res = await upload(CUSTOMERS, user.accessToken, csv, "客户.csv");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      rows: 2,
      valid: 2,
      invalid: 0,
      created: 2,
      updated: 0,
      would_create: 2,
      would_update: 0,
    });
    const rows = await customersOf(user.userId);
    expect(rows).toHaveLength(2);
    const acme = rows.find((r) => r.company === "Acme, Inc.")!;
    expect(acme).toMatchObject({
      contact_name: "Li Lei",
      email: "li@acme.com",
      tags: ["vip", "展会"],
      status: "negotiating",
      notes: 'said "yes"\r\nnext line',
      estimated_value: 123450,
      estimated_currency: "USD",
    });
    expect(new Date(acme.next_followup_at!).toISOString()).toBe("2030-05-01T00:00:00.000Z");
    const beta = rows.find((r) => r.company === "Beta GmbH")!;
    expect(beta).toMatchObject({
      status: "quoted",
      estimated_value: 1000,
      estimated_currency: "JPY",
    });
  });

  it("dry run writes nothing, previews normalised rows and lists errors by row and column", async () => {
    const user = await registerUser(app);
    const file = await xlsx([
      ["Company", "Email", "Status", "Estimated Value"],
      ["Good Co", "good@example.com", "new", 10.5],
      ["Bad Co", "not-an-email", "sleeping", "12.345"],
      ["", "", "", ""],
      ["", "", "won", 5],
    ]);
    const res = await upload(`${CUSTOMERS}?dry_run=true`, user.accessToken, file, "c.xlsx");
    expect(res.status).toBe(200);
    // A dry run writes nothing: `created` is 0 and the plan is under `would_create`.
    expect(res.body).toMatchObject({
      dry_run: true,
      rows: 3,
      valid: 1,
      invalid: 2,
      created: 0,
      updated: 0,
      would_create: 1,
      would_update: 0,
    });
    expect(res.body.preview).toEqual([
      {
        row: 2,
        action: "create",
        company: "Good Co",
        email: "good@example.com",
        status: "new",
        estimated_value: 1050,
        estimated_currency: "USD",
      },
    ]);
    expect(res.body.errors).toEqual([
      { row: 3, column: "Email", message: expect.stringContaining("valid email") },
      { row: 3, column: "Status", message: expect.stringContaining("must be one of") },
      { row: 3, column: "Estimated Value", message: expect.stringContaining("decimal places") },
      { row: 5, column: "Company", message: "a company or an email is required" },
    ]);
    expect(await customersOf(user.userId)).toHaveLength(0);

    // The same sheet with an error column, to fix and upload again.
    const form = new FormData();
    form.append("file", new File([file as BlobPart], "c.xlsx", { type: XLSX }));
    const errorsRes = await app.request(`${CUSTOMERS}?dry_run=true&errors_file=xlsx`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.accessToken}` },
      body: form,
    });
    expect(errorsRes.status).toBe(200);
    expect(errorsRes.headers.get("content-type")).toContain("spreadsheetml");
    const sheet = await readXlsx(await errorsRes.arrayBuffer());
    expect(sheet[0]).toEqual(["Company", "Email", "Status", "Estimated Value", "error"]);
    expect(sheet).toHaveLength(4);
    expect(sheet[1]![4] ?? "").toBe("");
    expect(sheet[2]![4]).toMatch(/Email .*valid email.*Status/);
    expect(sheet[3]![4]).toMatch(/company or an email/);
    expect(await customersOf(user.userId)).toHaveLength(0);

    const noDry = await upload(`${CUSTOMERS}?errors_file=xlsx`, user.accessToken, file, "c.xlsx");
    expect(noDry.status).toBe(422);
  });

  it("commits nothing when any row is invalid (422 with the errors)", async () => {
    const user = await registerUser(app);
    const csv = "company,email,estimated_value\nA,a@example.com,1\nB,b@example.com,-5\n";
    const res = await upload(CUSTOMERS, user.accessToken, csv, "c.csv");
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { row: 3, column: "estimated_value", message: expect.stringContaining("negative") },
    ]);
    expect(res.body).toMatchObject({ invalid: 1, valid: 1 });
    // Nothing was imported, so nothing is reported as created; the plan is named as one.
    expect(res.body.detail).toMatch(/nothing was imported/);
    expect(res.body).toMatchObject({ created: 0, updated: 0, would_create: 1, would_update: 0 });
    expect(await customersOf(user.userId)).toHaveLength(0);
  });

  it("de-duplicates by email, else company: within the file and against existing rows", async () => {
    const user = await registerUser(app);
    const first = "company,email,phone\nAcme,a@acme.com,1\nNoMail Ltd,,2\n";
    expect((await upload(CUSTOMERS, user.accessToken, first, "c.csv")).body).toMatchObject({
      created: 2,
      updated: 0,
    });
    const second =
      "company,email,phone,notes\n" +
      "Acme Renamed,A@ACME.com,,first\n" + // matches by email; empty phone keeps the old one
      "nomail ltd,,,matched by company\n" +
      "New Co,new@co.com,3,\n" +
      "New Co,new@co.com,4,later row wins\n";
    const res = await upload(CUSTOMERS, user.accessToken, second, "c.csv");
    expect(res.body).toMatchObject({ rows: 4, valid: 4, created: 1, updated: 2, duplicates: 3 });
    const rows = await customersOf(user.userId);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.email === "a@acme.com")).toMatchObject({
      company: "Acme Renamed",
      phone: "1",
      notes: "first",
    });
    // Non-empty cells overwrite, so the company takes the file's spelling.
    expect(rows.find((r) => r.company === "nomail ltd")).toMatchObject({
      phone: "2",
      notes: "matched by company",
    });
    expect(rows.find((r) => r.email === "new@co.com")).toMatchObject({
      phone: "4",
      notes: "later row wins",
    });
  });

  it("round-trips: export (.xlsx and csv) then import creates no duplicates and changes nothing", async () => {
    const user = await registerUser(app);
    const csv =
      "company,contact,email,phone,whatsapp,country,source,tags,status,notes,estimated_value,currency,next_followup_at\n" +
      'Acme,"Lee, Ann",ann@acme.com,+1 555,+1 555,US,fair,"a, b",won,"=SUM(1)",99.99,USD,2030-01-02T03:04:05Z\n' +
      '上海贸易,王伟,wang@sh.cn,,,CN,,,new,"multi\nline",5000,JPY,\n' +
      "No Email Co,,,,,,,,,,,,\n";
    expect((await upload(CUSTOMERS, user.accessToken, csv, "c.csv")).status).toBe(200);
    const before = await customersOf(user.userId);
    expect(before).toHaveLength(3);
    const strip = (rows: CustomerRow[]) =>
      rows.map(({ updated_at: _u, ...rest }) => ({
        ...rest,
        next_followup_at: rest.next_followup_at && new Date(rest.next_followup_at).toISOString(),
      }));

    const xl = await download("/api/v1/customers/export", user.accessToken);
    expect(xl.res.status).toBe(200);
    expect(xl.res.headers.get("content-disposition")).toMatch(
      /attachment; filename="customers-.*\.xlsx"/,
    );
    const again = await upload(
      CUSTOMERS,
      user.accessToken,
      new Uint8Array(xl.bytes),
      "export.xlsx",
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ rows: 3, created: 0, updated: 3, invalid: 0 });
    expect(strip(await customersOf(user.userId))).toEqual(strip(before));

    const csvOut = await download("/api/v1/customers/export?format=csv", user.accessToken);
    expect(csvOut.res.headers.get("content-type")).toContain("text/csv");
    const csvText = new TextDecoder().decode(csvOut.bytes);
    expect(csvText).toContain("'=SUM(1)"); // formula guard, undone on import
    const third = await upload(CUSTOMERS, user.accessToken, new Uint8Array(csvOut.bytes), "e.csv");
    expect(third.body).toMatchObject({ rows: 3, created: 0, updated: 3 });
    expect(strip(await customersOf(user.userId))).toEqual(strip(before));
  });

  it("keeps tenants apart: export has only own rows, import never touches another user's", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    const csv = "company,email,notes\nShared Co,shared@example.com,from B\n";
    expect((await upload(CUSTOMERS, b.accessToken, csv, "b.csv")).body.created).toBe(1);
    const res = await upload(CUSTOMERS, a.accessToken, csv.replace("from B", "from A"), "a.csv");
    expect(res.body).toMatchObject({ created: 1, updated: 0 });
    expect((await customersOf(b.userId))[0]).toMatchObject({ notes: "from B" });
    const out = await download("/api/v1/customers/export?format=csv", a.accessToken);
    const text = new TextDecoder().decode(out.bytes);
    expect(text).toContain("from A");
    expect(text).not.toContain("from B");
    expect((await call(app, "/api/v1/customers/export")).status).toBe(401);
    expect((await upload(CUSTOMERS, "nope", csv, "c.csv")).status).toBe(401);
  });
});

describe("import rejections write nothing", () => {
  it("413 past 10 MB", async () => {
    const user = await registerUser(app);
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    const res = await upload(CUSTOMERS, user.accessToken, big, "big.csv");
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/too large/i);
    expect(await customersOf(user.userId)).toHaveLength(0);
  });

  it("422 for a renamed .txt as .xlsx, a renamed .xlsx as .csv, other types and no file", async () => {
    const user = await registerUser(app);
    const txt = await upload(CUSTOMERS, user.accessToken, "company\nAcme\n", "notes.xlsx");
    expect(txt.status).toBe(422);
    expect(txt.body.detail).toMatch(/not a valid \.xlsx/);
    const book = await xlsx([["company"], ["Acme"]]);
    const renamed = await upload(CUSTOMERS, user.accessToken, book, "book.csv", "text/csv");
    expect(renamed.status).toBe(422);
    expect(renamed.body.detail).toMatch(/not a CSV/);
    const pdf = await upload(CUSTOMERS, user.accessToken, "%PDF-1.4", "x.pdf");
    expect(pdf.status).toBe(422);
    const latin1 = await upload(
      CUSTOMERS,
      user.accessToken,
      new Uint8Array([0x63, 0x6f, 0x0a, 0xe9, 0x0a]),
      "l.csv",
    );
    expect(latin1.status).toBe(422);
    const notZipBook = zip([
      { name: "a.txt", data: new Uint8Array(deflateRawSync(Buffer.from("hi"))), size: 2 },
    ]);
    const noWorkbook = await upload(CUSTOMERS, user.accessToken, notZipBook, "z.xlsx");
    expect(noWorkbook.status).toBe(422);
    const empty = await call(app, CUSTOMERS, {
      method: "POST",
      token: user.accessToken,
      body: new FormData(),
    });
    expect(empty.status).toBe(422);
    expect(await customersOf(user.userId)).toHaveLength(0);
  });

  it("422 for a zip bomb, in under a second and under 100 MB of memory growth", async () => {
    const user = await registerUser(app);
    const zeros = new Uint8Array(200 * 1024 * 1024);
    const sheet = new Uint8Array(deflateRawSync(zeros, { level: 9 }));
    const small = (s: string) => ({
      name: s,
      data: new Uint8Array(deflateRawSync(Buffer.from("<x/>"))),
      size: 4,
    });
    const bomb = zip([
      small("[Content_Types].xml"),
      small("xl/workbook.xml"),
      { name: "xl/worksheets/sheet1.xml", data: sheet, size: zeros.length },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const m0 = process.memoryUsage();
    const started = performance.now();
    const res = await upload(CUSTOMERS, user.accessToken, bomb, "bomb.xlsx");
    const elapsed = performance.now() - started;
    const m1 = process.memoryUsage();
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/zip bomb|too large/);
    expect(elapsed).toBeLessThan(1000);
    expect(m1.heapUsed + m1.arrayBuffers - (m0.heapUsed + m0.arrayBuffers)).toBeLessThan(
      100 * 1024 * 1024,
    );
    expect(await customersOf(user.userId)).toHaveLength(0);
  });

  it("422 for 5,001 rows (csv and xlsx); 5,000 are accepted", async () => {
    const user = await registerUser(app);
    const lines = (n: number) =>
      `company,email\n${Array.from({ length: n }, (_, i) => `C${i},c${i}@example.com`).join("\n")}\n`;
    const over = await upload(CUSTOMERS, user.accessToken, lines(5001), "c.csv");
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatch(/5001 data rows; at most 5000/);
    const book = await xlsx([["company"], ...Array.from({ length: 5001 }, (_, i) => [`C${i}`])]);
    const overXlsx = await upload(CUSTOMERS, user.accessToken, book, "c.xlsx");
    expect(overXlsx.status).toBe(422);
    expect(await customersOf(user.userId)).toHaveLength(0);
    const ok = await upload(CUSTOMERS, user.accessToken, lines(5000), "c.csv");
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(5000);
    expect(await customersOf(user.userId)).toHaveLength(5000);
  });
});

describe("product import", () => {
  it("imports Chinese headers, prices in minor units, de-duplicates by sku then name", async () => {
    const user = await registerUser(app);
    const file = await xlsx([
      ["产品名称", "货号", "单价", "币种", "单位", "起订量", "类别", "描述", "海关编码"],
      ["LED 灯", "L-1", 12.5, "USD", "pcs", 100, "照明", "暖光", "9405.40"],
      ["Cable", "", "0.99", "", "m", "", "", "", ""],
      ["LED 灯 v2", "L-1", 13, "USD", "", "", "", "", ""],
    ]);
    const res = await upload(PRODUCTS, user.accessToken, file, "产品.xlsx");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ rows: 3, created: 2, duplicates: 1 });
    expect(await productsOf(user.userId)).toMatchObject([
      { name: "Cable", sku: null, price: 99, currency: "USD" },
      { name: "LED 灯 v2", sku: "L-1", price: 1300, moq: 100 },
    ]);
    const update = "name,sku,price\ncable,,1.5\nX,L-1,\n";
    const again = await upload(PRODUCTS, user.accessToken, update, "p.csv");
    expect(again.body).toMatchObject({ created: 0, updated: 2 });
    const after = await productsOf(user.userId);
    expect(after.find((p) => p.sku === "L-1")).toMatchObject({ name: "X", price: 1300, moq: 100 });
    expect(after.find((p) => p.sku === null)).toMatchObject({ name: "cable", price: 150 });
    const bad = await upload(PRODUCTS, user.accessToken, "name,price,moq\nA,1.234,0\n", "p.csv");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { column: string }) => e.column)).toEqual(["price", "moq"]);
    expect(await productsOf(user.userId)).toHaveLength(2);
  });
});

// Needs app.ts to skip the global BODY_LIMIT_BYTES (1 MiB) for IMPORT_PATHS; enable then.
it("accepts a valid upload over the global 1 MiB body limit", async () => {
  const user = await registerUser(app);
  const pad = "x".repeat(400);
  const csv = `company,notes\n${Array.from({ length: 4000 }, (_, i) => `C${i},${pad}`).join("\n")}\n`;
  expect(csv.length).toBeGreaterThan(1.5 * 1024 * 1024);
  const res = await upload(CUSTOMERS, user.accessToken, csv, "c.csv");
  expect(res.status).toBe(200);
});

/** The entries of an .xlsx, inflated (to edit one and zip them again with `zip`). */
function unzip(bytes: Uint8Array): Map<string, string> {
  return new Map(
    inspectZip(bytes).map((e) => {
      const data = entryData(bytes, e);
      return [e.name, (e.method === 0 ? Buffer.from(data) : inflateRawSync(data)).toString("utf8")];
    }),
  );
}

function rezip(parts: Map<string, string>): Uint8Array {
  return zip(
    [...parts].map(([name, text]) => {
      const raw = Buffer.from(text, "utf8");
      return { name, data: new Uint8Array(deflateRawSync(raw)), size: raw.length };
    }),
  );
}

describe(".xlsx through the streaming reader", () => {
  it("reads shared strings, rich text, hyperlinks, dates and formula results as before", async () => {
    const user = await registerUser(app);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("客户");
    ws.addRow(["公司名称", "邮箱", "备注", "预估金额", "下次跟进", "标签"]);
    ws.addRow([
      { richText: [{ text: "Acme ", font: { bold: true } }, { text: "贸易" }] },
      { text: "Sales@Acme.com", hyperlink: "mailto:sales@acme.com" },
      { text: "see site", hyperlink: "https://acme.example" },
      { formula: "1000+234.5", result: 1234.5 },
      new Date(Date.UTC(2030, 4, 1)),
      "vip",
    ]);
    ws.addRow([
      "Beta",
      "beta@example.com",
      { formula: '"备注"&"二"', result: "备注二" },
      10,
      { formula: "DATE(2030,6,2)", result: new Date(Date.UTC(2030, 5, 2, 9, 30)) },
      "vip",
    ]);
    ws.getCell("E3").numFmt = "yyyy-mm-dd hh:mm";
    const file = new Uint8Array(await wb.xlsx.writeBuffer());
    // The strings are in xl/sharedStrings.xml, the date formats in xl/styles.xml.
    expect(unzip(file).get("xl/sharedStrings.xml")).toContain("vip");
    const res = await upload(`${CUSTOMERS}?dry_run=true`, user.accessToken, file, "c.xlsx");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.preview).toEqual([
      {
        row: 2,
        action: "create",
        company: "Acme 贸易",
        email: "sales@acme.com",
        notes: "see site",
        estimated_value: 123450,
        estimated_currency: "USD",
        next_followup_at: "2030-05-01T00:00:00.000Z",
        tags: ["vip"],
      },
      {
        row: 3,
        action: "create",
        company: "Beta",
        email: "beta@example.com",
        notes: "备注二",
        estimated_value: 1000,
        estimated_currency: "USD",
        next_followup_at: "2030-06-02T09:30:00.000Z",
        tags: ["vip"],
      },
    ]);
  });

  it("reads the first worksheet in tab order that has data, from its first non-empty row", async () => {
    const user = await registerUser(app);
    const wb = new ExcelJS.Workbook();
    const notes = wb.addWorksheet("Notes"); // xl/worksheets/sheet1.xml, last tab
    notes.addRow(["company", "email"]);
    notes.addRow(["Wrong Sheet", "wrong@example.com"]);
    const blank = wb.addWorksheet("Blank"); // sheet2.xml, first tab, no values
    const data = wb.addWorksheet("Data"); // sheet3.xml, second tab
    data.getRow(3).values = ["company", "email"];
    data.getRow(4).values = ["Acme", "a@acme.com"];
    data.getRow(6).values = ["Beta", "not-an-email"];
    // Tab order (exceljs's untyped `orderNo`): Blank, Data, Notes.
    Object.assign(blank, { orderNo: 0 });
    Object.assign(data, { orderNo: 1 });
    Object.assign(notes, { orderNo: 2 });
    const file = new Uint8Array(await wb.xlsx.writeBuffer());
    const book = unzip(file).get("xl/workbook.xml")!;
    expect(book.indexOf('name="Blank"')).toBeLessThan(book.indexOf('name="Data"'));
    expect(book.indexOf('name="Data"')).toBeLessThan(book.indexOf('name="Notes"'));
    const res = await upload(`${CUSTOMERS}?dry_run=true`, user.accessToken, file, "c.xlsx");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ rows: 2, valid: 1, invalid: 1 });
    expect(res.body.preview).toEqual([
      { row: 4, action: "create", company: "Acme", email: "a@acme.com" },
    ]);
    expect(res.body.errors).toEqual([
      { row: 6, column: "email", message: expect.stringContaining("valid email") },
    ]);
  });

  it("gives each cell of a merged range the merged value, as the full loader did", async () => {
    const user = await registerUser(app);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("S");
    ws.addRow(["company", "email"]);
    ws.addRow(["深圳贸易", "a@sz.cn"]);
    ws.addRow([null, "b@sz.cn"]);
    ws.mergeCells("A2:A3");
    const res = await upload(
      `${CUSTOMERS}?dry_run=true`,
      user.accessToken,
      new Uint8Array(await wb.xlsx.writeBuffer()),
      "c.xlsx",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.preview).toEqual([
      { row: 2, action: "create", company: "深圳贸易", email: "a@sz.cn" },
      { row: 3, action: "create", company: "深圳贸易", email: "b@sz.cn" },
    ]);
  });

  it("keeps Chinese text intact where it spans two inflated chunks", async () => {
    const user = await registerUser(app);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("S");
    ws.addRow(["公司名称", "备注"]);
    // Formula results are written inside the sheet XML itself, not in the shared strings.
    const note = (i: number) => `备注${i}：询价产品，展会后跟进。`;
    for (let i = 0; i < 3000; i++) {
      ws.addRow([`C${i}`, { formula: `"${note(i)}"`, result: note(i) }]);
    }
    const form = new FormData();
    const file = new Uint8Array(await wb.xlsx.writeBuffer());
    form.append("file", new File([file as BlobPart], "c.xlsx", { type: XLSX }));
    const res = await app.request(`${CUSTOMERS}?dry_run=true&errors_file=csv`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.accessToken}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const lines = new TextDecoder()
      .decode(await res.arrayBuffer())
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(3001);
    expect(lines.filter((l) => l.includes("\uFFFD"))).toEqual([]);
    expect(lines[2999 + 1]).toBe(`C2999,${note(2999)},`);
    expect(lines.slice(1).every((l, i) => l === `C${i},${note(i)},`)).toBe(true);
  });

  it("refuses past 5,000 rows as soon as row 5,001 is read, without reading the rest", async () => {
    const user = await registerUser(app);
    const book = async (rows: number) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet("S");
      ws.addRow(["company"]);
      for (let i = 0; i < rows; i++) ws.addRow([`Company number ${i}`]);
      const parts = unzip(new Uint8Array(await wb.xlsx.writeBuffer()));
      // Broken XML after the rows: any reader that gets this far fails on it.
      const sheet = parts.get("xl/worksheets/sheet1.xml")!;
      parts.set(
        "xl/worksheets/sheet1.xml",
        sheet.replace("</sheetData>", '<row r="99999"><c></row></sheetData>'),
      );
      return rezip(parts);
    };
    const broken = await upload(CUSTOMERS, user.accessToken, await book(10), "c.xlsx");
    expect(broken.status).toBe(422);
    expect(broken.body.reason).toBe("format");
    const started = performance.now();
    const over = await upload(CUSTOMERS, user.accessToken, await book(8000), "c.xlsx");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ reason: "rows", errors: [] });
    expect(over.body.detail).toMatch(/more than 5000 data rows; at most 5000/);
    expect(await customersOf(user.userId)).toHaveLength(0);
  });

  it("refuses a worksheet that inflates past the size its zip header declares", async () => {
    const user = await registerUser(app);
    const parts = unzip(await xlsx([["company"], ["Acme"]]));
    const sheet = Buffer.from(parts.get("xl/worksheets/sheet1.xml")!, "utf8");
    const entries = [...parts].map(([name, text]) => {
      const raw = Buffer.from(text, "utf8");
      return { name, data: new Uint8Array(deflateRawSync(raw)), size: raw.length };
    });
    const liar = entries.find((e) => e.name === "xl/worksheets/sheet1.xml")!;
    liar.size = sheet.length - 10;
    const res = await upload(CUSTOMERS, user.accessToken, zip(entries), "c.xlsx");
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe("zip");
    expect(res.body.detail).toMatch(/past its declared size/);
    expect(await customersOf(user.userId)).toHaveLength(0);
  });
});
