import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authErrorResponses } from "../../http/errors";
import { okResponse as ok, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { AiUsagePage, AiUsageQuery } from "./schemas";
import { listAiUsage } from "./service";

const aiUsageRoute = createRoute({
  method: "get",
  path: "/api/v1/ai/usage",
  tags: ["AI"],
  security,
  summary: "The caller's AI calls (manager+: the organisation's), newest first",
  description:
    "One row per provider attempt, a failed one included: task, provider, model, tokens, " +
    "latency, outcome and the credits of the billed operation it answered. Filters combine; " +
    "dates are UTC days.",
  middleware: [requireAuth] as const,
  request: { query: AiUsageQuery },
  responses: { ...ok(AiUsagePage, "A page of AI calls"), ...authErrorResponses },
});

export function createAiUsageRoutes() {
  const router = createRouter();
  router.openapi(aiUsageRoute, async (c) =>
    c.json(await listAiUsage(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  return router;
}
