import { createRouter } from "../../http/router";

/** Admin: search providers (CRUD, keys write-only). */
export function createSearchProviderAdminRoutes() {
  return createRouter();
}
