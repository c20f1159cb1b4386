import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { calendarDate, reportRange } from "../../http/date-range";
import { authErrorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { usageStats } from "./service";

const UsageStatsQuery = z.object({
  start_date: calendarDate.optional().openapi({ example: "2026-11-01" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
});

const UsageStatsSchema = z
  .object({
    start_date: z.string(),
    end_date: z.string(),
    total: z.number().int(),
    by_event: z.record(z.string(), z.number().int()),
    days: z.array(
      z.object({
        date: z.string(),
        total: z.number().int(),
        events: z.record(z.string(), z.number().int()),
      }),
    ),
  })
  .openapi("UsageStats");

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
