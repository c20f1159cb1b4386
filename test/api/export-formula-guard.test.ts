import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

// Every exporter, read back as a reader would: CSV through a real CSV parser, .xlsx through
// exceljs. A formula typed after a line break inside a cell (`x\n=1`) starts a line of its own
// for any reader that splits lines before it honours quotes, or on a paste of the cell: CSV is
// guarded. An .xlsx string cell is never evaluated, so it holds the text as typed and no cell is
// a formula (test/api/xlsx-strings.test.ts reads the sheet XML itself).

const ctx = await createTestContext();
const { app } = ctx;

/** Text a seller (or a buyer writing into a form) could have typed, with a formula on line 2+. */
const HOSTILE = [
  "x\n=1+1",
  "x\r=1+1",
  "x\r\n=SUM(A1:A9)",
  'first line\n  @HYPERLINK("http://x")',
  "x\n\t+1",
  "x\n-2+3",
  "x\n\n＝1",
  "x\u2028=1",
];

/** Where a reader may start a line inside a cell. */
const LINE_BREAK = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/;
/** A line a spreadsheet would run as a formula (leading blanks skipped, as some readers do). */
const FORMULA_LINE = /^\s*[=+\-@＝＋－＠]/;

/** CR and CRLF inside a cell may come back from a reader as LF. */
const normalLines = (text: string) => text.replace(/\r\n?/g, "\n");
/** How many cells read back as one of the hostile texts, exactly as typed (line ends aside). */
const asTyped = (cells: string[]) =>
  cells.filter((c) => HOSTILE.map(normalLines).includes(normalLines(c))).length;

/** Every line of every cell that would start a formula, as "cell text". */
function liveFormulas(cells: string[]): string[] {
  return cells.filter((cell) => cell.split(LINE_BREAK).some((line) => FORMULA_LINE.test(line)));
}

function csvCells(bytes: Uint8Array): string[] {
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
  return (parse(text, { relax_column_count: true }) as string[][]).flat();
}

async function xlsxCells(bytes: Uint8Array): Promise<string[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  const cells: string[] = [];
  for (const sheet of workbook.worksheets) {
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        // A formula cell is itself a hole: the guard writes text only.
        expect(cell.type, String(cell.address)).not.toBe(ExcelJS.ValueType.Formula);
        cells.push(cell.text);
      }),
    );
  }
  return cells;
}

async function download(user: Session, path: string, init: RequestInit = {}) {
  const res = await app.request(path, {
    ...init,
    headers: { Authorization: `Bearer ${user.accessToken}` },
  });
  expect(res.status, path).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** A seller with the hostile text in customers, products and a quotation. */
async function hostileSeller() {
  const user = await registerUser(app);
  const api = (path: string, json: Record<string, unknown>) =>
    call(app, path, { token: user.accessToken, json });
  for (const [i, text] of HOSTILE.entries()) {
    const customer = await api("/api/v1/customers", { company: `Buyer ${i}`, notes: text });
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    const product = await api("/api/v1/products", {
      name: `Item ${i}`,
      description: text,
      price: 100,
      currency: "USD",
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
  }
  const quotation = await api("/api/v1/quotations", {
    currency: "USD",
    notes: HOSTILE.join(" / "),
    items: HOSTILE.map((text, i) => ({
      name: `Line ${i}`,
      description: text,
      quantity: 1,
      unit_price: 100,
    })),
  });
  expect(quotation.status, JSON.stringify(quotation.body)).toBe(201);
  return { user, quotationId: quotation.body.id as string };
}

describe("the formula guard after a line break in a cell", () => {
  it("guards every line of every cell in the customer and product exports (CSV and .xlsx)", async () => {
    const { user } = await hostileSeller();
    for (const kind of ["customers", "products"]) {
      const csv = csvCells(await download(user, `/api/v1/${kind}/export?format=csv`));
      // The texts are there (guarded), so a missing row cannot pass for a guarded one.
      expect(csv.filter((c) => c.startsWith("x") || c.startsWith("first")).length).toBe(
        HOSTILE.length,
      );
      expect(liveFormulas(csv), `${kind} csv`).toEqual([]);
      const xlsx = await xlsxCells(await download(user, `/api/v1/${kind}/export?format=xlsx`));
      expect(asTyped(xlsx), `${kind} xlsx`).toBe(HOSTILE.length);
    }
  });

  it("writes the quotation's .xlsx text as string cells, as typed (item descriptions and notes)", async () => {
    const { user, quotationId } = await hostileSeller();
    const cells = await xlsxCells(
      await download(user, `/api/v1/quotations/${quotationId}/export?format=xlsx`),
    );
    expect(asTyped(cells)).toBe(HOSTILE.length);
    expect(cells.map(normalLines)).toContain(normalLines(HOSTILE.join(" / ")));
  });

  it("guards the import's error sheet, which echoes the uploaded cells (CSV and .xlsx)", async () => {
    const user = await registerUser(app);
    const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    // Every row fails (bad email), so the error sheet repeats each hostile note.
    const upload = `company,email,notes\r\n${HOSTILE.map(
      (text, i) => `Buyer ${i},not-an-email,${quote(text)}`,
    ).join("\r\n")}\r\n`;
    for (const format of ["csv", "xlsx"] as const) {
      const form = new FormData();
      form.append("file", new File([upload], "customers.csv", { type: "text/csv" }));
      const bytes = await download(
        user,
        `/api/v1/customers/import?dry_run=true&errors_file=${format}`,
        { method: "POST", body: form },
      );
      if (format === "xlsx") {
        const cells = await xlsxCells(bytes);
        expect(asTyped(cells), format).toBe(HOSTILE.length);
        continue;
      }
      const cells = csvCells(bytes);
      expect(cells.filter((c) => c.startsWith("x") || c.startsWith("first")).length).toBe(
        HOSTILE.length,
      );
      expect(liveFormulas(cells), format).toEqual([]);
    }
  });

  it("round-trips: an export imported again gives back the text as typed", async () => {
    const { user } = await hostileSeller();
    const other = await registerUser(app);
    for (const format of ["csv", "xlsx"] as const) {
      const bytes = await download(user, `/api/v1/products/export?format=${format}`);
      const form = new FormData();
      form.append("file", new File([bytes as BlobPart], `products.${format}`));
      const dry = await call(app, "/api/v1/products/import?dry_run=true", {
        method: "POST",
        token: other.accessToken,
        body: form,
      });
      expect(dry.status, JSON.stringify(dry.body)).toBe(200);
      const descriptions = (dry.body.preview as { description?: string }[]).map(
        (row) => row.description,
      );
      // CR and CRLF inside a cell may come back as LF; the formula text itself is unguarded.
      const normal = (text: string) => text.replace(/\r\n?/g, "\n");
      expect(descriptions.map((d) => normal(d ?? "")).sort()).toEqual(HOSTILE.map(normal).sort());
    }
  });
});
