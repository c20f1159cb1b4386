import { measurePdf, type PdfResult } from "../pdf";
import type { BenchContext } from "../setup";

/** The quotation PDF export, in this process with no server involved (bench/pdf.ts). */
export async function measurePdfScenario(ctx: BenchContext): Promise<PdfResult> {
  ctx.log(`\nquotation PDF: renderQuotationPdf vs the same page in Helvetica`);
  return measurePdf(ctx.log);
}
