import { move } from "piscina";
import {
  type DocumentFormat,
  type RenderedDocument,
  renderDocument,
} from "../../modules/quotations/documents";
import { provideCjkFont } from "../../modules/quotations/pdf-font";
import type { QuotationDocument } from "../../modules/quotations/view";
import { nodeCjkFont } from "./cjk-font";

/**
 * One thread of the document pool (document-pool.ts). It reads the CJK font from node_modules on
 * its first PDF and keeps it, parsed, for every later one: jobs carry the quotation, never the
 * font. Run from its own bundle (node_modules/.cache/app/document-worker.mjs), built like the
 * server's (scripts/start-bundle.mjs), so it loads the same way under `npm start`, tsx and vitest.
 */
provideCjkFont(nodeCjkFont);

export interface DocumentJob {
  format: DocumentFormat;
  doc: QuotationDocument;
}

/** The bytes are moved to the request thread, not copied; a refusal travels as a plain object. */
export default async function makeDocument({ format, doc }: DocumentJob) {
  const rendered: RenderedDocument = await renderDocument(format, doc);
  return rendered instanceof Uint8Array ? move(rendered) : rendered;
}
