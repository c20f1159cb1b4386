/**
 * Spreadsheet input and output for imports and exports: format detection by magic bytes, an
 * RFC 4180 CSV reader (the writer and its formula guard: src/lib/csv.ts), the in-memory .xlsx
 * writer (small sheets: the import's errors file), and the header aliases (English and Chinese) each importable column accepts; .xlsx
 * reading is src/lib/xlsx-stream.ts, the streamed .xlsx writer of exports src/lib/xlsx-writer.ts.
 * Runs on Workers.
 */
import type ExcelJS from "exceljs";

/** exceljs costs ~170 ms to import: loaded by the first spreadsheet, not at start-up. */
export const loadExcel = async () => (await import("exceljs")).default;

import { CSV_BOM, csvLine, unguardCell } from "./csv";
import { hasZipMagic } from "./zip-guard";

export type SheetFormat = "xlsx" | "csv";

interface SheetRow {
  /** 1-based row number as the seller sees it in the sheet (the header is row 1). */
  line: number;
  cells: string[];
}

export interface Sheet {
  header: string[];
  rows: SheetRow[];
}

export type SpreadsheetErrorKind = "format" | "zip" | "rows" | "empty";

/** A file the import refuses as a whole (422). */
export class SpreadsheetError extends Error {
  constructor(
    readonly kind: SpreadsheetErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "SpreadsheetError";
  }
}

const fail = (kind: SpreadsheetErrorKind, message: string): never => {
  throw new SpreadsheetError(kind, message);
};

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const CSV_MIME = "text/csv; charset=utf-8";

/** The format a file name claims, from its extension. */
function claimedFormat(filename: string | undefined): SheetFormat | undefined {
  const lower = (filename ?? "").toLowerCase();
  if (lower.endsWith(".xlsx")) return "xlsx";
  if (lower.endsWith(".csv")) return "csv";
  return undefined;
}

/**
 * Decides the format from the bytes and checks it matches what the name claims: an .xlsx must
 * start with a zip local header, a .csv must be UTF-8 text without NUL bytes. A file without
 * a known extension is accepted as whatever its bytes are.
 */
export function detectFormat(bytes: Uint8Array, filename?: string): SheetFormat {
  const claimed = claimedFormat(filename);
  if (filename && !claimed) fail("format", "Only .xlsx and .csv files can be imported");
  const zip = hasZipMagic(bytes);
  if (claimed === "xlsx" && !zip) fail("format", "The file is not a valid .xlsx workbook");
  if (claimed === "csv" && zip) fail("format", "The file is not a CSV text file");
  return zip ? "xlsx" : "csv";
}

/** Validates CSV bytes as UTF-8 text (BOM optional, no NUL) and returns the text. */
function decodeCsvText(bytes: Uint8Array): string {
  if (bytes.includes(0)) fail("format", "The file is not a CSV text file (binary content)");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail("format", "The CSV file must be UTF-8 encoded");
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `;` or tab when the first line has no comma but has one of those; else `,`. */
function csvDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  if (firstLine.includes(",")) return ",";
  if (firstLine.includes(";")) return ";";
  if (firstLine.includes("\t")) return "\t";
  return ",";
}

/**
 * A quoted field read from just after its opening quote, doubled quotes undone; `end` is the
 * index after the closing quote.
 */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = "";
  let i = start;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch !== '"') {
      value += ch;
      i++;
    } else if (text[i + 1] === '"') {
      value += '"';
      i += 2;
    } else {
      return { value, end: i + 1 };
    }
  }
  return fail("format", "The CSV file has an unterminated quoted field");
}

/** RFC 4180: quoted fields, doubled quotes, CRLF / LF / CR line ends; `;` or tab if no comma. */
function parseCsv(text: string): string[][] {
  const delimiter = csvDelimiter(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (ch === '"' && field === "") {
      const quoted = readQuoted(text, i + 1);
      field = quoted.value;
      i = quoted.end;
    } else if (ch === delimiter) {
      row.push(field);
      field = "";
      i++;
    } else if (ch === "\r" || ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** CSV with a UTF-8 BOM and CRLF line ends. */
export function writeCsv(header: string[], rows: string[][]): Uint8Array {
  return new TextEncoder().encode(CSV_BOM + [header, ...rows].map(csvLine).join(""));
}

function isEmptyRow(cells: string[]): boolean {
  return cells.every((c) => c.trim() === "");
}

/** Builds a Sheet from raw rows: the first non-empty row is the header; caps data rows. */
function toSheet(raw: { line: number; cells: string[] }[], maxRows: number): Sheet {
  const nonEmpty = raw.filter((r) => !isEmptyRow(r.cells));
  const [headerRow, ...rows] = nonEmpty;
  if (!headerRow) return fail("empty", "The file has no header row");
  if (rows.length === 0) fail("empty", "The file has no data rows");
  if (rows.length > maxRows) {
    fail("rows", `The file has ${rows.length} data rows; at most ${maxRows} can be imported`);
  }
  const header = headerRow.cells.map((h) => h.trim());
  return {
    header,
    rows: rows.map((r) => ({
      line: r.line,
      cells: header.map((_, i) => unguardCell((r.cells[i] ?? "").trim())),
    })),
  };
}

export function readCsv(bytes: Uint8Array, maxRows: number): Sheet {
  const text = decodeCsvText(bytes);
  const parsed = parseCsv(text);
  // Cheap pre-check before building anything else.
  if (parsed.length > maxRows + 1 + 1000) {
    fail("rows", `The file has more than ${maxRows} data rows`);
  }
  return toSheet(
    parsed.map((cells, i) => ({ line: i + 1, cells })),
    maxRows,
  );
}

function isoDate(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/** exceljs cell value -> the text a seller typed (numbers as JS prints them, dates as ISO). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : isoDate(value);
  return (typeof value === "object" ? objectCellText(value) : undefined) ?? String(value);
}

/** Rich text, hyperlink, formula and error cells; undefined for any other object. */
function objectCellText(value: Extract<ExcelJS.CellValue, object>): string | undefined {
  if ("richText" in value && Array.isArray(value.richText)) {
    return value.richText.map((part) => part.text).join("");
  }
  if ("hyperlink" in value) {
    const text = (value as { text?: unknown }).text;
    return typeof text === "string"
      ? text
      : cellText(text as ExcelJS.CellValue) || String(value.hyperlink ?? "");
  }
  if ("formula" in value || "sharedFormula" in value) {
    return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
  }
  if ("error" in value) return "";
  return undefined;
}

/** A cell of a written sheet: text (formula-guarded), a number, or a date-time (UTC). */
export type XlsxCell = string | number | Date | null;

/** How a column's numbers or dates are shown; the cell value itself stays exact. */
export interface XlsxColumnFormat {
  /** An Excel number format, e.g. `#,##0.00` or `yyyy-mm-dd`. */
  numFmt?: string;
}

/** Date-time cells: a real date serial number, shown in ISO order so every locale reads it. */
export const XLSX_DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss";
/** A date-time at exactly midnight UTC is shown as a day: it was given as one. */
export const XLSX_DATE_FORMAT = "yyyy-mm-dd";

const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

/** A column's width from its widest cell's, within the bounds a sheet stays readable in. */
export const columnWidth = (width: number) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width));

/** Width in Excel character units: CJK and other wide characters take two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text)
    width +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
        ch,
      )
        ? 2
        : 1;
  return width;
}

/** The width a cell needs as shown: its longest line, dates and numbers as formatted. */
export function cellWidth(value: XlsxCell, numFmt: string | undefined): number {
  if (value === null) return 0;
  if (value instanceof Date) return (numFmt ?? XLSX_DATETIME_FORMAT).length;
  if (typeof value === "number") return String(value).length + 4;
  return Math.max(...value.split(/\r?\n/).map(displayWidth));
}

const isMidnightUtc = (d: Date) => d.getTime() % 86_400_000 === 0;

/**
 * The number format a cell is shown with: its column's, or for a date without one a date
 * format of its own (a day at exactly midnight UTC, else a date-time); none for text.
 */
export function shownNumFmt(value: XlsxCell, columnFormat: string | undefined): string | undefined {
  if (value === null || typeof value === "string") return undefined;
  if (columnFormat || typeof value === "number") return columnFormat;
  return isMidnightUtc(value) ? XLSX_DATE_FORMAT : XLSX_DATETIME_FORMAT;
}

/**
 * One worksheet with a bold, frozen header row, returned as .xlsx bytes. Text cells are string
 * cells holding the text as typed (a string cell is never a formula, so no guard apostrophe:
 * `+44 20 ...` stays `+44 20 ...`; only CSV, which has no cell types, is guarded), numbers stay
 * number cells, dates become date cells (an Excel serial number with a date format, the UTC
 * wall-clock time), and each column is as wide as its content.
 */
export async function writeXlsx(
  sheetName: string,
  header: string[],
  rows: XlsxCell[][],
  formats: Readonly<Record<number, XlsxColumnFormat>> = {},
): Promise<Uint8Array> {
  const workbook = new (await loadExcel()).Workbook();
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.addRow(header).font = { bold: true };
  const widths = header.map((h) => displayWidth(h) + 2);
  for (const cells of rows) {
    const row = sheet.addRow(cells);
    cells.forEach((value, i) => {
      const cell = row.getCell(i + 1);
      const numFmt = shownNumFmt(value, formats[i]?.numFmt);
      if (numFmt) cell.numFmt = numFmt;
      if (typeof value === "string" && value.includes("\n")) cell.alignment = { wrapText: true };
      widths[i] = Math.max(widths[i] ?? 0, cellWidth(value, numFmt) + 2);
    });
  }
  widths.forEach((width, i) => {
    sheet.getColumn(i + 1).width = columnWidth(width);
  });
  const out = await workbook.xlsx.writeBuffer();
  return new Uint8Array(out as ArrayBuffer);
}

// ---------------------------------------------------------------------------------------------
// Header aliases

/** Lower-cased, NFKC, without spaces, underscores, hyphens, dots, asterisks or colons. */
function normalizeHeader(header: string): string {
  return header
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s_\-.*:：()（）]/g, "");
}

export const CUSTOMER_COLUMNS = {
  company: ["company", "company name", "companyname", "customer", "公司", "公司名称", "客户名称"],
  contact_name: ["contact", "contact name", "contact_name", "name", "联系人", "联系人姓名"],
  email: ["email", "e-mail", "email address", "邮箱", "电子邮箱", "电子邮件", "邮件"],
  phone: ["phone", "telephone", "tel", "mobile", "电话", "手机", "联系电话"],
  whatsapp: ["whatsapp", "whats app", "wa"],
  country: ["country", "country/region", "国家", "国家/地区", "地区"],
  source: ["source", "lead source", "来源", "客户来源"],
  tags: ["tags", "tag", "标签"],
  status: ["status", "状态", "客户状态"],
  notes: ["notes", "note", "remark", "remarks", "备注"],
  estimated_value: ["estimated_value", "estimated value", "value", "预估金额", "预计金额"],
  estimated_currency: ["estimated_currency", "currency", "币种", "货币"],
  last_contact_at: [
    "last_contact_at",
    "last contact",
    "last contacted",
    "上次联系",
    "上次联系时间",
    "最近联系时间",
  ],
  next_followup_at: [
    "next_followup_at",
    "next follow-up",
    "next followup",
    "下次跟进",
    "下次跟进时间",
  ],
} as const satisfies Record<string, readonly string[]>;

export const PRODUCT_COLUMNS = {
  name: ["name", "product", "product name", "产品名称", "产品", "品名", "名称"],
  sku: ["sku", "item no", "model", "货号", "型号", "产品编号"],
  price: ["price", "unit price", "单价", "价格"],
  currency: ["currency", "币种", "货币"],
  unit: ["unit", "单位"],
  moq: ["moq", "minimum order", "min order", "起订量", "最小起订量"],
  category: ["category", "类别", "分类", "类目"],
  description: ["description", "desc", "描述", "产品描述", "说明"],
  hs_code: ["hs_code", "hs code", "hscode", "海关编码", "hs编码"],
  lead_time_days: ["lead_time_days", "lead time", "lead time days", "交期", "交货期", "生产周期"],
  aliases: ["aliases", "alias", "other names", "别名", "又名"],
} as const satisfies Record<string, readonly string[]>;

/**
 * Maps each header cell to a field (or null when unknown). A field claimed twice keeps its
 * first column; later ones are reported as ignored.
 */
export function mapHeaders<F extends string>(
  header: string[],
  columns: Record<F, readonly string[]>,
): { fields: (F | null)[]; ignored: string[] } {
  const lookup = new Map<string, F>();
  for (const [field, aliases] of Object.entries(columns) as [F, readonly string[]][]) {
    lookup.set(normalizeHeader(field), field);
    for (const alias of aliases) lookup.set(normalizeHeader(alias), field);
  }
  const seen = new Set<F>();
  const ignored: string[] = [];
  const fields = header.map((h) => {
    const field = lookup.get(normalizeHeader(h));
    if (!field || seen.has(field)) {
      if (h !== "") ignored.push(h);
      return null;
    }
    seen.add(field);
    return field;
  });
  return { fields, ignored };
}
