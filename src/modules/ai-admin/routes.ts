import { createRouter } from "../../http/router";

/** Admin: ai-providers, ai-routing, translation-quotas, faq (API.md "Admin"). */
export function createAiAdminRoutes() {
  return createRouter();
}
