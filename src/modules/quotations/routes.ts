import { createRouter } from "../../http/router";

export function createQuotationRoutes() {
  const router = createRouter();
  return router;
}
