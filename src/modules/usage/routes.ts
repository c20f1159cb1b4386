import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { reportRange } from "../../http/date-range";
import { authErrorResponses, ErrorSchema, errorResponse } from "../../http/errors";
import { createRouter } from "../../http/router";
import { UsageStatsQuery, UsageStatsSchema } from "./schemas";
import { usageStats } from "./service";

const usageStatsRoute = createRoute({
  method: "get",
  path: "/api/v1/usage/stats",
  tags: ["Accounts"],
  summary:
    "Usage per UTC day and event of the caller or, for manager+, a member (default: the last 30 days)",
  security: [{ bearerAuth: [] }],
  middleware: [requireAuth] as const,
  request: { query: UsageStatsQuery },
  responses: {
    200: { description: "Usage", content: { "application/json": { schema: UsageStatsSchema } } },
    403: errorResponse(ErrorSchema, "A member asking for another member's usage"),
    404: errorResponse(ErrorSchema, "user_id is not a member of the caller's organisation"),
    ...authErrorResponses,
  },
});

export function createUsageRoutes() {
  const router = createRouter();
  router.openapi(usageStatsRoute, async (c) => {
    const query = c.req.valid("query");
    const { start, end } = reportRange(query, c.get("deps").clock.now());
    return c.json(
      await usageStats(c.get("deps"), c.get("auth").userId, { start, end, userId: query.user_id }),
      200,
    );
  });
  return router;
}
