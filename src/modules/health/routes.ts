import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponse } from "../../http/errors";
import { createRouter } from "../../http/router";

const HealthSchema = z.object({ status: z.literal("ok") }).openapi("Health");

export const healthRoute = createRoute({
  method: "get",
  path: "/health",
  tags: ["Operations"],
  summary: "Liveness: the process answers",
  responses: {
    200: { description: "Alive", content: { "application/json": { schema: HealthSchema } } },
  },
});

export const readyRoute = createRoute({
  method: "get",
  path: "/health/ready",
  tags: ["Operations"],
  summary: "Readiness: the database answers",
  responses: {
    200: { description: "Ready", content: { "application/json": { schema: HealthSchema } } },
    503: errorResponse(ErrorSchema, "Database unreachable"),
  },
});

export function createHealthRoutes() {
  const router = createRouter();
  router.openapi(healthRoute, (c) => c.json({ status: "ok" as const }, 200));
  router.openapi(readyRoute, async (c) => {
    try {
      await c.get("deps").database.ping();
      return c.json({ status: "ok" as const }, 200);
    } catch (error) {
      c.get("deps").logger.warn("readiness check failed", { error: String(error) });
      return c.json({ detail: "Database is unreachable" }, 503);
    }
  });
  return router;
}
