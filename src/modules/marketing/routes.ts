import { createRouter } from "../../http/router";

/** Marketing generation and effect tracking. */
export function createMarketingRoutes() {
  return createRouter();
}
