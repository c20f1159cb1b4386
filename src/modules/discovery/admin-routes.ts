import { createRoute } from "@hono/zod-openapi";
import { ErrorSchema, errorResponse } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  jsonBody as body,
  adminGuard as guard,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import {
  createSearchProvider,
  deleteSearchProvider,
  getSearchProvider,
  listSearchProviders,
  updateSearchProvider,
} from "./admin-service";
import {
  ProviderBody,
  ProviderListQuery,
  ProviderPage,
  ProviderPatch,
  ProviderSchema,
} from "./schemas";

const tags = ["Admin: search providers"];
const nameTaken = { 409: errorResponse(ErrorSchema, "Name already used") };

const listSearchProvidersRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/search-providers",
  tags,
  security,
  summary: "Search providers by name, filtered by kind and enabled (keys are never returned)",
  description:
    "Discovery tries the enabled providers in the order of system config " +
    "`search.providers_order` (entries name a provider or a kind), then by name.",
  middleware: [...guard],
  request: { query: ProviderListQuery },
  responses: { 200: json(ProviderPage, "A page of providers"), ...adminErrors },
});

const createSearchProviderRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/search-providers",
  tags,
  security,
  summary: "Add a search provider; its API key is stored encrypted and is write-only",
  middleware: [...writeGuard],
  request: { body: body(ProviderBody) },
  responses: { 201: json(ProviderSchema, "Created"), ...nameTaken, ...adminErrors },
});

const getSearchProviderRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/search-providers/{id}",
  tags,
  security,
  summary: "One search provider",
  middleware: [...guard],
  request: { params: IdParam },
  responses: { 200: json(ProviderSchema, "The provider"), ...notFoundResponse(), ...adminErrors },
});

const updateSearchProviderRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/search-providers/{id}",
  tags,
  security,
  summary: "Change a search provider (`api_key: null` clears the key; leaving it out keeps it)",
  description:
    "A new `base_url` must be public or listed in OUTBOUND_ALLOW_HOSTS (https in production), " +
    "and needs `api_key` in the same request when a key is stored (422 otherwise), so a stored " +
    "key is never sent to a host it was not entered for.",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(ProviderPatch) },
  responses: {
    200: json(ProviderSchema, "Updated"),
    ...nameTaken,
    ...notFoundResponse(),
    ...adminErrors,
  },
});

const deleteSearchProviderRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/search-providers/{id}",
  tags,
  security,
  summary: "Delete a search provider",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...notFoundResponse(), ...adminErrors },
});

/** Admin: search providers (CRUD, keys write-only). */
export function createSearchProviderAdminRoutes() {
  const router = createRouter();
  router.openapi(listSearchProvidersRoute, async (c) =>
    c.json(await listSearchProviders(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(createSearchProviderRoute, async (c) =>
    c.json(await createSearchProvider(c.get("deps"), actorOf(c), c.req.valid("json")), 201),
  );
  router.openapi(getSearchProviderRoute, async (c) =>
    c.json(await getSearchProvider(c.get("deps"), c.req.valid("param").id), 200),
  );
  router.openapi(updateSearchProviderRoute, async (c) =>
    c.json(
      await updateSearchProvider(
        c.get("deps"),
        actorOf(c),
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
  );
  router.openapi(deleteSearchProviderRoute, async (c) => {
    await deleteSearchProvider(c.get("deps"), actorOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
