/**
 * A one-sheet .xlsx written as a stream: the SpreadsheetML parts are written here and zipped
 * on the fly with fflate, so memory holds one batch of rows whatever the row count. Runs on
 * Workers (no node:*; exceljs's streaming writer needs Node streams and is not in the build
 * Workers load). The cells are those of `writeXlsx` in ./spreadsheet: text as typed in inline
 * string cells (never formulas, so without CSV's guard apostrophe), numbers as number cells,
 * dates as date cells (UTC wall-clock time).
 */
import { Zip, ZipDeflate } from "fflate";
import {
  cellWidth,
  columnWidth,
  displayWidth,
  shownNumFmt,
  XLSX_DATE_FORMAT,
  XLSX_DATETIME_FORMAT,
  type XlsxCell,
  type XlsxColumnFormat,
} from "./spreadsheet";

export interface XlsxSheetSpec {
  name: string;
  header: string[];
  /** Number formats by column index; a date cell without one gets a date format of its own. */
  formats?: Readonly<Record<number, XlsxColumnFormat>>;
}

/**
 * Level 1: on an export's sheet XML (20,000 customers, 11.4 MB) it deflates in 106 ms to
 * 1.24 MB where level 6 takes 236 ms for 1.06 MB; the CPU is the scarcer of the two (a Worker
 * is limited and billed by it, and the download is a one-off).
 */
const DEFLATE_LEVEL = 1;

const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Characters XML 1.0 cannot hold at all (C0 controls but tab, LF, CR; U+FFFE/U+FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is its job
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** Excel's sheet-name rules: at most 31 characters, none of `[]:*?/\`. */
function sheetName(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "Sheet1";
}

/** "A", "B", ..., "Z", "AA", ... for a 0-based column index. */
function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** Excel serial day number (1900 date system) of an instant: its UTC wall-clock time. */
const excelSerial = (date: Date) => date.getTime() / 86_400_000 + 25_569;

/** Cell style indexes of styles.xml's cellXfs. */
const STYLE_HEADER = 1;
const STYLE_WRAP = 2;
const FIRST_FORMAT_STYLE = 3;
/** The first id Excel leaves to custom number formats. */
const FIRST_CUSTOM_FORMAT_ID = 164;

/** The number formats the sheet uses, each with its style index. */
function formatStyles(spec: XlsxSheetSpec): Map<string, number> {
  const codes = new Set(Object.values(spec.formats ?? {}).map((f) => f.numFmt));
  codes.add(XLSX_DATETIME_FORMAT);
  codes.add(XLSX_DATE_FORMAT);
  const styles = new Map<string, number>();
  for (const code of codes) if (code) styles.set(code, FIRST_FORMAT_STYLE + styles.size);
  return styles;
}

/** A cell format of cellXfs: a number format, a font, and an alignment if any. */
function cellXf({ numFmtId = 0, fontId = 0, apply = "", alignment = "" }): string {
  const open = `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"${apply}`;
  return alignment ? `${open}>${alignment}</xf>` : `${open}/>`;
}

function stylesXml(formats: Map<string, number>): string {
  const codes = [...formats.keys()];
  const font = '<sz val="11"/><name val="Calibri"/><family val="2"/>';
  // In style-index order: STYLE_HEADER, STYLE_WRAP, then one per number format from
  // FIRST_FORMAT_STYLE.
  const xfs = [
    cellXf({}),
    cellXf({ fontId: 1, apply: ' applyFont="1"' }),
    cellXf({ apply: ' applyAlignment="1"', alignment: '<alignment wrapText="1"/>' }),
    ...codes.map((_, i) =>
      cellXf({ numFmtId: FIRST_CUSTOM_FORMAT_ID + i, apply: ' applyNumberFormat="1"' }),
    ),
  ];
  const numFmts = codes.map(
    (code, i) =>
      `<numFmt numFmtId="${FIRST_CUSTOM_FORMAT_ID + i}" formatCode="${escapeXml(code)}"/>`,
  );
  return (
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
    `<numFmts count="${numFmts.length}">${numFmts.join("")}</numFmts>` +
    `<fonts count="2"><font>${font}</font><font><b/>${font}</font></fonts>` +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join("")}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    "</styleSheet>"
  );
}

/** Every part but the sheet: content types, relationships, workbook, styles. */
function packageParts(spec: XlsxSheetSpec, formats: Map<string, number>): [string, string][] {
  const type = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  return [
    [
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${type}.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type}.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${type}.styles+xml"/>` +
        "</Types>",
    ],
    [
      "_rels/.rels",
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        "</Relationships>",
    ],
    [
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        `<sheets><sheet name="${escapeXml(sheetName(spec.name))}" sheetId="1" r:id="rId1"/></sheets>` +
        "</workbook>",
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
        "</Relationships>",
    ],
    ["xl/styles.xml", stylesXml(formats)],
  ];
}

/**
 * Text as an inline string (`t="inlineStr"`): no shared-string table to hold every text in.
 * A string cell is never evaluated, so `=1+1` or `+44 20 ...` is written as typed, without the
 * apostrophe CSV needs (docs/adr/0094-payment-budgets-order-keys-csrf-session.md). Characters
 * XML cannot hold are dropped.
 */
function textCell(ref: string, value: string, header: boolean): string {
  const text = escapeXml(value.replace(NOT_XML, ""));
  const style = header ? STYLE_HEADER : value.includes("\n") ? STYLE_WRAP : 0;
  // Without xml:space, a reader may drop leading and trailing blanks and line breaks.
  const space = /^\s|\s$|\n/.test(text) ? ' xml:space="preserve"' : "";
  return `<c r="${ref}"${style ? ` s="${style}"` : ""} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

/** Writes the rows of the sheet as SpreadsheetML, one row element per call. */
class SheetWriter {
  private readonly letters: string[];
  private readonly formats: Map<string, number>;
  private readonly columnFormats: (string | undefined)[];
  private next = 1;

  constructor(spec: XlsxSheetSpec, formats: Map<string, number>) {
    this.letters = spec.header.map((_, i) => columnLetters(i));
    this.formats = formats;
    this.columnFormats = spec.header.map((_, i) => spec.formats?.[i]?.numFmt);
  }

  /** The number format a cell is shown with (as `writeXlsx` gives it), if any. */
  numFmt(value: XlsxCell, column: number): string | undefined {
    return shownNumFmt(value, this.columnFormats[column]);
  }

  row(cells: XlsxCell[], header = false): string {
    const r = this.next++;
    let xml = `<row r="${r}">`;
    cells.forEach((value, i) => {
      if (value === null) return;
      const ref = `${this.letters[i] ?? columnLetters(i)}${r}`;
      xml +=
        typeof value === "string"
          ? textCell(ref, value, header)
          : this.numberCell(ref, value, this.numFmt(value, i));
    });
    return `${xml}</row>`;
  }

  /** A number or a date (as its serial number) with its format's style; nothing if not finite. */
  private numberCell(ref: string, value: number | Date, format: string | undefined): string {
    const number = value instanceof Date ? excelSerial(value) : value;
    if (!Number.isFinite(number)) return "";
    const style = format ? this.formats.get(format) : undefined;
    return `<c r="${ref}"${style ? ` s="${style}"` : ""}><v>${number}</v></c>`;
  }

  /**
   * The sheet up to its first data row: a frozen header row and the column widths. Widths come
   * from the header and the first batch only, not from every row: `<cols>` precedes the rows in
   * the sheet, and waiting for every row would hold them all in memory.
   */
  head(spec: XlsxSheetSpec, firstBatch: XlsxCell[][]): string {
    const widths = spec.header.map((h) => displayWidth(h) + 2);
    for (const cells of firstBatch) {
      cells.forEach((value, i) => {
        widths[i] = Math.max(widths[i] ?? 0, cellWidth(value, this.numFmt(value, i)) + 2);
      });
    }
    const cols = widths
      .map(
        (w, i) => `<col min="${i + 1}" max="${i + 1}" width="${columnWidth(w)}" customWidth="1"/>`,
      )
      .join("");
    return (
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0">' +
      '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft"/></sheetView></sheetViews>' +
      '<sheetFormatPr defaultRowHeight="15"/>' +
      `<cols>${cols}</cols><sheetData>${this.row(spec.header, true)}`
    );
  }
}

const SHEET_TAIL =
  '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

/** The bytes fflate has emitted since the last call, as one chunk. */
class Collected {
  private chunks: Uint8Array[] = [];
  private size = 0;

  add(chunk: Uint8Array) {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  take(): Uint8Array {
    const out = this.chunks.length === 1 ? this.chunks[0]! : new Uint8Array(this.size);
    if (this.chunks.length > 1) {
      let offset = 0;
      for (const chunk of this.chunks) {
        out.set(chunk, offset);
        offset += chunk.length;
      }
    }
    this.chunks = [];
    this.size = 0;
    return out;
  }
}

/**
 * The .xlsx file of one sheet, as chunks: one per batch of rows, written as the batches come (a
 * batch too small for deflate to emit anything goes out with the next). Deflate runs in the
 * calling thread (fflate's synchronous streams), so nothing is left in memory between chunks
 * but deflate's window.
 */
export async function* xlsxChunks(
  spec: XlsxSheetSpec,
  batches: AsyncIterable<XlsxCell[][]>,
): AsyncGenerator<Uint8Array> {
  const out = new Collected();
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else out.add(chunk);
  });
  const check = () => {
    if (failure) throw failure;
  };
  const encoder = new TextEncoder();
  const formats = formatStyles(spec);
  const mtime = new Date();
  for (const [name, xml] of packageParts(spec, formats)) {
    const part = new ZipDeflate(name, { level: DEFLATE_LEVEL });
    part.mtime = mtime;
    zip.add(part);
    part.push(encoder.encode(xml), true);
  }
  const sheetPart = new ZipDeflate("xl/worksheets/sheet1.xml", { level: DEFLATE_LEVEL });
  sheetPart.mtime = mtime;
  zip.add(sheetPart);
  const writer = new SheetWriter(spec, formats);
  let started = false;
  for await (const batch of batches) {
    let xml = started ? "" : writer.head(spec, batch);
    started = true;
    for (const cells of batch) xml += writer.row(cells);
    sheetPart.push(encoder.encode(xml));
    check();
    const chunk = out.take();
    if (chunk.length > 0) yield chunk;
  }
  sheetPart.push(encoder.encode(`${started ? "" : writer.head(spec, [])}${SHEET_TAIL}`), true);
  zip.end();
  check();
  yield out.take();
}
