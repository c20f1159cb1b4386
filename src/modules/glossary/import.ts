import { ApiError } from "../../http/errors";
import { pgErrorCode } from "../../lib/db-errors";
import {
  detectFormat,
  mapHeaders,
  readCsv,
  type Sheet,
  SpreadsheetError,
} from "../../lib/spreadsheet";
import { readXlsxStream } from "../../lib/xlsx-stream";
import type { Deps } from "../../ports";
import { IMPORT_MAX_BYTES } from "../imports/service";
import { mayKeepGlossary, type TermValues, upsertTerms } from "./queries";
import { glossaryLang, NOTE_MAX, TERM_MAX } from "./schemas";
import { glossaryRefused } from "./service";

// The customer import's rules (src/modules/imports/service.ts): .xlsx (exceljs's streaming
// reader behind the zip guard) or .csv (UTF-8, BOM, formula guard undone), told apart by their
// bytes; at most 10 MB and 5,000 data rows; headers matched by name in English or Chinese;
// every row's errors listed with its line and column, at most 1,000. Unlike that import, a
// glossary file is not all-or-nothing: its valid rows are written and the invalid ones listed
// (issue #24: "per-row errors reported, valid rows upserted"); dry_run=true writes nothing.

export { IMPORT_MAX_BYTES };

const IMPORT_MAX_ROWS = 5_000;
const MAX_LISTED_ERRORS = 1_000;

const GLOSSARY_COLUMNS = {
  source_lang: ["source_lang", "source language", "from", "源语言", "原文语言"],
  target_lang: ["target_lang", "target language", "to", "目标语言", "译文语言"],
  source_term: ["source_term", "source", "term", "source term", "原文", "术语", "原词"],
  target_term: ["target_term", "target", "translation", "target term", "译文", "翻译", "译词"],
  note: ["note", "notes", "remark", "remarks", "comment", "备注", "说明"],
} as const satisfies Record<string, readonly string[]>;

type Field = keyof typeof GLOSSARY_COLUMNS;

interface RowError {
  row: number;
  column: string;
  message: string;
}

async function loadSheet(bytes: Uint8Array, filename: string | undefined): Promise<Sheet> {
  try {
    const format = detectFormat(bytes, filename);
    return format === "xlsx"
      ? await readXlsxStream(bytes, { maxRows: IMPORT_MAX_ROWS })
      : readCsv(bytes, IMPORT_MAX_ROWS);
  } catch (error) {
    if (error instanceof SpreadsheetError) {
      throw new ApiError(422, error.message, { extra: { errors: [], reason: error.kind } });
    }
    throw error;
  }
}

export interface GlossaryImportInput {
  userId: string;
  bytes: Uint8Array;
  filename: string | undefined;
  dryRun: boolean;
  /** The pair of rows without language columns (query `source_lang`, `target_lang`). */
  sourceLang?: string | undefined;
  targetLang?: string | undefined;
}

/** Reads and validates the file, then writes its valid rows in one statement. */
export async function importGlossary(deps: Deps, input: GlossaryImportInput) {
  // A member is refused before the file is read, as the write would be (dry run or not).
  if (!(await mayKeepGlossary(deps.db, input.userId))) throw glossaryRefused();
  const sheet = await loadSheet(input.bytes, input.filename);
  const { fields, ignored } = mapHeaders(sheet.header, GLOSSARY_COLUMNS);
  const header = new Map<Field, string>();
  fields.forEach((f, i) => {
    if (f) header.set(f, sheet.header[i]!);
  });
  const missing = (["source_term", "target_term"] as const).filter((f) => !header.has(f));
  if (missing.length > 0) {
    throw new ApiError(422, `The header row has no ${missing.join(" or ")} column`, {
      extra: { errors: [], ignored_columns: ignored },
    });
  }
  const errors: RowError[] = [];
  const valid = new Map<string, TermValues>();
  let validRows = 0;
  for (const { line, cells } of sheet.rows) {
    const raw: Partial<Record<Field, string>> = {};
    fields.forEach((f, i) => {
      const value = (cells[i] ?? "").trim();
      if (f && value !== "") raw[f] = value;
    });
    const rowErrors: RowError[] = [];
    const fail = (field: Field, message: string) => {
      const column = header.get(field) ?? field;
      rowErrors.push({ row: line, column, message: `${column} ${message}` });
    };
    const lang = (field: "source_lang" | "target_lang", fallback: string | undefined) => {
      const value = raw[field];
      if (value === undefined) {
        if (!fallback) fail(field, "is required (a column, or the query parameter)");
        return fallback;
      }
      const code = glossaryLang(value);
      if (!code) fail(field, "must be a language code such as en, es or zh");
      return code;
    };
    const term = (field: "source_term" | "target_term") => {
      const value = raw[field];
      if (value === undefined) fail(field, "is required");
      else if ([...value].length > TERM_MAX) fail(field, `must be at most ${TERM_MAX} characters`);
      return value;
    };
    const sourceLang = lang("source_lang", input.sourceLang);
    const targetLang = lang("target_lang", input.targetLang);
    const sourceTerm = term("source_term");
    const targetTerm = term("target_term");
    const note = raw.note;
    if (note !== undefined && [...note].length > NOTE_MAX) {
      fail("note", `must be at most ${NOTE_MAX} characters`);
    }
    if (sourceLang && targetLang && sourceLang === targetLang) {
      fail("target_lang", "must differ from the source language");
    }
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }
    validRows++;
    // A later row with the same pair and source term replaces the earlier one.
    valid.set(`${sourceLang}\u0000${targetLang}\u0000${sourceTerm!.toLowerCase()}`, {
      source_lang: sourceLang!,
      target_lang: targetLang!,
      source_term: sourceTerm!,
      target_term: targetTerm!,
      note: note ?? null,
    });
  }
  const invalid = new Set(errors.map((e) => e.row)).size;
  const outcome = {
    dry_run: input.dryRun,
    rows: sheet.rows.length,
    valid: validRows,
    invalid,
    duplicates: validRows - valid.size,
    created: 0,
    updated: 0,
    ignored_columns: ignored,
    errors: errors.slice(0, MAX_LISTED_ERRORS),
    errors_truncated: errors.length > MAX_LISTED_ERRORS,
  };
  if (input.dryRun || valid.size === 0) return outcome;
  let written: Awaited<ReturnType<typeof upsertTerms>>;
  try {
    written = await upsertTerms(deps.db, {
      userId: input.userId,
      now: deps.clock.now().toISOString(),
      rows: [...valid.values()],
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") {
      throw new ApiError(409, "A concurrent change conflicts with this import; try again");
    }
    throw error;
  }
  if (!written.allowed) throw glossaryRefused();
  return { ...outcome, created: written.created, updated: written.updated };
}
