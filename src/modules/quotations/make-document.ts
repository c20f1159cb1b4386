import { ApiError, unavailable } from "../../http/errors";
import type { Deps } from "../../ports";
import { type DocumentFormat, type DocumentRefusal, renderDocument } from "./documents";
import type { QuotationDocument } from "./view";

/**
 * The document's bytes, from the runtime's pool (Node) or made here; refused, the ApiError the
 * export and the send routes answer (503, or 422 for a script the PDF cannot lay out).
 */
export async function makeDocument(
  deps: Deps,
  format: DocumentFormat,
  doc: QuotationDocument,
): Promise<Uint8Array> {
  const rendered = await (deps.documents
    ? deps.documents.render(format, doc)
    : renderDocument(format, doc));
  if (rendered instanceof Uint8Array) return rendered;
  throw refused(deps, rendered);
}

function refused(deps: Deps, refusal: DocumentRefusal) {
  switch (refusal.reason) {
    case "no-font":
      return unavailable("PDF export is not available on this runtime");
    case "font-failed":
      deps.logger.error("pdf font load failed", { error: refusal.error });
      return unavailable("The PDF font could not be loaded; try again shortly");
    case "busy":
      return unavailable("Too many documents are being made right now; try again shortly");
    case "over-budget":
      return unavailable(
        `The document could not be made within ${refusal.budgetMs / 1000} s; try again shortly, or shorten or split the quotation`,
      );
    case "failed":
      deps.logger.error("document thread failed", { error: refusal.error });
      return unavailable("The document could not be made; try again shortly");
    case "unsupported-script":
      return new ApiError(
        422,
        `The PDF cannot lay out ${refusal.script} text (in ${refusal.field}); export it as xlsx, or write that field in another script`,
        { code: "unsupported_script", extra: { script: refusal.script, field: refusal.field } },
      );
  }
}
