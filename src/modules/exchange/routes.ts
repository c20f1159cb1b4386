import { createRouter } from "../../http/router";

export function createExchangeRoutes() {
  const router = createRouter();
  return router;
}
