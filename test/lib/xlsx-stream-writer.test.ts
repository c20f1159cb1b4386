import { spawnSync } from "node:child_process";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { XLSX_MIME, type XlsxCell } from "../../src/lib/spreadsheet";
import { readXlsxStream } from "../../src/lib/xlsx-stream";
import { type XlsxSheetSpec, xlsxChunks } from "../../src/lib/xlsx-writer";

// The streamed .xlsx writer of exports, read back by three readers that share no code with it
// or with each other: exceljs's full loader, jszip plus a regex over the sheet XML, and Python's
// zipfile + ElementTree (where python3 is on the machine).

const SPEC: XlsxSheetSpec = {
  name: "customers",
  header: ["company", "notes", "estimated_value", "moq", "last_contact_at"],
  formats: { 2: { numFmt: "#,##0.00##" }, 3: { numFmt: "#,##0" } },
};

const AT = new Date("2029-12-31T23:59:58.123Z");
const DAY = new Date("2030-06-01T00:00:00.000Z");

/** Three batches; text that needs escaping, guarding, preserving blanks or wrapping. */
const BATCHES: XlsxCell[][][] = [
  [
    ["上海贸易有限公司", '=HYPERLINK("http://x")\nsecond line', 12345.67, 1000, AT],
    ["A & B <Ltd>", "  padded  ", 5000, null, DAY],
  ],
  [['R&amp;D "quoted"', null, 0.5, 12, null]],
  [["Bell\u0007 Co", "tab\tinside", null, null, null]],
];

async function write(batches: XlsxCell[][][], spec = SPEC): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of xlsxChunks(spec, batchesOf(batches))) parts.push(chunk);
  return new Uint8Array(await new Blob(parts as BlobPart[], { type: XLSX_MIME }).arrayBuffer());
}

async function* batchesOf(batches: XlsxCell[][][]): AsyncGenerator<XlsxCell[][]> {
  yield* batches;
}

const serial = (d: Date) => d.getTime() / 86_400_000 + 25_569;

describe("streamed .xlsx writer", () => {
  it("reads back in exceljs with the same cells, formats, frozen header and widths", async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await write(BATCHES)) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe("customers");
    expect(ws.rowCount).toBe(5);
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const row = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    expect(row(1)).toEqual(SPEC.header);
    expect(ws.getCell("A1").font?.bold).toBe(true);
    expect(row(2)).toEqual([
      "上海贸易有限公司",
      '=HYPERLINK("http://x")\nsecond line',
      12345.67,
      1000,
      AT,
    ]);
    expect(ws.getCell("B2").alignment?.wrapText).toBe(true);
    expect(ws.getCell("C2").numFmt).toBe("#,##0.00##");
    expect(ws.getCell("D2").numFmt).toBe("#,##0");
    expect(ws.getCell("E2").numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(ws.getCell("E3").numFmt).toBe("yyyy-mm-dd");
    expect(ws.getCell("E3").value).toEqual(DAY);
    expect(ws.getCell("A3").value).toBe("A & B <Ltd>");
    expect(ws.getCell("B3").value).toBe("  padded  ");
    expect(ws.getCell("A4").value).toBe('R&amp;D "quoted"');
    // A control character XML cannot hold is dropped, the rest of the text kept.
    expect(ws.getCell("A5").value).toBe("Bell Co");
    expect(ws.getCell("D3").value).toBeNull();
    // Widths from the header and the first batch: the CJK company is 16 units wide.
    expect(ws.getColumn(1).width).toBe(18);
    for (let i = 1; i <= SPEC.header.length; i++) {
      expect(ws.getColumn(i).width).toBeGreaterThanOrEqual(8);
      expect(ws.getColumn(i).width).toBeLessThanOrEqual(60);
    }
  });

  it("reads back through jszip and the raw sheet XML: inline strings, number cells, no formula", async () => {
    const zip = await JSZip.loadAsync(await write(BATCHES));
    const sheet = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
    expect(sheet).not.toMatch(/<f[ >]/);
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
    const cells = new Map(
      [...sheet.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>([\s\S]*?)<\/c>/g)].map((m) => [m[1]!, m]),
    );
    for (const [ref, cell] of cells) {
      if (/^[AB]\d+$/.test(ref)) expect(cell[2], ref).toContain('t="inlineStr"');
    }
    expect(cells.get("C2")![3]).toBe("<v>12345.67</v>");
    expect(cells.get("E2")![3]).toBe(`<v>${serial(AT)}</v>`);
    expect(cells.get("A3")![3]).toBe("<is><t>A &amp; B &lt;Ltd&gt;</t></is>");
    expect(cells.get("B3")![3]).toBe('<is><t xml:space="preserve">  padded  </t></is>');
    const styles = await zip.file("xl/styles.xml")!.async("string");
    const numFmts = new Map(
      [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    const xfs = [.../<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)![1]!.matchAll(/<xf [^>]*/g)];
    const formatOf = (ref: string) => {
      const s = / s="(\d+)"/.exec(cells.get(ref)![2]!)![1]!;
      return numFmts.get(/numFmtId="(\d+)"/.exec(xfs[Number(s)]![0])![1]!);
    };
    expect(formatOf("C2")).toBe("#,##0.00##");
    expect(formatOf("E2")).toBe("yyyy-mm-dd hh:mm:ss");
    expect(formatOf("E3")).toBe("yyyy-mm-dd");
  });

  const python = spawnSync("python3", ["--version"]).status === 0;
  it.skipIf(!python)("reads back in Python's zipfile + ElementTree", async () => {
    const script = `
import io, json, sys, zipfile, xml.etree.ElementTree as ET
ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
assert z.testzip() is None
book = ET.fromstring(z.read("xl/workbook.xml"))
rows = []
for row in ET.fromstring(z.read("xl/worksheets/sheet1.xml")).iterfind(".//m:sheetData/m:row", ns):
    cells = {}
    for c in row.iterfind("m:c", ns):
        if c.get("t") == "inlineStr":
            cells[c.get("r")] = "".join(t.text or "" for t in c.iterfind(".//m:t", ns))
        else:
            cells[c.get("r")] = float(c.find("m:v", ns).text)
    rows.append(cells)
print(json.dumps({"sheet": book.find(".//m:sheet", ns).get("name"), "rows": rows}))
`;
    const run = spawnSync("python3", ["-c", script], { input: await write(BATCHES) });
    expect(run.stderr.toString()).toBe("");
    const out = JSON.parse(run.stdout.toString());
    expect(out.sheet).toBe("customers");
    expect(out.rows).toHaveLength(5);
    expect(out.rows[0].A1).toBe("company");
    expect(out.rows[1]).toEqual({
      A2: "上海贸易有限公司",
      B2: '=HYPERLINK("http://x")\nsecond line',
      C2: 12345.67,
      D2: 1000,
      E2: serial(AT),
    });
    expect(out.rows[2].B3).toBe("  padded  ");
    expect(out.rows[3].A4).toBe('R&amp;D "quoted"');
  });

  it("round-trips through the import's own reader, text as typed", async () => {
    const sheet = await readXlsxStream(await write(BATCHES), { maxRows: 100 });
    expect(sheet.header).toEqual(SPEC.header);
    expect(sheet.rows.map((r) => r.cells[0])).toEqual([
      "上海贸易有限公司",
      "A & B <Ltd>",
      // Exactly the text: exceljs's streaming reader decodes inline strings twice, the reader
      // escapes their ampersands once more (src/lib/xlsx-stream.ts).
      'R&amp;D "quoted"',
      "Bell Co",
    ]);
    expect(sheet.rows[0]!.cells[1]).toBe('=HYPERLINK("http://x")\nsecond line');
    expect(sheet.rows[0]!.cells[4]).toBe("2029-12-31T23:59:58.123Z");
    expect(sheet.rows[1]!.cells[4]).toBe("2030-06-01");
  });

  it("drops a character XML cannot hold and still writes a string cell, never a formula", async () => {
    // The control character is dropped from the file; the rest is the text of a string cell.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      (await write([
        [["\u0001=1+1", "a;\u0002=SUM(A1)", null, null, null]],
      ])) as unknown as ArrayBuffer,
    );
    const row = wb.worksheets[0]!.getRow(2);
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(1).value).toBe("=1+1");
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(2).value).toBe("a;=SUM(A1)");
  });

  it("writes a header-only sheet when there are no rows", async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await write([])) as unknown as ArrayBuffer);
    expect((wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(SPEC.header);
    expect(wb.worksheets[0]!.rowCount).toBe(1);
  });

  it("pulls one batch per chunk it gives: rows are not read ahead of the consumer", async () => {
    // Batches of the export's size: deflate emits output for each (a tiny one it may buffer).
    const batch = (n: number): XlsxCell[][] =>
      Array.from({ length: 1000 }, (_, i) => [`Company ${n}-${i}`, null, i, i, AT]);
    let pulled = 0;
    async function* counted(): AsyncGenerator<XlsxCell[][]> {
      for (let n = 0; n < 3; n++) {
        pulled++;
        yield batch(n);
      }
    }
    const chunks = xlsxChunks(SPEC, counted());
    await chunks.next();
    expect(pulled).toBe(1);
    await chunks.next();
    expect(pulled).toBe(2);
    await chunks.return(undefined);
  });
});
