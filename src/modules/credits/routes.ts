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
import { okResponse as ok, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { requireOrgOwner } from "../orgs/guard";
import {
  BalanceSchema,
  LedgerPage,
  LedgerQuery,
  PackageList,
  PlanList,
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
