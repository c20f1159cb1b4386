import { parse } from "csv-parse/sync";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { guardCell, unguardCell } from "../../src/lib/csv";
import { readCsv, writeCsv, writeXlsx } from "../../src/lib/spreadsheet";

/** Cells a seller (or a buyer writing into a form) could have typed. */
const HOSTILE = [
  "=1+1",
  ";=1+1",
  'a;=HYPERLINK("http://x")',
  "x,=2+2",
  "note|@SUM(A1)",
  "tab\t-3+4",
  "  =1",
  "\t=1",
  "\r=1",
  "＝1+1",
  "备注；＋1",
  '";=1+1"',
  "x; \"=cmd|' /C calc'!A0\"",
  "+86 138 0000 0000",
  "-5",
  "plain text, with a comma; and a semicolon",
  // A formula on a later line of the cell: a line-by-line reader starts a row there.
  "x\n=1+1",
  "x\r=1+1",
  "x\r\n @SUM(A1)",
  "x\n\t-1",
  "x\v=1",
  "x\f=1",
  "x\u0085=1",
  "x\u2028＋1",
  "x\u2029=1",
];

const formulaStart = /^\s*[=+\-@＝＋－＠\t\r]/;

describe("CSV export formula guard", () => {
  it("leaves no cell a spreadsheet would run as a formula, whatever separator the reader splits on", () => {
    const text = new TextDecoder().decode(
      writeCsv(
        ["name", "notes"],
        HOSTILE.map((h) => [h, h]),
      ),
    );
    for (const delimiter of [",", ";", "\t", "|"]) {
      const rows: string[][] = parse(text.replace(/^\uFEFF/, ""), {
        delimiter,
        relax_quotes: true,
        relax_column_count: true,
        skip_empty_lines: true,
      });
      const cells = rows.flat();
      expect(cells.length).toBeGreaterThan(HOSTILE.length);
      const live = cells.filter((cell) => formulaStart.test(cell));
      expect(live, `reader splitting on ${JSON.stringify(delimiter)}`).toEqual([]);
    }
  });

  it("leaves no line of a cell starting a formula, for readers that split lines first", () => {
    const text = new TextDecoder().decode(
      writeCsv(
        ["name"],
        HOSTILE.map((h) => [h]),
      ),
    );
    const lines = text.split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/);
    expect(lines.length).toBeGreaterThan(HOSTILE.length + 9);
    // A line is also a cell after a reader's own opening quote; blanks before it are skipped.
    const live = lines.filter((line) => /^\s*[=+\-@＝＋－＠]/.test(line.replace(/^"/, "")));
    expect(live).toEqual([]);
  });

  it("round-trips through our own import: the guard is undone", () => {
    const bytes = writeCsv(
      ["name", "notes"],
      HOSTILE.map((h) => [h, "x"]),
    );
    const sheet = readCsv(bytes, 100);
    // Blanks at the edges of a cell are not kept by the import.
    expect(sheet.rows.map((r) => r.cells[0]!.trim())).toEqual(HOSTILE.map((h) => h.trim()));
    for (const cell of HOSTILE) expect(unguardCell(guardCell(cell))).toBe(cell);
    expect(unguardCell("'=1")).toBe("=1");
    expect(unguardCell("it's fine")).toBe("it's fine");
  });
});

describe("xlsx export", () => {
  it("stores every text as a string cell: no formula element for a reader to run", async () => {
    const bytes = await writeXlsx(
      "Customers",
      ["name"],
      HOSTILE.map((h) => [h]),
    );
    const zip = await JSZip.loadAsync(bytes);
    const sheet = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
    expect(sheet).not.toMatch(/<f[ >]/);
    const cells = [...sheet.matchAll(/<c [^>]*>/g)].map((m) => m[0]);
    expect(cells.length).toBe(HOSTILE.length + 1);
    for (const cell of cells) expect(cell).toMatch(/t="(s|inlineStr|str)"/);
  });
});
