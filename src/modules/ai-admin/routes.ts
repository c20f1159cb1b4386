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
import { providerAdminRoutes } from "../provider-admin/routes";
import {
  FaqBody,
  FaqListQuery,
  FaqPage,
  FaqPatch,
  FaqSchema,
  ProviderSchemas,
  QuotaBody,
  QuotaListQuery,
  QuotaPage,
  QuotaPatch,
  QuotaSchema,
  RoutingBody,
  RoutingSchema,
} from "./schemas";
import {
  aiProviderAdmin,
  createFaq,
  createQuota,
  deleteFaq,
  deleteQuota,
  getFaq,
  getQuota,
  getRouting,
  listFaqs,
  listQuotas,
  putRouting,
  resetQuota,
  updateFaq,
  updateQuota,
} from "./service";

const deleted = { 204: { description: "Deleted" } };

// ---------------------------------------------------------------- AI providers

const providerTags = ["Admin: AI providers"];

// ---------------------------------------------------------------- AI routing

const getRoutingRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/ai-routing",
  tags: providerTags,
  security,
  summary: "The AI routing (system config ai.routing) and what each task will actually run",
  middleware: [...guard],
  responses: { 200: json(RoutingSchema, "Routing and effective candidates"), ...adminErrors },
});

const putRoutingRoute = createRoute({
  method: "put",
  path: "/api/v1/admin/ai-routing",
  tags: providerTags,
  security,
  summary:
    "Replace the AI routing: task -> ordered `provider` or `provider:model` entries naming " +
    "existing llm providers (a task left out gets an empty list: every enabled llm provider)",
  middleware: [...writeGuard],
  request: { body: body(RoutingBody) },
  responses: { 200: json(RoutingSchema, "The stored routing"), ...adminErrors },
});

// ---------------------------------------------------------------- translation quotas

const quotaTags = ["Admin: translation quotas"];

const listQuotasRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/translation-quotas",
  tags: quotaTags,
  security,
  summary: "Translation quotas with their current use, by provider name and period",
  middleware: [...guard],
  request: { query: QuotaListQuery },
  responses: { 200: json(QuotaPage, "A page of quotas"), ...adminErrors },
});

const createQuotaRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/translation-quotas",
  tags: quotaTags,
  security,
  summary: "Add a provider's daily or monthly character quota (one per provider and period)",
  middleware: [...writeGuard],
  request: { body: body(QuotaBody) },
  responses: {
    201: json(QuotaSchema, "Created"),
    409: errorResponse(ErrorSchema, "The provider already has a quota for that period"),
    ...adminErrors,
  },
});

const getQuotaRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/translation-quotas/{id}",
  tags: quotaTags,
  security,
  summary: "One translation quota",
  middleware: [...guard],
  request: { params: IdParam },
  responses: { 200: json(QuotaSchema, "The quota"), ...notFoundResponse(), ...adminErrors },
});

const updateQuotaRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/translation-quotas/{id}",
  tags: quotaTags,
  security,
  summary: "Change a translation quota's period, limit or enabled flag",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(QuotaPatch) },
  responses: {
    200: json(QuotaSchema, "Updated"),
    409: errorResponse(ErrorSchema, "The provider already has a quota for that period"),
    ...notFoundResponse(),
    ...adminErrors,
  },
});

const deleteQuotaRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/translation-quotas/{id}",
  tags: quotaTags,
  security,
  summary: "Delete a translation quota",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { ...deleted, ...notFoundResponse(), ...adminErrors },
});

const resetQuotaRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/translation-quotas/{id}/reset",
  tags: quotaTags,
  security,
  summary: "Zero the quota's use and start its period at the current UTC day or month",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 200: json(QuotaSchema, "Reset"), ...notFoundResponse(), ...adminErrors },
});

// ---------------------------------------------------------------- FAQ

const faqTags = ["Admin: FAQ"];

const listFaqsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/faq",
  tags: faqTags,
  security,
  summary: "FAQ entries by sort order, filtered by enabled and question text",
  middleware: [...guard],
  request: { query: FaqListQuery },
  responses: { 200: json(FaqPage, "A page of FAQ entries"), ...adminErrors },
});

const createFaqRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/faq",
  tags: faqTags,
  security,
  summary: "Add an FAQ entry the assistant answers instantly and free",
  middleware: [...writeGuard],
  request: { body: body(FaqBody) },
  responses: { 201: json(FaqSchema, "Created"), ...adminErrors },
});

const getFaqRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/faq/{id}",
  tags: faqTags,
  security,
  summary: "One FAQ entry",
  middleware: [...guard],
  request: { params: IdParam },
  responses: { 200: json(FaqSchema, "The entry"), ...notFoundResponse(), ...adminErrors },
});

const updateFaqRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/faq/{id}",
  tags: faqTags,
  security,
  summary: "Change an FAQ entry",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(FaqPatch) },
  responses: { 200: json(FaqSchema, "Updated"), ...notFoundResponse(), ...adminErrors },
});

const deleteFaqRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/faq/{id}",
  tags: faqTags,
  security,
  summary: "Delete an FAQ entry",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { ...deleted, ...notFoundResponse(), ...adminErrors },
});

/** Admin: ai-providers, ai-routing, translation-quotas, faq (API.md "Admin"). */
export function createAiAdminRoutes() {
  const router = createRouter();

  providerAdminRoutes(router, {
    paths: { list: "/api/v1/admin/ai-providers", item: "/api/v1/admin/ai-providers/{id}" },
    tags: providerTags,
    summaries: {
      list: "AI providers by name, filtered by kind and enabled (keys are never returned)",
      create: "Add an AI provider; its API key is stored encrypted and is write-only",
      get: "One AI provider",
      update: "Change an AI provider (`api_key: null` clears the key; leaving it out keeps it)",
      delete: "Delete an AI provider and its translation quotas",
    },
    schemas: ProviderSchemas,
    admin: aiProviderAdmin,
  });

  router.openapi(getRoutingRoute, async (c) => c.json(await getRouting(c.get("deps")), 200));
  router.openapi(putRoutingRoute, async (c) =>
    c.json(await putRouting(c.get("deps"), actorOf(c), c.req.valid("json")), 200),
  );

  router.openapi(listQuotasRoute, async (c) =>
    c.json(await listQuotas(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(createQuotaRoute, async (c) =>
    c.json(await createQuota(c.get("deps"), actorOf(c), c.req.valid("json")), 201),
  );
  router.openapi(getQuotaRoute, async (c) =>
    c.json(await getQuota(c.get("deps"), c.req.valid("param").id), 200),
  );
  router.openapi(updateQuotaRoute, async (c) =>
    c.json(
      await updateQuota(c.get("deps"), actorOf(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(deleteQuotaRoute, async (c) => {
    await deleteQuota(c.get("deps"), actorOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  router.openapi(resetQuotaRoute, async (c) =>
    c.json(await resetQuota(c.get("deps"), actorOf(c), c.req.valid("param").id), 200),
  );

  router.openapi(listFaqsRoute, async (c) =>
    c.json(await listFaqs(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(createFaqRoute, async (c) =>
    c.json(await createFaq(c.get("deps"), actorOf(c), c.req.valid("json")), 201),
  );
  router.openapi(getFaqRoute, async (c) =>
    c.json(await getFaq(c.get("deps"), c.req.valid("param").id), 200),
  );
  router.openapi(updateFaqRoute, async (c) =>
    c.json(
      await updateFaq(c.get("deps"), actorOf(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(deleteFaqRoute, async (c) => {
    await deleteFaq(c.get("deps"), actorOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
