import { createRouter } from "../../http/router";

export function createGrowthAdminRoutes() {
  const router = createRouter();
  return router;
}
