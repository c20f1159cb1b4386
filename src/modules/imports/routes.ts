import { createRouter } from "../../http/router";

export function createImportExportRoutes() {
  const router = createRouter();
  return router;
}
