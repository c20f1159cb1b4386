import type { Deps } from "../../deps";
import {
  type SheetFormat,
  writeCsv,
  writeXlsx,
  type XlsxCell,
  type XlsxColumnFormat,
} from "../../lib/spreadsheet";
import { exportCustomers } from "../customers/queries/transfer";
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
  /** The rows of one user, oldest first; `currency` is the currency of the amount column. */
  rows: (deps: Deps, userId: string) => Promise<ExportRow[]>;
  /** The amount column, in minor units of the row's `currency`. */
  money: string;
  /** Date-time columns (timestamptz as ISO 8601 UTC text from SQL). */
  dates: readonly string[];
  /** Whole-number columns. */
  integers: readonly string[];
}

const SPECS: Record<ImportKind, ExportSpec> = {
  customers: {
    rows: (deps, userId) => exportCustomers(deps.db, { userId }),
    money: "estimated_value",
    dates: ["last_contact_at", "next_followup_at"],
    integers: [],
  },
  products: {
    rows: (deps, userId) => exportProducts(deps.db, { userId }),
    money: "price",
    dates: [],
    integers: ["moq"],
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

/** The caller's customers or products, oldest first, with the headers the import reads. */
export async function exportRows(
  deps: Deps,
  kind: ImportKind,
  userId: string,
  format: SheetFormat,
): Promise<Uint8Array> {
  const spec = SPECS[kind];
  const rows = await spec.rows(deps, userId);
  const header = exportColumns(kind);
  const cells = rows.map((row) => header.map((column) => cell(spec, row, column, format)));
  if (format === "xlsx") return writeXlsx(kind, header, cells, columnFormats(spec, header));
  return writeCsv(
    header,
    cells.map((r) => r.map((c) => (c === null ? "" : String(c)))),
  );
}
