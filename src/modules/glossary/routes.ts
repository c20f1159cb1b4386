import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authErrorResponses, ErrorSchema, errorResponse } from "../../http/errors";
import {
  jsonBody as body,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  GlossaryPage,
  GlossaryQuery,
  GlossaryTermBody,
  GlossaryTermPatch,
  GlossaryTermSchema,
} from "./schemas";
import { createTerm, deleteTerm, listGlossary, updateTerm } from "./service";

const tags = ["Glossary"];
const middleware = [requireAuth];
const noSuchTerm = notFoundResponse("No such term in the caller's organisation");
const memberRefused = {
  403: errorResponse(
    ErrorSchema,
    "Missing or invalid CSRF token, or the caller is a member (a manager, an admin or the owner keeps the glossary)",
  ),
};
const duplicate = {
  409: errorResponse(ErrorSchema, "The pair already has this source term (whatever its case)"),
};

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/glossary",
  tags,
  security,
  summary:
    "The organisation's glossary (every member reads it), newest first; filters by language pair and text",
  middleware,
  request: { query: GlossaryQuery },
  responses: { 200: json(GlossaryPage, "A page of terms"), ...authErrorResponses },
});

const createTermRoute = createRoute({
  method: "post",
  path: "/api/v1/glossary",
  tags,
  security,
  summary:
    "Add a term: how the seller's own word (a product name, a brand) is said in a buyer's language (manager+)",
  description:
    "Languages are kept as their primary subtag (`en-GB` -> `en`). Translations into " +
    "`target_lang` use the term: machine translation through the provider's glossary, LLMs " +
    "through the prompt, and each answer says which terms it applied and which it missed.",
  middleware,
  request: { body: body(GlossaryTermBody) },
  responses: {
    201: json(GlossaryTermSchema, "Created"),
    ...duplicate,
    ...authErrorResponses,
    ...memberRefused,
  },
});

const updateTermRoute = createRoute({
  method: "patch",
  path: "/api/v1/glossary/{id}",
  tags,
  security,
  summary: "Change a term (manager+)",
  middleware,
  request: { params: IdParam, body: body(GlossaryTermPatch) },
  responses: {
    200: json(GlossaryTermSchema, "The term"),
    ...noSuchTerm,
    ...duplicate,
    ...authErrorResponses,
    ...memberRefused,
  },
});

const deleteTermRoute = createRoute({
  method: "delete",
  path: "/api/v1/glossary/{id}",
  tags,
  security,
  summary: "Delete a term (manager+)",
  middleware,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted" },
    ...noSuchTerm,
    ...authErrorResponses,
    ...memberRefused,
  },
});

/** The organisation's glossary: list, create, change, delete (import: ./import-routes.ts). */
export function createGlossaryRoutes() {
  const router = createRouter();
  router.openapi(listRoute, async (c) =>
    c.json(await listGlossary(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  router.openapi(createTermRoute, async (c) =>
    c.json(await createTerm(c.get("deps"), c.get("auth").userId, c.req.valid("json")), 201),
  );
  router.openapi(updateTermRoute, async (c) =>
    c.json(
      await updateTerm(
        c.get("deps"),
        c.get("auth").userId,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
  );
  router.openapi(deleteTermRoute, async (c) => {
    await deleteTerm(c.get("deps"), c.get("auth").userId, c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
