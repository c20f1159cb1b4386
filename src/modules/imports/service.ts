import { ApiError } from "../../http/errors";
import { pgErrorCode } from "../../lib/db-errors";
import {
  CUSTOMER_COLUMNS,
  detectFormat,
  mapHeaders,
  PRODUCT_COLUMNS,
  readCsv,
  type Sheet,
  type SheetFormat,
  SpreadsheetError,
  writeCsv,
  writeXlsx,
} from "../../lib/spreadsheet";
import { readXlsxStream } from "../../lib/xlsx-stream";
import type { Deps } from "../../ports";
import {
  type CustomerImportMatch,
  findCustomersForImport,
  upsertImportedCustomers,
} from "../customers/queries/transfer";
import { planLimitError } from "../entitlements/service";
import {
  findProductsForImport,
  type ProductImportMatch,
  upsertImportedProducts,
} from "../products/queries";
import {
  CellError,
  limitText,
  parseCurrency,
  parseDateTime,
  parseEmail,
  parseHsCode,
  parseMoney,
  parsePositiveInt,
  parseStatus,
  parseTags,
} from "./values";

/** Export / canonical column order of each kind: the import's own field names. */
export const exportColumns = (kind: ImportKind): string[] => KINDS[kind].order;

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
const IMPORT_MAX_ROWS = 5_000;
const PREVIEW_ROWS = 20;
const MAX_LISTED_ERRORS = 1_000;

export type ImportKind = "customers" | "products";

interface RowError {
  row: number;
  column: string;
  message: string;
}

type Value = string | number | string[];
type Record_ = Record<string, Value | undefined>;

interface FieldSpec {
  parse: (text: string, row: Record<string, string>) => Value;
}

const text = (max: number): FieldSpec => ({ parse: limitText(max) });

/** Amounts depend on the row's currency, so they are parsed after it. */
const CUSTOMER_FIELDS: Record<keyof typeof CUSTOMER_COLUMNS, FieldSpec> = {
  company: text(200),
  contact_name: text(200),
  email: { parse: parseEmail },
  phone: text(50),
  whatsapp: text(50),
  country: text(100),
  source: text(100),
  tags: { parse: parseTags },
  status: { parse: parseStatus },
  notes: text(5000),
  estimated_currency: { parse: parseCurrency },
  estimated_value: {
    parse: (t, row) => parseMoney(t, safeCurrency(row.estimated_currency)),
  },
  last_contact_at: { parse: parseDateTime },
  next_followup_at: { parse: parseDateTime },
};

const PRODUCT_FIELDS: Record<keyof typeof PRODUCT_COLUMNS, FieldSpec> = {
  name: text(200),
  sku: text(100),
  currency: { parse: parseCurrency },
  price: { parse: (t, row) => parseMoney(t, safeCurrency(row.currency)) },
  unit: text(20),
  moq: { parse: parsePositiveInt },
  category: text(100),
  description: text(5000),
  hs_code: { parse: parseHsCode },
  lead_time_days: { parse: parsePositiveInt },
  aliases: { parse: parseTags },
};

function safeCurrency(raw: string | undefined): string {
  if (!raw) return "USD";
  try {
    return parseCurrency(raw);
  } catch {
    return "USD";
  }
}

interface KindSpec {
  columns: Record<string, readonly string[]>;
  fields: Record<string, FieldSpec>;
  /** Which field must be present when none of `required` is. */
  required: string[];
  requiredMessage: string;
  /** Dedupe key of a row: primary (email / sku) and secondary (company / name). */
  primary: string;
  secondary: string;
  /** Export / canonical column order. */
  order: string[];
}

const KINDS: Record<ImportKind, KindSpec> = {
  customers: {
    columns: CUSTOMER_COLUMNS,
    fields: CUSTOMER_FIELDS,
    required: ["company", "email"],
    requiredMessage: "a company or an email is required",
    primary: "email",
    secondary: "company",
    order: Object.keys(CUSTOMER_COLUMNS),
  },
  products: {
    columns: PRODUCT_COLUMNS,
    fields: PRODUCT_FIELDS,
    required: ["name"],
    requiredMessage: "the product name is required",
    primary: "sku",
    secondary: "name",
    order: Object.keys(PRODUCT_COLUMNS),
  },
};

interface ParsedRow {
  line: number;
  record: Record_;
  errors: RowError[];
}

/** Validates every row of the sheet; values become their stored form (minor units, ISO). */
function validateSheet(kind: ImportKind, sheet: Sheet) {
  const spec = KINDS[kind];
  const { fields, ignored } = mapHeaders(sheet.header, spec.columns);
  const columnName = new Map<string, string>();
  fields.forEach((f, i) => {
    if (f) columnName.set(f, sheet.header[i]!);
  });
  if (!spec.required.some((f) => columnName.has(f))) {
    throw new ApiError(422, `The header row has no ${spec.required.join(" or ")} column`, {
      extra: { errors: [], ignored_columns: ignored },
    });
  }
  const rows: ParsedRow[] = sheet.rows.map(({ line, cells }) => {
    const raw: Record<string, string> = {};
    fields.forEach((f, i) => {
      const value = cells[i] ?? "";
      if (f && value !== "") raw[f] = value;
    });
    const record: Record_ = {};
    const errors: RowError[] = [];
    for (const field of Object.keys(spec.fields)) {
      const value = raw[field];
      if (value === undefined) continue;
      try {
        record[field] = spec.fields[field]!.parse(value, raw);
      } catch (error) {
        if (!(error instanceof CellError)) throw error;
        const column = columnName.get(field) ?? field;
        errors.push({ row: line, column, message: `${column} ${error.message}` });
      }
    }
    if (!spec.required.some((f) => raw[f] !== undefined)) {
      const column = columnName.get(spec.required[0]!) ?? spec.required[0]!;
      errors.push({ row: line, column, message: spec.requiredMessage });
    }
    if (kind === "customers" && record.estimated_value !== undefined) {
      record.estimated_currency ??= "USD";
    }
    if (kind === "products" && record.price !== undefined) record.currency ??= "USD";
    return { line, record, errors };
  });
  return { rows, ignored, spec };
}

const keyOf = (spec: KindSpec, record: Record_) => {
  const primary = record[spec.primary];
  if (typeof primary === "string" && primary !== "") {
    return `p:${spec.primary === "email" ? primary.toLowerCase() : primary}`;
  }
  return `s:${String(record[spec.secondary] ?? "")
    .trim()
    .toLowerCase()}`;
};

/** An existing row an import row may update (email or SKU, lower-cased company or name). */
type Existing = CustomerImportMatch | ProductImportMatch;

interface Planned {
  id: string | null;
  lines: number[];
  record: Record_;
}

/** Later non-empty cells override earlier ones; empty cells never clear a value. */
const merge = (into: Record_, from: Record_) => {
  for (const [k, v] of Object.entries(from)) if (v !== undefined) into[k] = v;
};

function loadExisting(
  deps: Deps,
  kind: ImportKind,
  userId: string,
  primaries: string[],
  secondaries: string[],
): Promise<Existing[]> {
  return kind === "customers"
    ? findCustomersForImport(deps.db, { userId, emails: primaries, companies: secondaries })
    : findProductsForImport(deps.db, { userId, skus: primaries, names: secondaries });
}

/**
 * Collapses rows with the same key (email, else company; sku, else name) and matches them to
 * the existing rows the caller sees: a row with an email/sku matches that email/sku, or else an
 * existing row with the same company/name and no email/sku; a row without one matches the
 * oldest existing row with the same company/name.
 *
 * Customers (issue #22, docs/teams.md): duplicates are judged against what the importer sees
 * (src/db/scope.ts), never the whole organisation, so an import reveals nothing a list would
 * not. A manager+ sees and updates the organisation's customers; a member theirs and the pool:
 * a row matching a pool customer is skipped (left unchanged; claim it first), and a row whose
 * only match is a colleague's customer (invisible to the member) creates a customer held by the
 * member.
 */
async function plan(
  deps: Deps,
  kind: ImportKind,
  userId: string,
  spec: KindSpec,
  rows: ParsedRow[],
) {
  const groups = groupRows(spec, rows);
  const primaries = new Set<string>();
  const secondaries = new Set<string>();
  for (const g of groups.values()) {
    const p = g.record[spec.primary];
    if (typeof p === "string") primaries.add(spec.primary === "email" ? p.toLowerCase() : p);
    const s = g.record[spec.secondary];
    if (typeof s === "string") secondaries.add(s.trim().toLowerCase());
  }
  const existing =
    groups.size === 0
      ? []
      : await loadExisting(deps, kind, userId, [...primaries], [...secondaries]);
  const index = indexExisting(existing);
  const updates = new Map<string, Planned>();
  const inserts: Planned[] = [];
  const skipped: Planned[] = [];
  for (const g of groups.values()) {
    const match = matchOf(spec, g, index);
    if (!match) {
      inserts.push(g);
      continue;
    }
    if ("writable" in match && !match.writable) {
      skipped.push(g);
      continue;
    }
    const claimed = updates.get(match.id);
    if (claimed) {
      merge(claimed.record, g.record);
      claimed.lines.push(...g.lines);
    } else updates.set(match.id, { ...g, id: match.id });
  }
  return { inserts, updates: [...updates.values()], skipped };
}

/** Rows with the same key collapsed into one, their lines kept. */
function groupRows(spec: KindSpec, rows: ParsedRow[]): Map<string, Planned> {
  const groups = new Map<string, Planned>();
  for (const row of rows) {
    const key = keyOf(spec, row.record);
    const group = groups.get(key);
    if (group) {
      merge(group.record, row.record);
      group.lines.push(row.line);
    } else groups.set(key, { id: null, lines: [row.line], record: { ...row.record } });
  }
  return groups;
}

interface ExistingIndex {
  byPrimary: Map<string, Existing>;
  bySecondary: Map<string, Existing>;
  bySecondaryNoPrimary: Map<string, Existing>;
}

/** The existing rows by email/sku, by company/name, and by company/name among those without. */
function indexExisting(existing: Existing[]): ExistingIndex {
  const index: ExistingIndex = {
    byPrimary: new Map(),
    bySecondary: new Map(),
    bySecondaryNoPrimary: new Map(),
  };
  for (const e of existing) {
    if (e.primary && !index.byPrimary.has(e.primary)) index.byPrimary.set(e.primary, e);
    if (e.secondary === null) continue;
    if (!index.bySecondary.has(e.secondary)) index.bySecondary.set(e.secondary, e);
    if (!e.primary && !index.bySecondaryNoPrimary.has(e.secondary)) {
      index.bySecondaryNoPrimary.set(e.secondary, e);
    }
  }
  return index;
}

/** The existing row a group updates, if any (the rule of plan()). */
function matchOf(spec: KindSpec, g: Planned, index: ExistingIndex): Existing | undefined {
  const p = g.record[spec.primary];
  const s = String(g.record[spec.secondary] ?? "")
    .trim()
    .toLowerCase();
  if (typeof p === "string") {
    return (
      index.byPrimary.get(spec.primary === "email" ? p.toLowerCase() : p) ??
      (s ? index.bySecondaryNoPrimary.get(s) : undefined)
    );
  }
  return s ? index.bySecondary.get(s) : undefined;
}

export interface ImportOutcome {
  dry_run: boolean;
  rows: number;
  valid: number;
  invalid: number;
  duplicates: number;
  /** Rows matching a customer the caller sees but may not change (a member and the pool). */
  skipped: number;
  /** Rows written by this request: 0 on a dry run and on a refused import. */
  created: number;
  updated: number;
  /** Rows the plan creates / updates: what a commit of this file writes (or wrote). */
  would_create: number;
  would_update: number;
  ignored_columns: string[];
  preview: (Record_ & { row: number; action: "create" | "update" | "skip" })[];
  errors: RowError[];
  errors_truncated: boolean;
}

export interface ImportInput {
  kind: ImportKind;
  userId: string;
  bytes: Uint8Array;
  filename: string | undefined;
  dryRun: boolean;
}

async function loadSheet(input: ImportInput): Promise<{ format: SheetFormat; sheet: Sheet }> {
  try {
    const format = detectFormat(input.bytes, input.filename);
    // .xlsx through exceljs's streaming reader (src/lib/xlsx-stream.ts), after the zip guard; .csv as text.
    const sheet =
      format === "xlsx"
        ? await readXlsxStream(input.bytes, { maxRows: IMPORT_MAX_ROWS })
        : readCsv(input.bytes, IMPORT_MAX_ROWS);
    return { format, sheet };
  } catch (error) {
    if (error instanceof SpreadsheetError) {
      throw new ApiError(422, error.message, { extra: { errors: [], reason: error.kind } });
    }
    throw error;
  }
}

/**
 * Reads, validates and de-duplicates the upload; a dry run stops there. Otherwise any invalid
 * row is a 422 with every error and nothing is written; else one statement updates the
 * matched rows and inserts the new ones.
 */
export async function runImport(deps: Deps, input: ImportInput): Promise<ImportOutcome> {
  const { sheet } = await loadSheet(input);
  const { rows, ignored, spec } = validateSheet(input.kind, sheet);
  const invalidRows = rows.filter((r) => r.errors.length > 0);
  const validRows = rows.filter((r) => r.errors.length === 0);
  const errors = invalidRows.flatMap((r) => r.errors);
  const { inserts, updates, skipped } = await plan(deps, input.kind, input.userId, spec, validRows);
  const planned = [
    ...inserts.map((p) => ({ ...p, action: "create" as const })),
    ...updates.map((p) => ({ ...p, action: "update" as const })),
    ...skipped.map((p) => ({ ...p, action: "skip" as const })),
  ].sort((a, b) => a.lines[0]! - b.lines[0]!);
  const outcome: ImportOutcome = {
    dry_run: input.dryRun,
    rows: rows.length,
    valid: validRows.length,
    invalid: invalidRows.length,
    duplicates: validRows.length - inserts.length,
    skipped: skipped.reduce((n, p) => n + p.lines.length, 0),
    // Nothing is written yet; a successful commit below sets these.
    created: 0,
    updated: 0,
    would_create: inserts.length,
    would_update: updates.length,
    ignored_columns: ignored,
    preview: planned
      .slice(0, PREVIEW_ROWS)
      .map((p) => ({ row: p.lines[0]!, action: p.action, ...p.record })),
    errors: errors.slice(0, MAX_LISTED_ERRORS),
    errors_truncated: errors.length > MAX_LISTED_ERRORS,
  };
  if (input.dryRun) return outcome;
  if (invalidRows.length > 0) {
    const { preview: _preview, ...summary } = outcome;
    throw new ApiError(422, `${invalidRows.length} row(s) have errors; nothing was imported`, {
      extra: summary as unknown as Record<string, unknown>,
    });
  }
  try {
    await commit(deps, input.kind, input.userId, [...inserts, ...updates]);
  } catch (error) {
    if (pgErrorCode(error) === "23505") {
      throw new ApiError(409, "A concurrent change conflicts with this import; try again");
    }
    // One statement: past the plan's customers limit, none of the rows is written.
    throw (await planLimitError(deps, error, "nothing was imported")) ?? error;
  }
  return { ...outcome, created: inserts.length, updated: updates.length };
}

/** One statement per import: the owner module updates the matched rows and inserts the rest. */
async function commit(deps: Deps, kind: ImportKind, userId: string, planned: Planned[]) {
  const rows = planned.map((p) => ({ id: p.id, ...p.record }));
  const now = deps.clock.now().toISOString();
  if (kind === "customers") await upsertImportedCustomers(deps.db, { userId, now, rows });
  else await upsertImportedProducts(deps.db, { userId, now, rows });
}

/** The uploaded sheet as it was, with an `error` column listing each row's problems. */
export async function errorsFile(
  deps: Deps,
  input: Omit<ImportInput, "dryRun">,
  format: SheetFormat,
): Promise<Uint8Array> {
  void deps;
  const { sheet } = await loadSheet({ ...input, dryRun: true });
  const { rows } = validateSheet(input.kind, sheet);
  const byLine = new Map(rows.map((r) => [r.line, r.errors.map((e) => e.message).join("; ")]));
  const header = [...sheet.header.filter((h) => h.toLowerCase() !== "error"), "error"];
  const keep = sheet.header.map((h) => h.toLowerCase() !== "error");
  const out = sheet.rows.map((r) => [
    ...r.cells.filter((_, i) => keep[i]),
    byLine.get(r.line) ?? "",
  ]);
  return format === "xlsx" ? writeXlsx("errors", header, out) : writeCsv(header, out);
}
