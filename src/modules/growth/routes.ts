import { createRouter } from "../../http/router";

export function createGrowthRoutes() {
  const router = createRouter();
  return router;
}
