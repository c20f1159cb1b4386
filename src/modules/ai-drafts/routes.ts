import { createRouter } from "../../http/router";

/** AI drafts on workspace data: a follow-up for a customer, a quotation from an inquiry. */
export function createAiDraftRoutes() {
  return createRouter();
}
