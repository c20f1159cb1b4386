import { createRouter } from "../../http/router";

/** Background steps delivered by QStash: POST /api/v1/jobs/:name, QStash-signed. */
export function createJobRoutes() {
  return createRouter();
}
