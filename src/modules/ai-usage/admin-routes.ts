import { createRoute } from "@hono/zod-openapi";
import {
  adminErrorResponses as adminErrors,
  adminGuard as guard,
  okResponse as ok,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { AdminAiCallPage, AdminAiCallQuery } from "./schemas";
import { listAdminAiCalls } from "./service";

const adminAiCallsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/ai-calls",
  tags: ["Admin"],
  security,
  summary: "Every AI call, newest first, filtered by task, provider, outcome and UTC dates",
  middleware: [...guard],
  request: { query: AdminAiCallQuery },
  responses: { ...ok(AdminAiCallPage, "A page of AI calls"), ...adminErrors },
});

export function createAiCallAdminRoutes() {
  const router = createRouter();
  router.openapi(adminAiCallsRoute, async (c) =>
    c.json(await listAdminAiCalls(c.get("deps"), c.req.valid("query")), 200),
  );
  return router;
}
