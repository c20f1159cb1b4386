import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #21: .xlsx exports showed a literal `'` before `+44 ...`. A string cell is never a
// formula, so the xlsx keeps the text as typed; only CSV (no cell types) keeps its guard.
// The sheets are read here from their XML (unzipped with fflate, not by exceljs, which wrote
// some of them): each cell's type (`t`), any formula element, and its text.

const { app } = await createTestContext();

const PHONE = "+44 20 7946 0958";
const FORMULA_TEXT = "=1+1";
const MINUS = "-5% for 100 pcs";

interface SheetCell {
  ref: string;
  type: string | null;
  formula: boolean;
  text: string;
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, "&");

/** The text of every `<t>` run inside an element (a shared string or an inline string). */
const runsText = (xml: string) =>
  [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t\s*\/>/g)]
    .map((m) => unescapeXml(m[1] ?? ""))
    .join("");

function sheetCells(bytes: Uint8Array): SheetCell[] {
  const files = unzipSync(bytes);
  const decode = (name: string) => new TextDecoder().decode(files[name]);
  const shared = files["xl/sharedStrings.xml"]
    ? [...decode("xl/sharedStrings.xml").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        runsText(m[1]!),
      )
    : [];
  const sheets = Object.keys(files).filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n));
  expect(sheets.length).toBeGreaterThan(0);
  const cells: SheetCell[] = [];
  for (const name of sheets) {
    const xml = decode(name);
    for (const m of xml.matchAll(/<c\s([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = m[1]!;
      const body = m[2] ?? "";
      const ref = /\br="([A-Z]+\d+)"/.exec(attrs)?.[1] ?? "";
      const type = /\bt="(\w+)"/.exec(attrs)?.[1] ?? null;
      const value = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      const text =
        type === "s"
          ? (shared[Number(value)] ?? "")
          : type === "inlineStr"
            ? runsText(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? "")
            : unescapeXml(value ?? "");
      cells.push({ ref, type, formula: /<f[\s>/]/.test(body), text });
    }
  }
  return cells;
}

async function download(user: Session, path: string) {
  const res = await app.request(path, { headers: { Authorization: `Bearer ${user.accessToken}` } });
  expect(res.status, path).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The cells holding exactly `text`: each must be a string cell with no formula. */
function expectStringCells(cells: SheetCell[], text: string, where: string) {
  const found = cells.filter((c) => c.text === text);
  expect(found.length, `${where}: a cell reading exactly ${JSON.stringify(text)}`).toBeGreaterThan(
    0,
  );
  for (const cell of found) {
    expect(["s", "inlineStr", "str"], `${where} ${cell.ref}`).toContain(cell.type);
    expect(cell.formula, `${where} ${cell.ref}`).toBe(false);
  }
  expect(
    cells.filter((c) => c.text === `'${text}`),
    `${where}: no apostrophe`,
  ).toEqual([]);
}

describe(".xlsx string cells hold the text as typed", () => {
  it("customers, products and the quotation: `+44 ...` without an apostrophe, as a string", async () => {
    const user = await registerUser(app);
    const api = (path: string, json: Record<string, unknown>) =>
      call(app, path, { token: user.accessToken, csrf: user.csrfToken, json });
    const customer = await api("/api/v1/customers", {
      company: "Buyer Ltd",
      phone: PHONE,
      notes: FORMULA_TEXT,
    });
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    const product = await api("/api/v1/products", {
      name: "Widget",
      description: MINUS,
      price: 100,
      currency: "USD",
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const quotation = await api("/api/v1/quotations", {
      currency: "USD",
      customer_id: customer.body.id,
      notes: PHONE,
      items: [{ name: "Widget", description: FORMULA_TEXT, quantity: 1, unit_price: 100 }],
    });
    expect(quotation.status, JSON.stringify(quotation.body)).toBe(201);

    const customers = sheetCells(await download(user, "/api/v1/customers/export?format=xlsx"));
    expectStringCells(customers, PHONE, "customers");
    expectStringCells(customers, FORMULA_TEXT, "customers");
    const products = sheetCells(await download(user, "/api/v1/products/export?format=xlsx"));
    expectStringCells(products, MINUS, "products");
    const sheet = sheetCells(
      await download(user, `/api/v1/quotations/${quotation.body.id}/export?format=xlsx`),
    );
    expectStringCells(sheet, PHONE, "quotation");
    expectStringCells(sheet, FORMULA_TEXT, "quotation");
    // Nothing anywhere is a formula.
    expect([...customers, ...products, ...sheet].filter((c) => c.formula)).toEqual([]);
  });

  it("the import's .xlsx error sheet echoes the cells as typed", async () => {
    const user = await registerUser(app);
    const form = new FormData();
    const upload = `company,email,phone\r\nBuyer,not-an-email,${PHONE}\r\n`;
    form.append("file", new File([upload], "customers.csv", { type: "text/csv" }));
    const res = await app.request("/api/v1/customers/import?dry_run=true&errors_file=xlsx", {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${user.accessToken}` },
    });
    expect(res.status).toBe(200);
    expectStringCells(sheetCells(new Uint8Array(await res.arrayBuffer())), PHONE, "errors");
  });

  it("CSV keeps its guard: `'+44 ...` and `'=1+1`", async () => {
    const user = await registerUser(app);
    const created = await call(app, "/api/v1/customers", {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: { company: "Buyer Ltd", phone: PHONE, notes: FORMULA_TEXT },
    });
    expect(created.status).toBe(201);
    const text = new TextDecoder()
      .decode(await download(user, "/api/v1/customers/export?format=csv"))
      .replace(/^\uFEFF/, "");
    const cells = (parse(text, { relax_column_count: true }) as string[][]).flat();
    expect(cells).toContain(`'${PHONE}`);
    expect(cells).toContain(`'${FORMULA_TEXT}`);
    expect(cells).not.toContain(PHONE);
  });
});
