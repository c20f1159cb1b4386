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
import {
  IdParam,
  jsonResponse as json,
  jsonBody,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  TranslateBody,
  TranslateResultSchema,
  TranslationSchema,
  TranslationsPage,
  TranslationsQuery,
} from "./schemas";
import { getTranslation, listTranslations, translate } from "./service";

const tags = ["AI"];

const translateRoute = createRoute({
  method: "post",
  path: "/api/v1/translate",
  tags,
  security,
  summary: "Translate a buyer's message (machine translation, then LLMs), optionally with replies",
  description:
    "Costs the `translate` credits (system config `credits.costs`); refunded when no provider " +
    "could translate (503). Providers are tried tier by tier (machine translation, then the " +
    "`translate` task's LLMs), each within its translation quota. With `with_replies`, 3 reply " +
    "suggestions in the buyer's language with their translations; if they cannot be produced " +
    'the translation is still returned with `replies: []` and `replies_error: "unavailable"`. ' +
    "Each reply has an `id` (for POST /api/v1/ai/replies/{id}/accept) and its `claims`: every " +
    "price, MOQ, lead time and spec it states, checked against the catalogue; an unverified one " +
    "makes the replies be written again once, then the reply is `flagged`. " +
    "The organisation's glossary (/api/v1/glossary) is applied: machine translation through the " +
    "provider's glossary, LLMs through the prompt with a miss repaired once; `glossary` lists " +
    "the terms of the text `applied` and the `mismatches`. " +
    "Send an Idempotency-Key header to make a retry charge once; `quote_id` charges a quote.",
  middleware: [requireAuth, requireFeature("translate"), idempotentRequest] as const,
  request: { body: jsonBody(TranslateBody) },
  responses: {
    200: json(TranslateResultSchema, "The translation, stored in the caller's history"),
    402: errorResponse(ErrorSchema, "Not enough credits (nothing was charged or written)"),
    404: errorResponse(ErrorSchema, "`quote_id` names no quote of the caller"),
    409: errorResponse(
      ErrorSchema,
      "A request with this Idempotency-Key is still running, or the quote was used or expired",
    ),
    503: errorResponse(ErrorSchema, "No translation provider is available; credits returned"),
    ...csrfErrorResponses,
    ...featureGateResponses("translate"),
  },
});

const listTranslationsRoute = createRoute({
  method: "get",
  path: "/api/v1/translations",
  tags,
  security,
  summary: "The caller's translation history, newest first",
  middleware: [requireAuth] as const,
  request: { query: TranslationsQuery },
  responses: { 200: json(TranslationsPage, "A page of translations"), ...authErrorResponses },
});

const getTranslationRoute = createRoute({
  method: "get",
  path: "/api/v1/translations/{id}",
  tags,
  security,
  summary: "One of the caller's translations",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    200: json(TranslationSchema, "The translation"),
    404: errorResponse(ErrorSchema, "No such translation of the caller"),
    ...authErrorResponses,
  },
});

/** POST /api/v1/translate and the caller's translation history. */
export function createTranslateRoutes() {
  const router = createRouter();
  router.openapi(translateRoute, async (c) => {
    const result = await translate(
      c.get("deps"),
      {
        userId: c.get("auth").userId,
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
        ip: requestIp(c),
      },
      c.req.valid("json"),
    );
    return c.json(result, 200);
  });
  router.openapi(listTranslationsRoute, async (c) =>
    c.json(await listTranslations(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  router.openapi(getTranslationRoute, async (c) =>
    c.json(await getTranslation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id), 200),
  );
  return router;
}
