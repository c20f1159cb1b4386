import type { AppRouter } from "../http/router";
import { createGlossaryImportRoutes } from "../modules/glossary/import-routes";
import { createImportExportRoutes } from "../modules/imports/routes";
import { createQuotationRoutes } from "../modules/quotations/routes";
import { createQuotationSendRoutes } from "../modules/quotations/send-routes";

/**
 * Route group `documents`: the routes that read or write spreadsheets and PDFs (exceljs, pdf-lib,
 * fontkit): customer and product import and export, and quotations, whose .xlsx/.pdf export
 * shares the module's router. A Worker of its own so the api Worker neither uploads nor starts
 * them (docs/adr/0079-worker-size.md).
 */
export const documentsRouters = [
  createImportExportRoutes,
  createQuotationRoutes,
  createQuotationSendRoutes,
  createGlossaryImportRoutes,
] as const;

export const documentsRoutes = (): AppRouter[] => documentsRouters.map((create) => create());
