import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authErrorResponses, validationError } from "../../http/errors";
import { createRouter } from "../../http/router";
import { usageStats } from "./service";

const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Use the YYYY-MM-DD format" })
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    {
      error: "Not a calendar date",
    },
  );

export const UsageStatsQuery = z.object({
  start_date: isoDate.optional().openapi({ example: "2026-11-01" }),
  end_date: isoDate.optional().openapi({ example: "2026-11-22" }),
});

export const UsageStatsSchema = z
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

export const usageStatsRoute = createRoute({
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

const day = (date: Date) => date.toISOString().slice(0, 10);

export function createUsageRoutes() {
  const router = createRouter();
  router.openapi(usageStatsRoute, async (c) => {
    const query = c.req.valid("query");
    const today = c.get("deps").clock.now();
    const end = query.end_date ?? day(today);
    const start =
      query.start_date ??
      day(new Date(Date.parse(`${end}T00:00:00Z`) - (DEFAULT_RANGE_DAYS - 1) * 86_400_000));
    const span = (Date.parse(end) - Date.parse(start)) / 86_400_000;
    if (span < 0) {
      throw validationError([
        { loc: ["query", "start_date"], msg: "start_date is after end_date", type: "value_error" },
      ]);
    }
    if (span >= MAX_RANGE_DAYS) {
      throw validationError([
        {
          loc: ["query", "end_date"],
          msg: `Range is limited to ${MAX_RANGE_DAYS} days`,
          type: "value_error",
        },
      ]);
    }
    return c.json(await usageStats(c.get("deps"), c.get("auth").userId, { start, end }), 200);
  });
  return router;
}
