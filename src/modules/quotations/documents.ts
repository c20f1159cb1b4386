import { renderQuotationPdf } from "./pdf";
import { loadCjkFont } from "./pdf-font";
import type { QuotationDocument } from "./view";
import { renderQuotationXlsx } from "./xlsx";

export type DocumentFormat = "pdf" | "xlsx";

/** Why a document was not made; the export route answers each with a 503 and its detail. */
export type DocumentRefusal =
  /** No CJK font source on this runtime (a Worker without PDF_FONT_URL). */
  | { reason: "no-font" }
  /** The font source failed (download, file); `error` is for the log, never the client. */
  | { reason: "font-failed"; error: string }
  /** Node: the document pool's queue is full. */
  | { reason: "busy" }
  /** Node: not made within DOCUMENT_TIME_BUDGET_MS; the thread making it was ended. */
  | { reason: "over-budget"; budgetMs: number }
  /** Node: the thread making it ran out of its heap and was replaced; `error` is for the log. */
  | { reason: "failed"; error: string }
  /**
   * The PDF would hold right-to-left text (Arabic, Hebrew...), which it cannot shape: the
   * export route answers 422 `unsupported_script` naming the script and the field (ADR 0105).
   * The xlsx carries such text as it is (the spreadsheet application lays it out).
   */
  | { reason: "unsupported-script"; script: string; field: string };

export type RenderedDocument = Uint8Array | DocumentRefusal;

/**
 * The documents port (deps.documents): where quotation PDFs and spreadsheets are made. Node hands
 * in a pool of worker threads with a time budget per document (src/runtime/node/document-pool.ts,
 * ADR 0083), so no document holds the request thread; without one (Workers, where each request
 * has its own CPU limit, and in-process tests) the route calls renderDocument itself.
 */
export interface DocumentRenderer {
  render(format: DocumentFormat, doc: QuotationDocument): Promise<RenderedDocument>;
  /** Ends the threads; documents in flight are refused. */
  close(): Promise<void>;
  /** Documents waiting for a thread now, for /metrics. */
  queueDepth?: () => number;
}

/**
 * Makes one document in this isolate or thread (pdf-lib, fontkit and exceljs load on the first
 * document made there). The font comes through the CJK font port, read once per isolate or thread.
 */
export async function renderDocument(
  format: DocumentFormat,
  doc: QuotationDocument,
): Promise<RenderedDocument> {
  if (format === "xlsx") return renderQuotationXlsx(doc);
  const rtl = rightToLeftText(doc);
  if (rtl) return { reason: "unsupported-script", ...rtl };
  const font = loadCjkFont();
  if (!font) return { reason: "no-font" };
  let fontBytes: Uint8Array;
  try {
    fontBytes = await font;
  } catch (error) {
    return { reason: "font-failed", error: String(error) };
  }
  return renderQuotationPdf(doc, fontBytes);
}

/** Right-to-left scripts by block; the first that matches names the refusal. */
const RIGHT_TO_LEFT: [string, RegExp][] = [
  ["Hebrew", /[\u0590-\u05FF\uFB1D-\uFB4F]/],
  ["Arabic", /[\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/],
  ["Syriac", /[\u0700-\u074F\u0860-\u086F]/],
  ["Thaana", /[\u0780-\u07BF]/],
  ["N'Ko", /[\u07C0-\u07FF]/],
  ["Samaritan or Mandaic", /[\u0800-\u085F]/],
];
const ANY_RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

/**
 * The first right-to-left text a PDF of `doc` would print: its script and where it is
 * (`buyer.company`, `items[2].name`...). The PDF lays text out left to right with one CJK font
 * that has no Arabic or Hebrew glyphs, so such text would come out as empty boxes in reverse
 * order: the export is refused instead, saying which field to change (ADR 0105).
 */
function rightToLeftText(doc: QuotationDocument): { script: string; field: string } | undefined {
  const fields: [string, unknown][] = [
    ...Object.entries(doc.parties).map(([key, value]): [string, unknown] => [
      `parties.${key}`,
      value,
    ]),
    ...Object.entries(doc.seller ?? {})
      .filter(([key]) => key !== "logo")
      .map(([key, value]): [string, unknown] => [`seller.${key}`, value]),
    ...Object.entries(doc.buyer ?? {}).map(([key, value]): [string, unknown] => [
      `buyer.${key}`,
      value,
    ]),
    ...Object.entries(doc.trade ?? {}).map(([key, value]): [string, unknown] => [
      `trade.${key}`,
      Array.isArray(value) ? value.join("\n") : value,
    ]),
    ["notes", doc.quotation.notes],
    ...doc.quotation.items.flatMap((item, i): [string, unknown][] => [
      [`items[${i}].name`, item.name],
      [`items[${i}].description`, item.description],
      [`items[${i}].unit`, item.unit],
    ]),
  ];
  for (const [field, value] of fields) {
    if (typeof value !== "string" || !ANY_RIGHT_TO_LEFT.test(value)) continue;
    const script = RIGHT_TO_LEFT.find(([, re]) => re.test(value))?.[0] ?? "right-to-left";
    return { script, field };
  }
  return undefined;
}
