import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { publicCache } from "../../http/caching";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  errorResponses,
} from "../../http/errors";
import {
  jsonResponse as json,
  jsonBody,
  okResponse as ok,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { requireOrgOwner } from "../orgs/guard";
import { quoteOperation } from "./quotes";
import {
  BalanceSchema,
  LedgerPage,
  LedgerQuery,
  PackageList,
  PlanList,
  QuoteBody,
  QuoteSchema,
  SubscriptionSchema,
} from "./schemas";
import {
  cancelSubscription,
  getBalance,
  getSubscription,
  listLedger,
  listPackages,
  listPlans,
} from "./service";

const tags = ["Credits"];

const balanceRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/balance",
  tags,
  security,
  summary:
    "The organisation's spendable credits, plan, trial end, what expires when, and the caller's monthly limit and use",
  middleware: [requireAuth] as const,
  responses: { ...ok(BalanceSchema, "Balance"), ...authErrorResponses },
});

const historyRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/history",
  tags,
  security,
  summary: "The organisation's ledger, newest first: a member's own rows, manager+ every member's",
  middleware: [requireAuth] as const,
  request: { query: LedgerQuery },
  responses: {
    ...ok(LedgerPage, "A page of ledger rows"),
    403: errorResponse(ErrorSchema, "A member filtering by another member"),
    404: errorResponse(ErrorSchema, "user_id is not a member of the caller's organisation"),
    ...authErrorResponses,
  },
});

const packagesRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/packages",
  tags,
  summary: "Credit packages on sale",
  description: "Public and cacheable: `Cache-Control: public`, an ETag, 304 on If-None-Match.",
  middleware: [publicCache()] as const,
  responses: { ...ok(PackageList, "Packages"), ...errorResponses },
});

const plansRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/plans",
  tags,
  summary: "Subscription plans; yearly = round(12 x monthly x (1 - plans.yearly_discount))",
  description: "Public and cacheable: `Cache-Control: public`, an ETag, 304 on If-None-Match.",
  middleware: [publicCache()] as const,
  responses: { ...ok(PlanList, "Plans"), ...errorResponses },
});

const subscriptionRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/subscription",
  tags,
  security,
  summary: "The caller's plan in effect, billing cycle, period, renewal and cancel state",
  middleware: [requireAuth] as const,
  responses: { ...ok(SubscriptionSchema, "Subscription"), ...authErrorResponses },
});

const cancelSubscriptionRoute = createRoute({
  method: "post",
  path: "/api/v1/credits/subscription/cancel",
  tags,
  security: csrfSecurity,
  summary: "Cancel at period end: the plan keeps working to its end, then the account is free",
  description:
    "Owner only (billing is the owner's). Marks every running paid subscription of the " +
    "caller's organisation, whoever paid it; a repeat changes nothing. Paying for a plan again " +
    "afterwards renews it (the new period is not cancelled).",
  middleware: [requireAuth, requireCsrf, requireOrgOwner] as const,
  responses: {
    ...ok(SubscriptionSchema, "The subscription, now cancelled at period end"),
    ...csrfErrorResponses,
    403: errorResponse(
      ErrorSchema,
      "Missing or invalid CSRF token, or not the organisation's owner",
    ),
    404: errorResponse(ErrorSchema, "No running paid subscription"),
    409: errorResponse(ErrorSchema, "On the trial, which ends by itself"),
  },
});

const quoteRoute = createRoute({
  method: "post",
  path: "/api/v1/credits/quote",
  tags,
  security,
  summary:
    "Price a billable operation before it runs: the route called with quote_id charges exactly that",
  description:
    "`operation` is the cost key of a billable route (credits.costs), `input` the body that route " +
    "would get. The answer's `quote_id`, sent as that route's body field `quote_id` within 10 " +
    "minutes, charges exactly `credits`, once, even if the configured cost changes meanwhile. " +
    "That route then answers 404 `quote_not_found` for a quote that is not the caller's, 409 " +
    "`quote_used` when it was spent already (a refunded charge gives it back), " +
    "`quote_expired` after its time and `quote_wrong_operation` for another operation's quote. " +
    "Nothing is charged here (ADR 0108).",
  middleware: [requireAuth] as const,
  request: { body: jsonBody(QuoteBody) },
  responses: {
    201: json(QuoteSchema, "The quote"),
    ...csrfErrorResponses,
    503: errorResponse(ErrorSchema, "The operation has no configured price"),
  },
});

export function createCreditRoutes() {
  const router = createRouter();
  router.openapi(balanceRoute, async (c) =>
    c.json(await getBalance(c.get("deps"), c.get("auth").userId), 200),
  );
  router.openapi(historyRoute, async (c) => {
    const { user_id, ...query } = c.req.valid("query");
    return c.json(
      await listLedger(c.get("deps"), {
        ...query,
        callerId: c.get("auth").userId,
        userId: user_id,
      }),
      200,
    );
  });
  router.openapi(quoteRoute, async (c) =>
    c.json(await quoteOperation(c.get("deps"), c.get("auth").userId, c.req.valid("json")), 201),
  );
  router.openapi(packagesRoute, async (c) =>
    c.json({ items: await listPackages(c.get("deps")) }, 200),
  );
  router.openapi(plansRoute, async (c) => c.json({ items: await listPlans(c.get("deps")) }, 200));
  router.openapi(subscriptionRoute, async (c) =>
    c.json(await getSubscription(c.get("deps"), c.get("auth").userId), 200),
  );
  router.openapi(cancelSubscriptionRoute, async (c) =>
    c.json(await cancelSubscription(c.get("deps"), c.get("auth").userId), 200),
  );
  return router;
}
