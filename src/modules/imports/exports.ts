import { CSV_BOM, csvLine } from "../../lib/csv";
import type { SheetFormat, XlsxCell, XlsxColumnFormat } from "../../lib/spreadsheet";
import { streamChunks } from "../../lib/spreadsheet-stream";
import { xlsxChunks } from "../../lib/xlsx-writer";
import type { Deps } from "../../ports";
import { type ExportCursor, exportCustomersPage } from "../customers/queries/transfer";
import { exportProducts } from "../products/queries";
import { exportColumns, type ImportKind } from "./service";
import { formatMoney } from "./values";

/**
 * Customer and product exports: every field the import reads, under the import's own headers,
 * so an export imported into another account recreates the same rows. In .xlsx, amounts are
 * number cells and date-times are date cells (UTC wall-clock time); in CSV both are text the
 * import reads back exactly (amounts as plain decimals, dates as ISO 8601 UTC).
 */

type Value = string | number | string[] | Date | null;
type ExportRow = Record<string, Value> & { currency: string };

interface ExportSpec {
  /** The rows of one user in batches, oldest first; `currency` is that of the amount column. */
  batches: (deps: Deps, userId: string) => AsyncIterable<ExportRow[]>;
  /** The amount column, in minor units of the row's `currency`. */
  money: string;
  /** Date-time columns (timestamptz as ISO 8601 UTC text from SQL). */
  dates: readonly string[];
  /** Whole-number columns. */
  integers: readonly string[];
}

/** Rows per read: a CSV export holds about one batch in memory whatever the row count. */
export const EXPORT_BATCH_ROWS = 1000;

async function* customerBatches(deps: Deps, userId: string): AsyncGenerator<ExportRow[]> {
  let after: ExportCursor | null = null;
  do {
    const page = await exportCustomersPage(deps.db, { userId, after, limit: EXPORT_BATCH_ROWS });
    if (page.rows.length > 0) yield page.rows;
    after = page.cursor;
  } while (after);
}

const SPECS: Record<ImportKind, ExportSpec> = {
  customers: {
    batches: (deps, userId) => customerBatches(deps, userId),
    money: "estimated_value",
    dates: ["last_contact_at", "next_followup_at"],
    integers: [],
  },
  products: {
    // One batch: a seller's catalogue is small (hundreds of rows), unlike a customer list.
    batches: async function* (deps, userId) {
      yield await exportProducts(deps.db, { userId });
    },
    money: "price",
    dates: [],
    integers: ["moq", "lead_time_days"],
  },
};

/** One cell: .xlsx gets numbers and dates as such, CSV gets the text the import reads. */
function cell(spec: ExportSpec, row: ExportRow, column: string, format: SheetFormat): XlsxCell {
  const value = row[column];
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.join(", ");
  if (column === spec.money && typeof value === "number") {
    const text = formatMoney(value, row.currency);
    return format === "xlsx" ? Number(text) : text;
  }
  if (spec.dates.includes(column) && typeof value === "string") {
    return format === "xlsx" ? new Date(value) : value;
  }
  if (spec.integers.includes(column) && typeof value === "number") {
    return format === "xlsx" ? value : String(value);
  }
  return String(value);
}

/**
 * Number formats per column: the money column shows two decimals (the sheet mixes
 * currencies, so the value keeps its own precision), integers none. Dates get theirs per cell.
 */
function columnFormats(spec: ExportSpec, header: string[]): Record<number, XlsxColumnFormat> {
  const formats: Record<number, XlsxColumnFormat> = {};
  header.forEach((column, i) => {
    if (column === spec.money) formats[i] = { numFmt: "#,##0.00##" };
    if (spec.integers.includes(column)) formats[i] = { numFmt: "#,##0" };
  });
  return formats;
}

/**
 * The caller's customers or products, oldest first, with the headers the import reads, as a
 * stream written batch by batch as the rows are read, CSV or .xlsx alike (the first batch is
 * read before it returns, so a failing database is still an error status).
 */
export async function exportFile(
  deps: Deps,
  kind: ImportKind,
  userId: string,
  format: SheetFormat,
): Promise<ReadableStream<Uint8Array>> {
  const spec = SPECS[kind];
  const header = exportColumns(kind);
  const batches = spec.batches(deps, userId)[Symbol.asyncIterator]();
  const first = await batches.next();
  const toCells = (row: ExportRow) => header.map((column) => cell(spec, row, column, format));
  async function* cellBatches(): AsyncGenerator<XlsxCell[][]> {
    for (let next = first; !next.done; next = await batches.next()) yield next.value.map(toCells);
  }
  if (format === "xlsx") {
    const sheet = { name: kind, header, formats: columnFormats(spec, header) };
    return streamChunks(xlsxChunks(sheet, cellBatches()));
  }
  const encoder = new TextEncoder();
  const csvRow = (cells: XlsxCell[]) => csvLine(cells.map((c) => (c === null ? "" : String(c))));
  return streamChunks(
    (async function* () {
      yield encoder.encode(CSV_BOM + csvLine(header));
      for await (const cells of cellBatches()) yield encoder.encode(cells.map(csvRow).join(""));
    })(),
  );
}
