import { createRouter } from "../../http/router";

export function createPaymentAdminRoutes() {
  const router = createRouter();
  return router;
}
