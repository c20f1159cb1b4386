import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requireAuth } from "../../http/auth";
import { featureGateResponses, requireFeature } from "../../http/entitlements";
import type { AppEnv } from "../../http/env";
import { csrfErrorResponses, ErrorSchema, errorResponse } from "../../http/errors";
import { IDEMPOTENCY_HEADER, idempotentRequest } from "../../http/idempotency";
import { requestIp } from "../../http/limits";
import { IdParam, jsonResponse as json, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { quotationFromInquiry } from "./from-inquiry";
import {
  FollowupDraftBody,
  FollowupDraftSchema,
  FromInquiryBody,
  FromInquirySchema,
} from "./schemas";
import { type CallerContext, draftFollowup } from "./service";

// Billable writes: a cookie session needs the CSRF token (requireAuth checks it); an
// Idempotency-Key makes a retry replay the first outcome instead of charging again.
const billableGuard = (feature: "followup_engine" | "quotations") => [
  requireAuth,
  requireFeature(feature),
  idempotentRequest,
];
const billingResponses = {
  402: errorResponse(ErrorSchema, "Not enough credits"),
  409: errorResponse(ErrorSchema, "A request with this Idempotency-Key is still running"),
  503: errorResponse(ErrorSchema, "No AI provider answered usably; the credits were returned"),
  ...csrfErrorResponses,
};

const followupDraftRoute = createRoute({
  method: "post",
  path: "/api/v1/customers/{id}/followups/draft",
  tags: ["Customers"],
  security,
  summary: "An AI-drafted follow-up message for one of the caller's customers (billed)",
  description:
    "Costs `credits.costs.followup_draft` credits (a `quote_id` charges what it quoted). Uses the " +
    "customer's status, last contact, notes and last 5 follow-up logs, and the facts of the " +
    "products they mention. Every price, MOQ, lead time and spec the draft states is checked " +
    "against the catalogue (`claims`); an unverified one is written again once, then `flagged`. " +
    "An empty, placeholder or prompt-echo draft is a failed generation: 503, credits returned. " +
    "Nothing is logged: send the message, then log the contact.",
  middleware: billableGuard("followup_engine"),
  request: {
    params: IdParam,
    body: { required: false, content: { "application/json": { schema: FollowupDraftBody } } },
  },
  responses: {
    200: json(FollowupDraftSchema, "The draft"),
    404: errorResponse(ErrorSchema, "No such customer of the caller (nothing charged)"),
    ...billingResponses,
    ...featureGateResponses("followup_engine"),
  },
});

const quotationFromInquiryRoute = createRoute({
  method: "post",
  path: "/api/v1/quotations/from-inquiry",
  tags: ["Quotations"],
  security,
  summary: "A draft quotation from a buyer's inquiry text (billed)",
  description:
    "Costs `credits.costs.quotation_from_inquiry` credits. The AI extracts the items; each is matched " +
    "to the caller's products (exact SKU, else similar name); unmatched items become free lines " +
    "priced at the buyer's target price or 0. The credits are returned if no quotation results.",
  middleware: billableGuard("quotations"),
  request: {
    body: { required: true, content: { "application/json": { schema: FromInquiryBody } } },
  },
  responses: {
    201: json(FromInquirySchema, "The created draft quotation and what was extracted"),
    404: errorResponse(ErrorSchema, "No such customer of the caller (nothing charged)"),
    ...billingResponses,
    ...featureGateResponses("quotations"),
  },
});

function caller(c: Context<AppEnv>): CallerContext {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  return {
    userId: c.get("auth").userId,
    ...(key ? { idempotencyKey: key } : {}),
    ip: requestIp(c),
  };
}

/** AI drafts on workspace data: a follow-up for a customer, a quotation from an inquiry. */
export function createAiDraftRoutes() {
  const router = createRouter();
  router.openapi(followupDraftRoute, async (c) =>
    c.json(
      await draftFollowup(c.get("deps"), caller(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(quotationFromInquiryRoute, async (c) =>
    c.json(await quotationFromInquiry(c.get("deps"), caller(c), c.req.valid("json")), 201),
  );
  return router;
}
