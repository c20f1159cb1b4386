/**
 * Reading the first worksheet of an .xlsx as rows of text, streamed: exceljs's streaming
 * worksheet reader fed from the zip guard's bounded inflate. Runs on Workers.
 */
import type ExcelJS from "exceljs";
import { unguardCell } from "./csv";
import { cellText, type Sheet, SpreadsheetError, type SpreadsheetErrorKind } from "./spreadsheet";
import {
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  inspectZip,
  type ZipEntry,
  type ZipLimits,
  ZipRejectedError,
} from "./zip-guard";

/*
 * Why not `new ExcelJS.stream.xlsx.WorkbookReader(input)`:
 * - On Workers `import("exceljs")` resolves to the package's `browser` build, which has no
 *   `stream` export at all (only `Workbook`).
 * - Its `input` must be a file path (node:fs) or a Node / readable-stream Readable, which it
 *   pipes through `unzipper`; a worksheet met in the zip before the shared strings (Excel writes
 *   sharedStrings.xml after the sheets) is first copied to a temp file with `tmp` + node:fs.
 * - It decodes each inflated chunk with a non-streaming TextDecoder, so a Chinese character
 *   split across two chunks turns into U+FFFD.
 * So the parts come from the zip guard's bounded, streaming inflate (DecompressionStream, in
 * memory, any zip order), are decoded with a streaming TextDecoder, and are fed as async
 * iterables of strings to the pieces WorkbookReader itself uses: exceljs's streaming
 * WorksheetReader for the sheet, and its workbook / relationships / styles / shared-strings
 * xforms (`parseStream` accepts any async iterable). No node:stream, no node:fs.
 */

interface XlsxRow {
  number: number;
  hasValues: boolean;
  values: ExcelJS.CellValue[];
  findCell(col: number): { numFmt?: string } | undefined;
}

interface ExcelStreamParts {
  WorksheetReader: new (args: {
    workbook: unknown;
    id: number | string;
    iterator: AsyncIterable<string>;
    options: Record<string, string>;
  }) => AsyncIterable<XlsxRow>;
  WorkbookXform: new () => {
    parseStream(input: AsyncIterable<string>): Promise<unknown>;
    model: { sheets?: { id: number; name: string; rId: string }[] };
    map: { workbookPr: unknown };
  };
  RelationshipsXform: new () => {
    parseStream(
      input: AsyncIterable<string>,
    ): Promise<{ Id: string; Type: string; Target: string }[]>;
  };
  StylesXform: new () => {
    init(): void;
    parseStream(input: AsyncIterable<string>): Promise<unknown>;
  };
  SharedStringsXform: new () => {
    parseStream(input: AsyncIterable<string>): Promise<unknown>;
    model: { values: ExcelJS.CellValue[] };
  };
  utils: {
    isDateFmt(fmt: string | undefined): boolean;
    excelToDate(v: number, date1904?: boolean): Date;
  };
}

let excelStreamParts: Promise<ExcelStreamParts> | undefined;

/** exceljs's lib/ modules (untyped, CommonJS); loaded by the first .xlsx, not at start-up. */
function loadExcelStreamParts(): Promise<ExcelStreamParts> {
  excelStreamParts ??= Promise.all([
    // @ts-expect-error exceljs ships no types for its lib/ modules
    import("exceljs/lib/stream/xlsx/worksheet-reader.js"),
    // @ts-expect-error exceljs ships no types for its lib/ modules
    import("exceljs/lib/xlsx/xform/book/workbook-xform.js"),
    // @ts-expect-error exceljs ships no types for its lib/ modules
    import("exceljs/lib/xlsx/xform/core/relationships-xform.js"),
    // @ts-expect-error exceljs ships no types for its lib/ modules
    import("exceljs/lib/xlsx/xform/style/styles-xform.js"),
    // @ts-expect-error exceljs ships no types for its lib/ modules
    import("exceljs/lib/xlsx/xform/strings/shared-strings-xform.js"),
    // @ts-expect-error exceljs ships no types for its lib/ modules
    import("exceljs/lib/utils/utils.js"),
  ]).then((mods) => {
    const [WorksheetReader, WorkbookXform, RelationshipsXform, StylesXform, SharedStrings, utils] =
      mods.map((m: { default?: unknown }) => m.default ?? m);
    return {
      WorksheetReader,
      WorkbookXform,
      RelationshipsXform,
      StylesXform,
      SharedStringsXform: SharedStrings,
      utils,
    } as ExcelStreamParts;
  });
  excelStreamParts.catch(() => {
    excelStreamParts = undefined; // a failed load is retried by the next upload
  });
  return excelStreamParts;
}

export interface XlsxStreamOptions {
  maxRows: number;
  zipLimits?: ZipLimits;
}

const refuse = (kind: SpreadsheetErrorKind, message: string): never => {
  throw new SpreadsheetError(kind, message);
};

/** An entry's text, inflated and decoded chunk by chunk (a character may span two chunks). */
async function* entryText(bytes: Uint8Array, entry: ZipEntry): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of inflateEntry(bytes, entry)) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") yield text;
  }
  const rest = decoder.decode();
  if (rest !== "") yield rest;
}

/** A relationship target (relative to xl/, or absolute from the package root) as a zip path. */
function partPath(target: string): string {
  const parts: string[] = [];
  const full = target.startsWith("/") ? target : `xl/${target}`;
  for (const segment of full.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "" && segment !== ".") parts.push(segment);
  }
  return parts.join("/");
}

/**
 * Reads the first worksheet (in tab order) that has any value, streamed: the zip's central directory
 * is checked first (nothing inflated yet), then only the workbook, its relationships, the
 * styles, the shared strings and that worksheet are inflated, each bounded by its declared
 * size, and the worksheet is read row by row and abandoned (inflate cancelled) as soon as it has
 * more than `maxRows` non-empty data rows. Cell values come out as exceljs's full loader gives
 * them (the import's tests compare the two).
 */
export async function readXlsxStream(
  bytes: Uint8Array,
  options: XlsxStreamOptions,
): Promise<Sheet> {
  let entries: ZipEntry[];
  try {
    entries = inspectZip(bytes, options.zipLimits ?? DEFAULT_ZIP_LIMITS);
  } catch (error) {
    if (error instanceof ZipRejectedError) {
      return refuse("zip", `The .xlsx file was refused: ${error.message}`);
    }
    throw error;
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  if (!byName.has("[Content_Types].xml") || !byName.has("xl/workbook.xml")) {
    refuse("format", "The file is a zip archive but not an .xlsx workbook");
  }
  try {
    return await readWorkbook(bytes, byName, options.maxRows);
  } catch (error) {
    if (error instanceof SpreadsheetError) throw error;
    if (error instanceof ZipRejectedError) {
      return refuse("zip", `The .xlsx file was refused: ${error.message}`);
    }
    return refuse("format", "The .xlsx workbook could not be read");
  }
}

async function readWorkbook(
  bytes: Uint8Array,
  byName: Map<string, ZipEntry>,
  maxRows: number,
): Promise<Sheet> {
  const excel = await loadExcelStreamParts();
  const text = (entry: ZipEntry) => entryText(bytes, entry);

  const book = new excel.WorkbookXform();
  await book.parseStream(text(byName.get("xl/workbook.xml")!));
  const relsEntry = byName.get("xl/_rels/workbook.xml.rels");
  const rels = relsEntry
    ? ((await new excel.RelationshipsXform().parseStream(text(relsEntry))) ?? [])
    : [];
  const target = new Map(rels.map((r) => [r.Id, partPath(r.Target)]));
  const partOfType = (type: string, fallback: string) =>
    byName.get(partPath(rels.find((r) => r.Type?.endsWith(`/${type}`))?.Target ?? fallback));

  // Tab order from workbook.xml, as the full loader's `workbook.worksheets`; without usable
  // relationships, the sheetN.xml parts by number.
  let sheets = (book.model.sheets ?? [])
    .map((s) => byName.get(target.get(s.rId) ?? ""))
    .filter((e): e is ZipEntry => e !== undefined);
  if (sheets.length === 0) {
    sheets = [...byName.values()]
      .filter((e) => /^xl\/worksheets\/sheet\d+\.xml$/.test(e.name))
      .sort((a, b) => Number(/\d+/.exec(a.name)![0]) - Number(/\d+/.exec(b.name)![0]));
  }
  if (sheets.length === 0) return refuse("empty", "The workbook has no worksheet");

  // `styles: 'cache'` and `sharedStrings: 'cache'` of WorkbookReader: number formats (which
  // make a number a date) and the shared strings, held while the sheet streams.
  const styles = new excel.StylesXform();
  const stylesEntry = partOfType("styles", "styles.xml");
  if (stylesEntry) await styles.parseStream(text(stylesEntry));
  else styles.init();
  const sharedStrings = new excel.SharedStringsXform();
  const stringsEntry = partOfType("sharedStrings", "sharedStrings.xml");
  if (stringsEntry) await sharedStrings.parseStream(text(stringsEntry));
  const properties = book.map.workbookPr as { model?: { date1904?: boolean } };
  const workbook = { sharedStrings: sharedStrings.model?.values ?? [], styles, properties };
  const date1904 = properties.model?.date1904 === true;

  for (const [index, entry] of sheets.entries()) {
    const reader = (merges: string[]) =>
      new excel.WorksheetReader({
        workbook,
        id: index + 1,
        iterator: watchMerges(escapeAmpersandsAgain(text(entry)), merges),
        // Hyperlinked cells keep their displayed value, which is what the full loader's
        // `{text, hyperlink}` reads as.
        options: { worksheets: "emit", hyperlinks: "ignore" },
      });
    const { raw, merges, last } = await streamRows(reader, excel.utils, date1904, maxRows);
    // Like the full loader: the first worksheet with any value is the one imported.
    if (raw.size === 0 && index < sheets.length - 1) continue;
    fillMerges(raw, merges, last);
    const [headerRow, ...dataRows] = [...raw.entries()]
      .sort((a, b) => a[0] - b[0])
      .filter(([, cells]) => !isBlank(cells));
    if (!headerRow) return refuse("empty", "The file has no header row");
    if (dataRows.length === 0) return refuse("empty", "The file has no data rows");
    if (dataRows.length > maxRows) {
      refuse(
        "rows",
        `The file has ${dataRows.length} data rows; at most ${maxRows} can be imported`,
      );
    }
    const header = headerRow[1].map((h) => h.trim());
    return {
      header,
      rows: dataRows.map(([line, cells]) => ({
        line,
        cells: header.map((_, i) => unguardCell((cells[i] ?? "").trim())),
      })),
    };
  }
  return refuse("empty", "The file has no header row");
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");

/**
 * One worksheet's rows with values, by line, and its merged ranges; refuses as soon as the
 * header and more than maxRows data rows were read, so the rest is never inflated.
 */
async function streamRows(
  reader: (merges: string[]) => AsyncIterable<XlsxRow>,
  utils: ExcelStreamParts["utils"],
  date1904: boolean,
  maxRows: number,
): Promise<{ raw: Map<number, string[]>; merges: string[]; last: number }> {
  const merges: string[] = [];
  const raw = new Map<number, string[]>();
  let nonEmpty = 0;
  let last = 0;
  for await (const row of reader(merges)) {
    const line = Number.isFinite(row.number) ? row.number : last + 1;
    last = line;
    if (!row.hasValues) continue;
    const cells = rowCells(row, utils, date1904);
    raw.set(line, cells);
    if (!isBlank(cells) && ++nonEmpty > maxRows + 1) {
      refuse(
        "rows",
        `The file has more than ${maxRows} data rows; at most ${maxRows} can be imported`,
      );
    }
  }
  return { raw, merges, last };
}

/** A tail of a chunk that may be the start of `&amp;` completed by the next chunk. */
const PARTIAL_AMP = /&(?:a(?:mp?)?)?$/;

/**
 * exceljs's streaming worksheet reader decodes the text of an inline-string or `str` cell a
 * second time (`xmlDecode` after its XML parser already did), so a cell holding `R&amp;D` came
 * back as `R&D` and `&lt;b&gt;` as `<b>`. Every literal `&` is `&amp;` in the XML; escaping it
 * once more here makes the two decodings give back the text. Shared strings, numbers and the
 * formula results the import reads are otherwise untouched (no `&` in them but text's).
 */
async function* escapeAmpersandsAgain(source: AsyncIterable<string>) {
  let carry = "";
  for await (const chunk of source) {
    let piece = carry + chunk;
    carry = PARTIAL_AMP.exec(piece)?.[0] ?? "";
    if (carry) piece = piece.slice(0, -carry.length);
    yield piece.replaceAll("&amp;", "&amp;amp;");
  }
  if (carry) yield carry;
}

/**
 * Passes a worksheet's text through and collects the `ref` of each `<mergeCell>`, which comes
 * after `</sheetData>`; only that tail is scanned, a piece at a time.
 */
async function* watchMerges(source: AsyncIterable<string>, merges: string[]) {
  let pending = "";
  let inTail = false;
  for await (const chunk of source) {
    yield chunk;
    pending += chunk;
    if (!inTail) {
      const at = pending.indexOf("</sheetData>");
      if (at < 0) {
        pending = pending.slice(-"</sheetData>".length);
        continue;
      }
      inTail = true;
      pending = pending.slice(at);
    }
    const cut = pending.lastIndexOf("<");
    const complete = cut > 0 ? pending.slice(0, cut) : "";
    for (const m of complete.matchAll(/<mergeCell\s[^>]*?\bref="([A-Z]+\d+:[A-Z]+\d+)"/g)) {
      merges.push(m[1]!);
    }
    if (cut > 0) pending = pending.slice(cut);
  }
  for (const m of pending.matchAll(/<mergeCell\s[^>]*?\bref="([A-Z]+\d+:[A-Z]+\d+)"/g)) {
    merges.push(m[1]!);
  }
}

function decodeRef(ref: string): { row: number; col: number } {
  const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(ref)!;
  let col = 0;
  for (const ch of letters!) col = col * 26 + ch.charCodeAt(0) - 64;
  return { row: Number(digits), col };
}

/**
 * The full loader gives every cell of a merged range the value of its top-left cell (a company
 * merged down three rows is that company on each). Clipped to the rows and columns the sheet
 * has, and to one pass over that grid in total, so overlapping or huge ranges cost no more.
 */
function fillMerges(raw: Map<number, string[]>, merges: string[], lastLine: number) {
  if (merges.length === 0) return;
  let width = 0;
  for (const cells of raw.values()) width = Math.max(width, cells.length);
  let budget = lastLine * width;
  for (const ref of merges) {
    const [from, to] = ref.split(":").map(decodeRef) as [
      { row: number; col: number },
      { row: number; col: number },
    ];
    const master = raw.get(from.row)?.[from.col - 1] ?? "";
    const lastRow = Math.min(to.row, lastLine);
    const lastCol = Math.min(to.col, width);
    for (let r = from.row; r <= lastRow; r++) {
      for (let c = from.col; c <= lastCol; c++) {
        if (--budget < 0) return;
        if (r !== from.row || c !== from.col) setMergedCell(raw, r, c, master);
      }
    }
  }
}

/** Puts `master` in 1-based column `c` of line `r`; a missing line is made unless it is "". */
function setMergedCell(raw: Map<number, string[]>, r: number, c: number, master: string) {
  let cells = raw.get(r);
  if (!cells) {
    if (master === "") return;
    cells = [];
    raw.set(r, cells);
  }
  while (cells.length < c - 1) cells.push("");
  cells[c - 1] = master;
}

/**
 * A streamed row's cells as text, 1-based columns as the full loader's `row.values`. The
 * streaming reader leaves a formula's numeric result a number even in a date-formatted cell,
 * where the full loader makes it a Date; that is done here so both read the same text.
 */
function rowCells(row: XlsxRow, utils: ExcelStreamParts["utils"], date1904: boolean): string[] {
  const values = row.values;
  const cells: string[] = [];
  for (let col = 1; col < values.length; col++) {
    let value = values[col] ?? null;
    if (
      value !== null &&
      typeof value === "object" &&
      "formula" in value &&
      typeof value.result === "number" &&
      utils.isDateFmt(row.findCell(col)?.numFmt)
    ) {
      value = { ...value, result: utils.excelToDate(value.result, date1904) };
    }
    cells.push(cellText(value));
  }
  return cells;
}
