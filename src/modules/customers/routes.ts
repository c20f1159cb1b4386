import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { planLimitResponses } from "../../http/entitlements";
import { authErrorResponses, ErrorSchema, errorResponse } from "../../http/errors";
import {
  jsonBody as body,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { pageQuery } from "../../lib/pagination";
import { customerHealth, healthOverview, listHealthScores } from "./health";
import {
  CustomerBody,
  CustomerListQuery,
  CustomerPage,
  CustomerPatch,
  CustomerSchema,
  FollowupBody,
  FollowupPage,
  FollowupResultSchema,
  HealthOverviewSchema,
  HealthSchema,
  HealthScoresPage,
  HealthScoresQuery,
  SilentPage,
  SilentQuery,
  StatusConflictSchema,
} from "./schemas";
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  listFollowups,
  listSilentCustomers,
  logFollowup,
  updateCustomer,
} from "./service";

const tags = ["Customers"];
const middleware = [requireAuth];
// A customer the caller does not see (another member's, another organisation's) is a 404 like
// an id that does not exist; one they see but may not change (a member and the pool) is a 409.
const noSuchCustomer = notFoundResponse("No such customer visible to the caller");
const poolCustomer = {
  409: errorResponse(ErrorSchema, "A pool customer: a member claims it before changing it"),
};

const listCustomersRoute = createRoute({
  method: "get",
  path: "/api/v1/customers",
  tags,
  security,
  summary:
    "The customers the caller sees (a member: theirs and the pool; manager+: the organisation's): owner, filters, search and sort; size up to 1000",
  middleware,
  request: { query: CustomerListQuery },
  responses: {
    200: json(CustomerPage, "A page of customers"),
    403: errorResponse(ErrorSchema, "A member naming another member in `owner`"),
    ...authErrorResponses,
  },
});

const createCustomerRoute = createRoute({
  method: "post",
  path: "/api/v1/customers",
  tags,
  security,
  summary: "Add a customer (at least a company, a contact name or an email), held by the caller",
  middleware,
  request: { body: body(CustomerBody) },
  responses: {
    201: json(CustomerSchema, "Created"),
    ...authErrorResponses,
    ...planLimitResponses("customers"),
  },
});

const healthOverviewRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/health-overview",
  tags,
  security,
  summary: "Counts per health level, the average score and the 5 most at risk",
  middleware,
  responses: { 200: json(HealthOverviewSchema, "Overview"), ...authErrorResponses },
});

const healthScoresRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/health-scores",
  tags,
  security,
  summary: "Each customer's health score and level, lowest first by default",
  middleware,
  request: { query: HealthScoresQuery },
  responses: { 200: json(HealthScoresPage, "A page of scores"), ...authErrorResponses },
});

const silentCustomersRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/silent",
  tags,
  security,
  summary: "Customers (not won or lost) silent for longer than customers.silence_days",
  middleware,
  request: { query: SilentQuery },
  responses: { 200: json(SilentPage, "Longest silent first"), ...authErrorResponses },
});

const customerHealthRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/{id}/health",
  tags,
  security,
  summary: "One customer's health score with its factors",
  middleware,
  request: { params: IdParam },
  responses: { 200: json(HealthSchema, "Health"), ...noSuchCustomer, ...authErrorResponses },
});

const listFollowupsRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/{id}/followups",
  tags,
  security,
  summary: "A customer's follow-up log, latest contact first",
  middleware,
  request: { params: IdParam, query: pageQuery() },
  responses: {
    200: json(FollowupPage, "A page of follow-ups"),
    ...noSuchCustomer,
    ...authErrorResponses,
  },
});

const logFollowupRoute = createRoute({
  method: "post",
  path: "/api/v1/customers/{id}/followups",
  tags,
  security,
  summary: "Log a contact; moves last_contact_at and schedules next_followup_at",
  middleware,
  request: { params: IdParam, body: body(FollowupBody) },
  responses: {
    201: json(FollowupResultSchema, "Logged"),
    ...noSuchCustomer,
    ...poolCustomer,
    ...authErrorResponses,
  },
});

const getCustomerRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/{id}",
  tags,
  security,
  summary: "One customer",
  middleware,
  request: { params: IdParam },
  responses: { 200: json(CustomerSchema, "Customer"), ...noSuchCustomer, ...authErrorResponses },
});

const updateCustomerRoute = createRoute({
  method: "patch",
  path: "/api/v1/customers/{id}",
  tags,
  security,
  summary: "Change a customer; status changes follow the allowed transitions (else 409)",
  middleware,
  request: { params: IdParam, body: body(CustomerPatch) },
  responses: {
    200: json(CustomerSchema, "Updated"),
    ...noSuchCustomer,
    409: errorResponse(
      z.union([StatusConflictSchema, ErrorSchema]),
      "Status change not allowed from the current status; or a pool customer (claim it first)",
    ),
    ...authErrorResponses,
  },
});

const deleteCustomerRoute = createRoute({
  method: "delete",
  path: "/api/v1/customers/{id}",
  tags,
  security,
  summary: "Delete a customer with its follow-up log (quotations keep their copy)",
  middleware,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted" },
    ...noSuchCustomer,
    ...poolCustomer,
    ...authErrorResponses,
  },
});

/** Literal routes (health-overview, health-scores, silent) are registered before /{id}. */
export function createCustomerRoutes() {
  const router = createRouter();
  const user = (c: { get(key: "auth"): { userId: string } }) => c.get("auth").userId;
  router.openapi(listCustomersRoute, async (c) =>
    c.json(await listCustomers(c.get("deps"), user(c), c.req.valid("query")), 200),
  );
  router.openapi(createCustomerRoute, async (c) =>
    c.json(await createCustomer(c.get("deps"), user(c), c.req.valid("json")), 201),
  );
  router.openapi(healthOverviewRoute, async (c) =>
    c.json(await healthOverview(c.get("deps"), user(c)), 200),
  );
  router.openapi(healthScoresRoute, async (c) =>
    c.json(await listHealthScores(c.get("deps"), user(c), c.req.valid("query")), 200),
  );
  router.openapi(silentCustomersRoute, async (c) =>
    c.json(await listSilentCustomers(c.get("deps"), user(c), c.req.valid("query")), 200),
  );
  router.openapi(customerHealthRoute, async (c) =>
    c.json(await customerHealth(c.get("deps"), user(c), c.req.valid("param").id), 200),
  );
  router.openapi(listFollowupsRoute, async (c) =>
    c.json(
      await listFollowups(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("query")),
      200,
    ),
  );
  router.openapi(logFollowupRoute, async (c) =>
    c.json(
      await logFollowup(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("json")),
      201,
    ),
  );
  router.openapi(getCustomerRoute, async (c) =>
    c.json(await getCustomer(c.get("deps"), user(c), c.req.valid("param").id), 200),
  );
  router.openapi(updateCustomerRoute, async (c) =>
    c.json(
      await updateCustomer(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(deleteCustomerRoute, async (c) => {
    await deleteCustomer(c.get("deps"), user(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
