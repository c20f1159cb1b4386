// The CSV writer with its formula guard, apart from lib/spreadsheet.ts so a module that only
// writes CSV (the account export in the auth Worker) does not bundle that file's exceljs and
// zip readers (docs/adr/0079-worker-size.md). lib/spreadsheet.ts re-exports it.

/**
 * Quoted: anything a reader could take for a field or row boundary in any locale. Excel and
 * LibreOffice split on `;` where the decimal mark is a comma and some tools on tab or `|`, so an
 * unquoted `;=1+1` would be a formula cell there; quoted, it is one text cell everywhere.
 */
const csvNeedsQuotes = /[",;|\t\r\n]|^\s|\s$/;
/** What starts a formula: `=`, `+`, `-`, `@` and their full-width forms (CJK input methods). */
const TRIGGER = "=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20";
/** A cell that starts a formula, also after blanks some readers skip; tab and CR (OWASP). */
const leadingFormula = new RegExp(`^(?:[\\t\\r]|\\s*[${TRIGGER}])`);
/**
 * Where a reader may start a new cell or a new line inside one of ours: field separators
 * (`;` where the decimal mark is a comma, tab, `|`) and line breaks. A reader that splits lines
 * before it honours quotes (line-by-line tools, `split("\n")`, a paste into a sheet) starts a
 * row at a CR or LF inside a quoted cell, and some also break at VT, FF, NEL, U+2028 and U+2029.
 */
const BREAK = ",;|\\t\\r\\n\\v\\f\\u0085\\u2028\\u2029";
/** A formula behind a separator or line break inside the cell, quotes or not. */
const innerFormula = new RegExp(`([${BREAK}])([\\s"]*)(?=[${TRIGGER}])`, "g");
const innerGuard = new RegExp(`([${BREAK}])([\\s"]*)'(?=[${TRIGGER}])`, "g");

/**
 * Neutralises every place a spreadsheet could read as the start of a formula, in any locale:
 * an apostrophe before it (OWASP CSV injection), which spreadsheets show as text.
 */
export function guardCell(value: string): string {
  const inner = value.replace(innerFormula, "$1$2'");
  return leadingFormula.test(inner) ? `'${inner}` : inner;
}

function csvCell(value: string): string {
  const safe = guardCell(value);
  return csvNeedsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Starts every CSV written here: a UTF-8 BOM, so Excel opens Chinese text correctly. */
export const CSV_BOM = "\uFEFF";

/** One CSV record, formula-guarded and quoted where needed, with its CRLF line end. */
export function csvLine(cells: string[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** Undoes the export's formula guard: `'=x` / `'+86...` / `a;'=b` come back as they were. */
export function unguardCell(value: string): string {
  const outer =
    value.startsWith("'") && leadingFormula.test(value.slice(1)) ? value.slice(1) : value;
  return outer.includes("'") ? outer.replace(innerGuard, "$1$2") : outer;
}
