import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { featureGateResponses, requireFeature } from "../../http/entitlements";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
} from "../../http/errors";
import { IDEMPOTENCY_HEADER, idempotentRequest } from "../../http/idempotency";
import { requestIp } from "../../http/limits";
import { jsonResponse as json, jsonBody, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  ContentsPage,
  ContentsQuery,
  EventBody,
  EventSchema,
  GenerateBody,
  GeneratedSchema,
  StatsQuery,
  StatsSchema,
} from "./schemas";
import {
  generateMarketing,
  listMarketingContents,
  marketingStats,
  recordMarketingEvent,
} from "./service";

const tags = ["Marketing"];
// API.md marks these B only; a browser session riding on cookies still needs the CSRF token,
// which requireAuth checks on every write (docs/adr/0058-one-csrf-rule-for-every-write.md).
const writeGuard = [requireAuth];

const generateMarketingRoute = createRoute({
  method: "post",
  path: "/api/v1/marketing/generate",
  tags,
  security,
  summary: "Generate marketing material, optionally about one of the caller's products (billed)",
  description:
    "Costs `credits.costs.marketing` credits, or exactly the quote's with `quote_id` (POST /api/v1/credits/quote). The material is stored (see GET /api/v1/marketing/contents). " +
    "A provider outage answers 503 and returns the credits. Send an Idempotency-Key to retry safely.",
  middleware: [requireAuth, requireFeature("marketing"), idempotentRequest],
  request: { body: jsonBody(GenerateBody) },
  responses: {
    201: json(GeneratedSchema, "The generated and stored material"),
    402: errorResponse(ErrorSchema, "Not enough credits"),
    404: errorResponse(ErrorSchema, "No such product of the caller, or quote_not_found"),
    409: errorResponse(
      ErrorSchema,
      "quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running",
    ),
    503: errorResponse(ErrorSchema, "No AI provider answered; the credits were returned"),
    ...csrfErrorResponses,
    ...featureGateResponses("marketing"),
  },
});

const listContentsRoute = createRoute({
  method: "get",
  path: "/api/v1/marketing/contents",
  tags,
  security,
  summary: "The caller's generated material, newest first (filter: kind)",
  middleware: [requireAuth] as const,
  request: { query: ContentsQuery },
  responses: { 200: json(ContentsPage, "A page of material"), ...authErrorResponses },
});

const recordEventRoute = createRoute({
  method: "post",
  path: "/api/v1/marketing/events",
  tags,
  security,
  summary: "Track what happened to a piece of material (copy, share, open, click, reply, order...)",
  middleware: [...writeGuard],
  request: { body: jsonBody(EventBody) },
  responses: { 201: json(EventSchema, "Recorded"), ...csrfErrorResponses },
});

const statsRoute = createRoute({
  method: "get",
  path: "/api/v1/marketing/stats",
  tags,
  security,
  summary: "The caller's marketing event counts by type over UTC days from..to (both included)",
  middleware: [requireAuth] as const,
  request: { query: StatsQuery },
  responses: { 200: json(StatsSchema, "Counts by event type"), ...authErrorResponses },
});

/** Marketing generation and effect tracking. */
export function createMarketingRoutes() {
  const router = createRouter();
  router.openapi(generateMarketingRoute, async (c) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    return c.json(
      await generateMarketing(
        c.get("deps"),
        {
          userId: c.get("auth").userId,
          ...(key ? { idempotencyKey: key } : {}),
          ip: requestIp(c),
        },
        c.req.valid("json"),
      ),
      201,
    );
  });
  router.openapi(listContentsRoute, async (c) =>
    c.json(
      await listMarketingContents(c.get("deps"), c.get("auth").userId, c.req.valid("query")),
      200,
    ),
  );
  router.openapi(recordEventRoute, async (c) =>
    c.json(
      await recordMarketingEvent(c.get("deps"), c.get("auth").userId, c.req.valid("json")),
      201,
    ),
  );
  router.openapi(statsRoute, async (c) =>
    c.json(await marketingStats(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  return router;
}
