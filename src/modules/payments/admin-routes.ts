import { createRoute } from "@hono/zod-openapi";
import { reportRange } from "../../http/date-range";
import { ErrorSchema, errorResponse, validationError } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  adminGuard as guard,
  jsonResponse as json,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import {
  AdminOrderNoParam,
  AdminPaymentsPage,
  AdminPaymentsQuery,
  PaymentStatsQuery,
  PaymentStatsSchema,
  RefundBody,
  RefundResultSchema,
} from "./schemas";
import { listPayments, paymentStats, refundOrder } from "./service";

const tags = ["Admin: payments"];

const listPaymentsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/payments",
  tags,
  security,
  summary: "Orders, newest first, by search, status, pay_type and UTC date range",
  middleware: [...guard],
  request: { query: AdminPaymentsQuery },
  responses: { 200: json(AdminPaymentsPage, "A page of orders"), ...adminErrors },
});

const paymentStatsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/payments/stats",
  tags,
  security,
  summary: "Revenue per UTC day, pay_type and currency, and orders by status (default 30 days)",
  middleware: [...guard],
  request: { query: PaymentStatsQuery },
  responses: { 200: json(PaymentStatsSchema, "Payment figures"), ...adminErrors },
});

const refundRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/payments/{order_no}/refund",
  tags,
  security,
  summary: "Refund all or part of a paid order; its credits or subscription are taken back",
  middleware: [...writeGuard],
  request: {
    params: AdminOrderNoParam,
    body: { required: true, content: { "application/json": { schema: RefundBody } } },
  },
  responses: {
    200: json(RefundResultSchema, "Refunded"),
    202: json(RefundResultSchema, "Accepted by the provider, settled later"),
    404: errorResponse(ErrorSchema, "Order not found"),
    409: errorResponse(ErrorSchema, "The order is not paid"),
    ...adminErrors,
  },
});

export function createPaymentAdminRoutes() {
  const router = createRouter();
  router.openapi(listPaymentsRoute, async (c) => {
    const query = c.req.valid("query");
    if (query.start_date && query.end_date && query.start_date > query.end_date) {
      throw validationError([
        { loc: ["query", "start_date"], msg: "start_date is after end_date", type: "value_error" },
      ]);
    }
    return c.json(await listPayments(c.get("deps"), query), 200);
  });
  router.openapi(paymentStatsRoute, async (c) => {
    const deps = c.get("deps");
    return c.json(
      await paymentStats(deps, reportRange(c.req.valid("query"), deps.clock.now())),
      200,
    );
  });
  router.openapi(refundRoute, async (c) => {
    const { order_no } = c.req.valid("param");
    const { amount, reason } = c.req.valid("json");
    const result = await refundOrder(c.get("deps"), actorOf(c), {
      orderNo: order_no,
      amount,
      reason,
    });
    return result.status === "pending" ? c.json(result, 202) : c.json(result, 200);
  });
  return router;
}
