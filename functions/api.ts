import { apiRoutes } from "../src/groups/api";
import { createWorker } from "../src/runtime/worker";

/**
 * Worker `api` (wrangler.toml [env.api]): the seller-facing API (customers, products, AI tools);
 * its spreadsheet and PDF routes are the documents Worker's (functions/documents.ts).
 */
export default createWorker(apiRoutes);
