import { createRouter } from "../../http/router";

export function createPaymentRoutes() {
  const router = createRouter();
  return router;
}
