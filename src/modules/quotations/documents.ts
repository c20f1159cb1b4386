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
  | { reason: "failed"; error: string };

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
