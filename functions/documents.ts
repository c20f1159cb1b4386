import { documentsRoutes } from "../src/groups/documents";
import { createWorker } from "../src/runtime/worker";

/**
 * Worker `documents` (wrangler.toml [env.documents]): spreadsheet and PDF routes (customer and
 * product import/export, quotations with their .xlsx/.pdf export).
 */
export default createWorker(documentsRoutes);
