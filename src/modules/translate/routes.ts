import { createRouter } from "../../http/router";

/** POST /api/v1/translate and the caller's translation history. */
export function createTranslateRoutes() {
  return createRouter();
}
