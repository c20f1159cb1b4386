import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../../http/auth";
import { authErrorResponses, ErrorSchema, errorResponse } from "../../../http/errors";
import {
  jsonBody as body,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
} from "../../../http/openapi";
import { createRouter } from "../../../http/router";
import { pageQuery } from "../../../lib/pagination";
import {
  BulkBody,
  BulkResultSchema,
  OwnershipChangeSchema,
  OwnershipPage,
  ReleaseBody,
  TransferBody,
} from "./schemas";
import {
  bulkCustomers,
  claimCustomer,
  listOwnership,
  releaseCustomer,
  transferCustomer,
} from "./service";

const tags = ["Customers"];
const middleware = [requireAuth];
const noSuchCustomer = notFoundResponse("No such customer visible to the caller");
const forbiddenResponse = (description: string) => ({
  403: errorResponse(ErrorSchema, description),
});
const conflictResponse = (description: string) => ({
  409: errorResponse(ErrorSchema, description),
});

const claimRoute = createRoute({
  method: "post",
  path: "/api/v1/customers/{id}/claim",
  tags,
  security,
  summary: "Take a customer from the organisation's pool (the pool rules apply)",
  middleware,
  request: { params: IdParam },
  responses: {
    200: json(OwnershipChangeSchema, "Claimed: the caller holds it"),
    ...noSuchCustomer,
    ...conflictResponse(
      "Not in the pool, or a pool rule refuses it: `detail` names the rule " +
        "(pool.max_claims_per_day, pool.max_customers_per_member, pool.reclaim_cooldown_days)",
    ),
    ...authErrorResponses,
  },
});

const releaseRoute = createRoute({
  method: "post",
  path: "/api/v1/customers/{id}/release",
  tags,
  security,
  summary: "Give a customer back to the pool with a reason (its holder, or a manager and up)",
  middleware,
  request: { params: IdParam, body: body(ReleaseBody) },
  responses: {
    200: json(OwnershipChangeSchema, "Released: in the pool"),
    ...noSuchCustomer,
    ...conflictResponse("Already in the pool"),
    ...authErrorResponses,
  },
});

const transferRoute = createRoute({
  method: "post",
  path: "/api/v1/customers/{id}/transfer",
  tags,
  security,
  summary: "Hand a customer to a member of the organisation (manager and up)",
  middleware,
  request: { params: IdParam, body: body(TransferBody) },
  responses: {
    200: json(OwnershipChangeSchema, "Transferred"),
    ...forbiddenResponse("The caller is a member: transfers need the manager role"),
    ...noSuchCustomer,
    ...conflictResponse("That member already holds it"),
    ...authErrorResponses,
  },
});

const ownershipRoute = createRoute({
  method: "get",
  path: "/api/v1/customers/{id}/ownership",
  tags,
  security,
  summary: "Who held a customer when: create, claim, release, transfer, recycle, oldest first",
  middleware,
  request: { params: IdParam, query: pageQuery() },
  responses: {
    200: json(OwnershipPage, "A page of the history"),
    ...noSuchCustomer,
    ...authErrorResponses,
  },
});

const bulkRoute = createRoute({
  method: "post",
  path: "/api/v1/customers/bulk",
  tags,
  security,
  summary: "Transfer, release, set the status of or delete up to 1000 customers, each judged",
  middleware,
  request: { body: body(BulkBody) },
  responses: {
    200: json(BulkResultSchema, "What was done and what was refused, id by id"),
    ...forbiddenResponse("transfer by a member: it needs the manager role"),
    ...authErrorResponses,
  },
});

/** The shared customer pool (issue #22, docs/teams.md, ADR 0099). */
export function createCustomerPoolRoutes() {
  const router = createRouter();
  const user = (c: { get(key: "auth"): { userId: string } }) => c.get("auth").userId;
  router.openapi(bulkRoute, async (c) =>
    c.json(await bulkCustomers(c.get("deps"), user(c), c.req.valid("json")), 200),
  );
  router.openapi(claimRoute, async (c) =>
    c.json(await claimCustomer(c.get("deps"), user(c), c.req.valid("param").id), 200),
  );
  router.openapi(releaseRoute, async (c) =>
    c.json(
      await releaseCustomer(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(transferRoute, async (c) =>
    c.json(
      await transferCustomer(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(ownershipRoute, async (c) =>
    c.json(
      await listOwnership(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("query")),
      200,
    ),
  );
  return router;
}
