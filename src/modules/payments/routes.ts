import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { requireAuth } from "../../http/auth";
import { requireCsrf } from "../../http/csrf";
import type { AppEnv } from "../../http/env";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  errorResponses,
  forbidden,
  rateLimitedResponses,
} from "../../http/errors";
import { idempotentRequest } from "../../http/idempotency";
import { limitByUser } from "../../http/limits";
import { bearerSecurity as security } from "../../http/openapi";
import { RATE_LIMIT_RULES } from "../../http/rate-limit-rules";
import { createRouter } from "../../http/router";
import { requireOrgOwner } from "../orgs/guard";
import {
  CallbackAckSchema,
  CallbackRejectSchema,
  CreateOrderBody,
  OrderNoParam,
  OrderSchema,
  OrdersPage,
  OrdersQuery,
  PurchaseBody,
  StripeAckSchema,
  SubscribeBody,
} from "./schemas";
import {
  createOrder,
  getOrder,
  handleGatewayCallback,
  handleStripeWebhook,
  listOrders,
  renderSandboxPage,
  sandboxCancel,
  sandboxPagePath,
  sandboxPay,
} from "./service";

const tags = ["Payments"];
const csrfSecurity = [{ bearerAuth: [], csrfToken: [] }];

/** Guests have no account to credit or invoice: they register first. */
const forbidGuests: MiddlewareHandler<AppEnv> = async function forbidGuests(c, next) {
  if (c.get("auth").isGuest) throw forbidden("Register to buy", "guest_not_allowed");
  await next();
};

/** Separate budgets: polling an order never blocks buying (http/rate-limit-rules.ts). */
const limitPayments = limitByUser(RATE_LIMIT_RULES.payment);
const limitPaymentReads = limitByUser(RATE_LIMIT_RULES.paymentRead);

/**
 * Every POST that creates an order honours Idempotency-Key (http/idempotency.ts): a double
 * click sent with one key makes one order; the repeat gets the first 201 again with
 * `Idempotent-Replayed: true`, the same key with another body is 422 `idempotency_conflict`,
 * and a repeat while the first is still running is 409. Only the 201 is kept: a refused order
 * (404, 400, 503) frees the key for the retry. Hence `idempotentRequest` on the three below.
 */
/** Who may order: a signed-in owner (billing is the owner's), within the budget, once per key. */
const orderGuards = [
  requireAuth,
  requireCsrf,
  forbidGuests,
  requireOrgOwner,
  limitPayments,
  idempotentRequest,
];

const created = {
  201: {
    description: "Order created; send the payer to pay_url",
    content: { "application/json": { schema: OrderSchema } },
  },
};
const buyErrors = {
  ...csrfErrorResponses,
  403: errorResponse(
    ErrorSchema,
    "Missing or invalid CSRF token, a guest, or not the organisation's owner (billing is the owner's)",
  ),
  ...rateLimitedResponses,
  400: errorResponse(ErrorSchema, "The payment provider refused the order"),
  404: errorResponse(ErrorSchema, "Unknown package or plan"),
  503: errorResponse(ErrorSchema, "Payment provider not configured or unavailable"),
};

const createOrderRoute = createRoute({
  method: "post",
  path: "/api/v1/payments/create-order",
  tags,
  security: csrfSecurity,
  summary: "Order one month of a plan (by plan code)",
  middleware: orderGuards,
  request: {
    body: { content: { "application/json": { schema: CreateOrderBody } }, required: true },
  },
  responses: { ...created, ...buyErrors },
});

const purchaseRoute = createRoute({
  method: "post",
  path: "/api/v1/credits/purchase",
  tags,
  security: csrfSecurity,
  summary: "Order a credit package",
  middleware: orderGuards,
  request: { body: { content: { "application/json": { schema: PurchaseBody } }, required: true } },
  responses: { ...created, ...buyErrors },
});

const subscribeRoute = createRoute({
  method: "post",
  path: "/api/v1/credits/subscribe",
  tags,
  security: csrfSecurity,
  summary: "Order a plan, monthly or yearly",
  middleware: orderGuards,
  request: { body: { content: { "application/json": { schema: SubscribeBody } }, required: true } },
  responses: { ...created, ...buyErrors },
});

const listOrdersRoute = createRoute({
  method: "get",
  path: "/api/v1/payments/orders",
  tags,
  security,
  summary: "The caller's orders, newest first",
  middleware: [requireAuth, limitPaymentReads] as const,
  request: { query: OrdersQuery },
  responses: {
    200: {
      description: "A page of orders",
      content: { "application/json": { schema: OrdersPage } },
    },
    ...authErrorResponses,
    ...rateLimitedResponses,
  },
});

const getOrderRoute = createRoute({
  method: "get",
  path: "/api/v1/payments/orders/{order_no}",
  tags,
  security,
  summary: "One of the caller's orders and its status",
  middleware: [requireAuth, limitPaymentReads] as const,
  request: { params: OrderNoParam },
  responses: {
    200: { description: "The order", content: { "application/json": { schema: OrderSchema } } },
    404: errorResponse(ErrorSchema, "No such order of the caller's"),
    ...authErrorResponses,
    ...rateLimitedResponses,
  },
});

const callbackRoute = createRoute({
  method: "post",
  path: "/api/v1/payments/callback",
  tags,
  summary: "Unified payment gateway callback (signed, see docs/payment-gateway.md)",
  description:
    "Authenticated by X-Pay-Merchant, X-Pay-Timestamp, X-Pay-Nonce and X-Pay-Signature over " +
    "the raw body. Every verified event is acknowledged, including duplicates and events that " +
    "do not match their order (those are recorded for review).",
  responses: {
    200: {
      description: "Accepted (applied, duplicate or recorded)",
      content: { "application/json": { schema: CallbackAckSchema } },
    },
    400: {
      description: "Verified but malformed body",
      content: { "application/json": { schema: CallbackRejectSchema } },
    },
    401: {
      description: "Verification failed; nothing changed",
      content: { "application/json": { schema: CallbackRejectSchema } },
    },
    500: errorResponses[500],
  },
});

const stripeWebhookRoute = createRoute({
  method: "post",
  path: "/api/v1/payments/stripe/webhook",
  tags,
  summary: "Stripe webhook (card payments), verified by Stripe-Signature",
  responses: {
    200: {
      description: "Received (applied, duplicate or recorded)",
      content: { "application/json": { schema: StripeAckSchema } },
    },
    400: errorResponse(ErrorSchema, "Signature missing, wrong, out of time, or body malformed"),
    503: errorResponse(ErrorSchema, "Stripe is not configured"),
    500: errorResponses[500],
  },
});

const sandboxErrors = {
  404: errorResponse(ErrorSchema, "No sandbox order (or a real gateway is configured)"),
  409: errorResponse(ErrorSchema, "The order is no longer awaiting payment"),
  500: errorResponses[500],
};

const sandboxPageRoute = createRoute({
  method: "get",
  path: "/api/v1/payments/sandbox/{order_no}",
  tags,
  summary: "Sandbox gateway: the payment page of an order (only without a real gateway)",
  request: { params: OrderNoParam },
  responses: {
    200: { description: "HTML page", content: { "text/html": { schema: z.string() } } },
    404: sandboxErrors[404],
    500: sandboxErrors[500],
  },
});

const sandboxPayRoute = createRoute({
  method: "post",
  path: "/api/v1/payments/sandbox/{order_no}/pay",
  tags,
  summary: "Sandbox gateway: pay (sends a signed payment.succeeded through the callback)",
  request: { params: OrderNoParam },
  responses: { 303: { description: "Back to the sandbox page" }, ...sandboxErrors },
});

const sandboxCancelRoute = createRoute({
  method: "post",
  path: "/api/v1/payments/sandbox/{order_no}/cancel",
  tags,
  summary: "Sandbox gateway: cancel (sends a signed payment.closed through the callback)",
  request: { params: OrderNoParam },
  responses: { 303: { description: "Back to the sandbox page" }, ...sandboxErrors },
});

export function createPaymentRoutes() {
  const router = createRouter();

  router.openapi(createOrderRoute, async (c) => {
    const body = c.req.valid("json");
    const order = await createOrder(c.get("deps"), {
      userId: c.get("auth").userId,
      item: { kind: "subscription", planCode: body.plan, billingCycle: "monthly" },
      payType: body.pay_type,
    });
    return c.json(order, 201);
  });

  router.openapi(purchaseRoute, async (c) => {
    const body = c.req.valid("json");
    const order = await createOrder(c.get("deps"), {
      userId: c.get("auth").userId,
      item: { kind: "credits", packageId: body.package_id },
      payType: body.pay_type,
    });
    return c.json(order, 201);
  });

  router.openapi(subscribeRoute, async (c) => {
    const body = c.req.valid("json");
    const order = await createOrder(c.get("deps"), {
      userId: c.get("auth").userId,
      item: { kind: "subscription", planId: body.plan_id, billingCycle: body.billing_cycle },
      payType: body.pay_type,
    });
    return c.json(order, 201);
  });

  router.openapi(listOrdersRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(await listOrders(c.get("deps"), { ...query, userId: c.get("auth").userId }), 200);
  });

  router.openapi(getOrderRoute, async (c) => {
    const { order_no } = c.req.valid("param");
    return c.json(await getOrder(c.get("deps"), c.get("auth").userId, order_no), 200);
  });

  router.openapi(callbackRoute, async (c) => {
    // The raw body first: the signature covers these exact bytes.
    const rawBody = await c.req.text();
    const url = new URL(c.req.url);
    const outcome = await handleGatewayCallback(c.get("deps"), {
      method: c.req.method,
      path: `${url.pathname}${url.search}`,
      headers: c.req.raw.headers,
      rawBody,
    });
    return outcome.status === 200
      ? c.json(outcome.body, 200)
      : c.json(outcome.body, outcome.status);
  });

  router.openapi(stripeWebhookRoute, async (c) => {
    const rawBody = await c.req.text();
    await handleStripeWebhook(c.get("deps"), rawBody, c.req.header("Stripe-Signature"));
    return c.json({ received: true as const }, 200);
  });

  router.openapi(sandboxPageRoute, async (c) => {
    const { order_no } = c.req.valid("param");
    return c.html(await renderSandboxPage(c.get("deps"), order_no), 200);
  });

  router.openapi(sandboxPayRoute, async (c) => {
    const { order_no } = c.req.valid("param");
    await sandboxPay(c.get("deps"), order_no);
    return c.redirect(sandboxPagePath(order_no), 303);
  });

  router.openapi(sandboxCancelRoute, async (c) => {
    const { order_no } = c.req.valid("param");
    await sandboxCancel(c.get("deps"), order_no);
    return c.redirect(sandboxPagePath(order_no), 303);
  });

  return router;
}
