import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { reportRange } from "../../http/date-range";
import { authErrorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { UsageStatsQuery, UsageStatsSchema } from "./schemas";
import { usageStats } from "./service";

const usageStatsRoute = createRoute({
  method: "get",
  path: "/api/v1/usage/stats",
  tags: ["Accounts"],
  summary: "The caller's usage per UTC day and event (default: the last 30 days)",
  security: [{ bearerAuth: [] }],
  middleware: [requireAuth] as const,
  request: { query: UsageStatsQuery },
  responses: {
    200: { description: "Usage", content: { "application/json": { schema: UsageStatsSchema } } },
    ...authErrorResponses,
  },
});

export function createUsageRoutes() {
  const router = createRouter();
  router.openapi(usageStatsRoute, async (c) => {
    const { start, end } = reportRange(c.req.valid("query"), c.get("deps").clock.now());
    return c.json(await usageStats(c.get("deps"), c.get("auth").userId, { start, end }), 200);
  });
  return router;
}
