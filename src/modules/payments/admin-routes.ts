import { createRoute, z } from "@hono/zod-openapi";
import { calendarDate, reportRange } from "../../http/date-range";
import { ErrorSchema, errorResponse, validationError } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  adminGuard as guard,
  jsonResponse as json,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { actorOf } from "../admin/writes";
import { listPayments, paymentStats } from "./admin-service";
import { refundOrder } from "./refunds";
import { ORDER_STATUSES, PAY_TYPES } from "./schemas";

const tags = ["Admin: payments"];

const AdminPaymentsQuery = pageQuery().extend({
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "Order number prefix, or part of the buyer's email" }),
  status: z.enum(ORDER_STATUSES).optional(),
  pay_type: z.enum(PAY_TYPES).optional(),
  start_date: calendarDate.optional().openapi({ example: "2026-11-01" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
});

const AdminPaymentSchema = z
  .object({
    order_no: z.string(),
    kind: z.enum(["credits", "subscription"]),
    status: z.enum(ORDER_STATUSES),
    pay_type: z.enum(PAY_TYPES),
    amount: z.number().int(),
    currency: z.string(),
    subject: z.string(),
    credits: z.number().int().nullable(),
    plan: z.string().nullable(),
    billing_cycle: z.enum(["monthly", "yearly"]).nullable(),
    pay_url: z.string().nullable(),
    expires_at: z.string(),
    paid_at: z.string().nullable(),
    paid_late: z.boolean(),
    refunded_amount: z.number().int(),
    created_at: z.string(),
    user_id: z.string(),
    email: z.string().nullable(),
    provider: z.enum(["gateway", "sandbox", "stripe"]),
    provider_trade_no: z.string().nullable(),
  })
  .openapi("AdminPayment");
const AdminPaymentsPage = pageSchema(AdminPaymentSchema).openapi("AdminPaymentsPage");

const PaymentStatsQuery = z.object({
  start_date: calendarDate.optional().openapi({ example: "2026-10-24" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
});

const perCurrency = z.record(z.string(), z.number());
const PaymentStatsSchema = z
  .object({
    start_date: z.string(),
    end_date: z.string(),
    totals: z.object({
      orders: z.number().int(),
      paid_orders: z.number().int(),
      gross: perCurrency,
      refunded: perCurrency,
      revenue: perCurrency,
    }),
    by_status: z.record(z.enum(ORDER_STATUSES), z.number().int()),
    revenue: z.array(
      z.object({
        date: z.string(),
        pay_type: z.enum(PAY_TYPES),
        currency: z.string(),
        orders: z.number().int(),
        gross: z.number(),
        refunded: z.number(),
        revenue: z.number(),
      }),
    ),
  })
  .openapi("PaymentStats");

const OrderNoParam = z.object({
  order_no: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "order_no", in: "path" }, example: "TA20261122ABCDEFGH23456789" }),
});

const RefundBody = z.object({
  amount: z
    .number()
    .int()
    .positive()
    // The integer column's ceiling: larger is never refundable, and SQL would fail the cast.
    .max(2_147_483_647)
    .optional()
    .openapi({ description: "Minor units; defaults to all that is left to refund" }),
  reason: z.string().trim().min(1).max(200),
});

const RefundResultSchema = z
  .object({
    refund_no: z.string(),
    order_no: z.string(),
    amount: z.number().int(),
    status: z.enum(["succeeded", "pending"]),
    credits_reversed: z.number().int(),
    order_status: z.enum(ORDER_STATUSES),
    refunded_amount: z.number().int(),
  })
  .openapi("RefundResult");

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
    params: OrderNoParam,
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
