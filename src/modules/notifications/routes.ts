import { createRouter } from "../../http/router";

export function createNotificationRoutes() {
  const router = createRouter();
  return router;
}
