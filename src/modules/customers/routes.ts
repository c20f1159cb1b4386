import { createRouter } from "../../http/router";

export function createCustomerRoutes() {
  const router = createRouter();
  return router;
}
