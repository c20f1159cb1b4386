import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { featureGateResponses, requireFeature } from "../../http/entitlements";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  validationError,
} from "../../http/errors";
import { IDEMPOTENCY_HEADER, idempotentRequest } from "../../http/idempotency";
import { requestIp } from "../../http/limits";
import {
  IdParam,
  jsonResponse as json,
  jsonBody,
  notFoundResponse,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { keepAliveOf } from "../jobs/background";
import { getDiscoveryJob, startDiscoveryJob } from "./jobs";
import { deleteRecord, getRecord, listRecords, saveRecord } from "./records";
import {
  DeleteQuery,
  DiscoveryJobSchema,
  DiscoveryJobStarted,
  DiscoveryJobStartedHeaders,
  DiscoveryResultSchema,
  RecordBody,
  RecordListQuery,
  RecordPage,
  RecordSchema,
  SearchBody,
} from "./schemas";
import { searchDiscovery } from "./service";

const tags = ["Discovery"];
// API.md marks these B only; a browser session riding on cookies still needs the CSRF token,
// which requireAuth checks on every write (docs/decisions.md, CSRF).
const writeGuard = [requireAuth];
const noSuchRecord = notFoundResponse("No such discovery record of the caller");

const searchRoute = createRoute({
  method: "post",
  path: "/api/v1/discovery/search",
  tags,
  security,
  summary: "Find prospective buyer companies for a product in a market (billed)",
  description:
    "Runs 3 web-search queries (importers; distributors and wholesalers; buyers) over the " +
    "configured search providers, then an AI analysis of the results into companies with a fit " +
    "score, best first; bounded to 120 s. Each company says its `role` to the seller (with " +
    "`role_reason`), the search result each field came from (`sources`), and " +
    "`existing_customer_id` when it is a customer the caller sees. Costs " +
    "`credits.costs.discovery` credits (or the quote's, with `quote_id`); a search that finds " +
    "no company is refunded (`credits_charged: 0`); when no search provider or AI provider " +
    "answers, 503 and the credits are returned. The result is not saved: POST " +
    "/api/v1/discovery/records saves it. Send an Idempotency-Key to retry safely.",
  middleware: [requireAuth, requireFeature("discovery"), idempotentRequest],
  request: { body: jsonBody(SearchBody) },
  responses: {
    200: json(DiscoveryResultSchema, "The companies found, with the queries run"),
    402: errorResponse(ErrorSchema, "Not enough credits"),
    404: errorResponse(ErrorSchema, "quote_not_found: no such quote of the caller"),
    409: errorResponse(
      ErrorSchema,
      "quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running",
    ),
    503: errorResponse(
      ErrorSchema,
      "No search or AI provider answered, or the search took longer than 120 s (code " +
        "`timed_out`, its own message); the credits were returned",
    ),
    ...csrfErrorResponses,
    ...featureGateResponses("discovery"),
  },
});

const startJobRoute = createRoute({
  method: "post",
  path: "/api/v1/discovery/jobs",
  tags,
  security,
  summary: "Run a discovery search in the background (billed); poll the job for progress",
  description:
    "Same body, feature, price and Idempotency-Key handling as POST /discovery/search, but " +
    "answers 202 at once with `Location: /api/v1/discovery/jobs/{id}`; GET it for the progress " +
    "of each query and of the analysis, then the result (saved as a discovery record too). A " +
    "failed search fails the job and returns the credits; a job that finds no company succeeds " +
    "and is refunded (`credits_charged: 0`).",
  middleware: [requireAuth, requireFeature("discovery"), idempotentRequest],
  request: { body: jsonBody(SearchBody) },
  responses: {
    202: {
      description: "The job was queued",
      headers: DiscoveryJobStartedHeaders,
      content: { "application/json": { schema: DiscoveryJobStarted } },
    },
    402: errorResponse(ErrorSchema, "Not enough credits (nothing written)"),
    404: errorResponse(ErrorSchema, "quote_not_found: no such quote of the caller"),
    409: errorResponse(
      ErrorSchema,
      "quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running",
    ),
    503: errorResponse(ErrorSchema, "No search or AI provider is configured; nothing charged"),
    ...csrfErrorResponses,
    ...featureGateResponses("discovery"),
  },
});

const getJobRoute = createRoute({
  method: "get",
  path: "/api/v1/discovery/jobs/{id}",
  tags,
  security,
  summary: "A background discovery search: status, progress per query and analysis, the result",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    200: json(DiscoveryJobSchema, "The job"),
    404: errorResponse(ErrorSchema, "No such discovery job of the caller"),
    ...authErrorResponses,
  },
});

const saveRecordRoute = createRoute({
  method: "post",
  path: "/api/v1/discovery/records",
  tags,
  security,
  summary: "Save a discovery search (product, market and the companies kept) to the history",
  middleware: [...writeGuard],
  request: { body: jsonBody(RecordBody) },
  responses: { 201: json(RecordSchema, "The saved record"), ...csrfErrorResponses },
});

const listRecordsRoute = createRoute({
  method: "get",
  path: "/api/v1/discovery/records",
  tags,
  security,
  summary: "The caller's saved discovery searches, newest first (filter: q)",
  middleware: [requireAuth] as const,
  request: { query: RecordListQuery },
  responses: { 200: json(RecordPage, "A page of records"), ...authErrorResponses },
});

const getRecordRoute = createRoute({
  method: "get",
  path: "/api/v1/discovery/records/{id}",
  tags,
  security,
  summary: "One saved discovery search",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    200: json(RecordSchema, "The record"),
    ...noSuchRecord,
    ...authErrorResponses,
  },
});

const deleteRecordRoute = createRoute({
  method: "delete",
  path: "/api/v1/discovery/records/{id}",
  tags,
  security,
  summary: "Delete a saved discovery search",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...noSuchRecord, ...csrfErrorResponses },
});

const deleteRecordByQueryRoute = createRoute({
  method: "delete",
  path: "/api/v1/discovery/records",
  tags,
  security,
  summary: "Delete a saved discovery search named by `?id=` (same as the path form)",
  middleware: [...writeGuard],
  request: { query: DeleteQuery },
  responses: { 204: { description: "Deleted" }, ...noSuchRecord, ...csrfErrorResponses },
});

/** Customer discovery: search (billed, or as a background job), saved records. */
export function createDiscoveryRoutes() {
  const router = createRouter();
  router.openapi(searchRoute, async (c) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    return c.json(
      await searchDiscovery(
        c.get("deps"),
        {
          userId: c.get("auth").userId,
          ...(key ? { idempotencyKey: key } : {}),
          ip: requestIp(c),
        },
        c.req.valid("json"),
      ),
      200,
    );
  });
  router.openapi(startJobRoute, async (c) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    const started = await startDiscoveryJob(
      c.get("deps"),
      { userId: c.get("auth").userId, ...(key ? { idempotencyKey: key } : {}), ip: requestIp(c) },
      c.req.valid("json"),
      keepAliveOf(c),
    );
    c.header("Location", `/api/v1/discovery/jobs/${started.id}`);
    return c.json(started, 202);
  });
  router.openapi(getJobRoute, async (c) =>
    c.json(
      await getDiscoveryJob(c.get("deps"), c.get("auth").userId, c.req.valid("param").id),
      200,
    ),
  );
  router.openapi(saveRecordRoute, async (c) =>
    c.json(await saveRecord(c.get("deps"), c.get("auth").userId, c.req.valid("json")), 201),
  );
  router.openapi(listRecordsRoute, async (c) =>
    c.json(await listRecords(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  router.openapi(getRecordRoute, async (c) =>
    c.json(await getRecord(c.get("deps"), c.get("auth").userId, c.req.valid("param").id), 200),
  );
  router.openapi(deleteRecordRoute, async (c) => {
    await deleteRecord(c.get("deps"), c.get("auth").userId, c.req.valid("param").id);
    return c.body(null, 204);
  });
  router.openapi(deleteRecordByQueryRoute, async (c) => {
    const { id } = c.req.valid("query");
    if (!id) {
      throw validationError([
        {
          loc: ["query", "id"],
          msg: "Name the record: DELETE /api/v1/discovery/records/{id} or ?id=",
          type: "missing",
        },
      ]);
    }
    await deleteRecord(c.get("deps"), c.get("auth").userId, id);
    return c.body(null, 204);
  });
  return router;
}
