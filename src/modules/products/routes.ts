import { createRouter } from "../../http/router";

export function createProductRoutes() {
  const router = createRouter();
  return router;
}
