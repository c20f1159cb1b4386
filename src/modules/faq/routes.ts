import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
} from "../../http/errors";
import {
  jsonBody as body,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  AcceptedReplySchema,
  OrgFaqBody,
  OrgFaqPage,
  OrgFaqPatch,
  OrgFaqQuery,
  OrgFaqSchema,
} from "./schemas";
import {
  acceptReplySuggestion,
  createOrgFaq,
  listOrgFaq,
  patchOrgFaq,
  removeOrgFaq,
} from "./service";

const tags = ["FAQ"];
const middleware = [requireAuth];
const noSuchEntry = notFoundResponse("No such FAQ entry in the caller's organisation");
const adminOnly = {
  403: errorResponse(ErrorSchema, "Only the organisation's owner and admins write its FAQ"),
};

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/faq",
  tags,
  security,
  summary: "The organisation's FAQ, newest first (candidates listed with status candidate)",
  middleware,
  request: { query: OrgFaqQuery },
  responses: { 200: json(OrgFaqPage, "A page of entries"), ...authErrorResponses },
});

const createFaqRoute = createRoute({
  method: "post",
  path: "/api/v1/faq",
  tags,
  security,
  summary: "Add an entry (owner, admin); active by default",
  middleware,
  request: { body: body(OrgFaqBody) },
  responses: {
    201: json(OrgFaqSchema, "Created"),
    ...csrfErrorResponses,
    ...adminOnly,
  },
});

const patchRoute = createRoute({
  method: "patch",
  path: "/api/v1/faq/{id}",
  tags,
  security,
  summary: "Edit an entry, or approve a candidate with status active (owner, admin)",
  middleware,
  request: { params: IdParam, body: body(OrgFaqPatch) },
  responses: {
    200: json(OrgFaqSchema, "The entry"),
    ...noSuchEntry,
    ...csrfErrorResponses,
    ...adminOnly,
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/api/v1/faq/{id}",
  tags,
  security,
  summary: "Delete an entry (owner, admin)",
  middleware,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted" },
    ...noSuchEntry,
    ...csrfErrorResponses,
    ...adminOnly,
  },
});

const acceptRoute = createRoute({
  method: "post",
  path: "/api/v1/ai/replies/{id}/accept",
  tags,
  security,
  summary: "The seller sent this suggested reply: it becomes a candidate of the organisation's FAQ",
  description:
    "The reply (an `id` of `replies` in a translation of the caller's, POST /api/v1/translate " +
    "with_replies) becomes a candidate: question the buyer's message, answer the reply, in the " +
    "buyer's language. An admin approves it (PATCH /api/v1/faq/{id} status active). Accepting " +
    "it again answers 200 with the same candidate; the first accept answers 201.",
  middleware,
  request: { params: IdParam },
  responses: {
    200: json(AcceptedReplySchema, "Accepted before: the candidate it made"),
    201: json(AcceptedReplySchema, "The new candidate"),
    ...notFoundResponse("No such reply suggestion in the caller's translations"),
    ...csrfErrorResponses,
  },
});

/** The organisation's FAQ and the accept of a reply suggestion that feeds it (ADR 0113). */
export function createFaqRoutes() {
  const router = createRouter();
  const user = (c: { get(key: "auth"): { userId: string } }) => c.get("auth").userId;
  router.openapi(listRoute, async (c) =>
    c.json(await listOrgFaq(c.get("deps"), user(c), c.req.valid("query")), 200),
  );
  router.openapi(createFaqRoute, async (c) =>
    c.json(await createOrgFaq(c.get("deps"), user(c), c.req.valid("json")), 201),
  );
  router.openapi(patchRoute, async (c) =>
    c.json(
      await patchOrgFaq(c.get("deps"), user(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(deleteRoute, async (c) => {
    await removeOrgFaq(c.get("deps"), user(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  router.openapi(acceptRoute, async (c) => {
    const accepted = await acceptReplySuggestion(c.get("deps"), user(c), c.req.valid("param").id);
    return accepted.created ? c.json(accepted, 201) : c.json(accepted, 200);
  });
  return router;
}
