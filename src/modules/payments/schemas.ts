import { z } from "@hono/zod-openapi";
import { ORDER_STATUSES, PAY_TYPES } from "../../db/schema";
import { calendarDate } from "../../http/date-range";
import { pageQuery, pageSchema } from "../../lib/pagination";

const payType = z
  .enum(PAY_TYPES)
  .openapi({ description: "alipay and wxpay: unified gateway (or the sandbox); card: Stripe" });

export const CreateOrderBody = z
  .object({
    plan: z.string().trim().min(1).max(40).openapi({ description: "Plan code", example: "pro" }),
    pay_type: payType,
  })
  .openapi("CreatePlanOrder");

export const PurchaseBody = z
  .object({
    package_id: z.uuid({ error: "Not a valid id" }),
    pay_type: payType,
  })
  .openapi("CreditPurchase");

export const SubscribeBody = z
  .object({
    plan_id: z.uuid({ error: "Not a valid id" }),
    billing_cycle: z.enum(["monthly", "yearly"]),
    pay_type: payType,
  })
  .openapi("PlanSubscription");

export const OrderSchema = z
  .object({
    order_no: z.string(),
    kind: z.enum(["credits", "subscription"]),
    status: z.enum(ORDER_STATUSES),
    pay_type: z.enum(PAY_TYPES),
    amount: z.number().int().openapi({ description: "Minor units" }),
    currency: z.string(),
    subject: z.string(),
    credits: z.number().int().nullable(),
    plan: z.string().nullable().openapi({ description: "Plan code of a subscription order" }),
    billing_cycle: z.enum(["monthly", "yearly"]).nullable(),
    pay_url: z.string().nullable().openapi({ description: "Where the payer goes to pay" }),
    expires_at: z.string(),
    paid_at: z.string().nullable(),
    paid_late: z.boolean(),
    refunded_amount: z.number().int(),
    created_at: z.string(),
  })
  .openapi("PaymentOrder");

export const OrdersQuery = pageQuery().extend({
  status: z.enum(ORDER_STATUSES).optional(),
});
export const OrdersPage = pageSchema(OrderSchema).openapi("PaymentOrdersPage");

export const OrderNoParam = z.object({
  order_no: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "order_no", in: "path" }, example: "TA20260101ABCDEFGHJKLMNPQR" }),
});

export const CallbackAckSchema = z.object({ code: z.literal("SUCCESS") }).openapi("CallbackAck");
export const CallbackRejectSchema = z
  .object({ code: z.literal("FAIL"), detail: z.string() })
  .openapi("CallbackReject");
export const StripeAckSchema = z.object({ received: z.literal(true) }).openapi("StripeAck");

// ---- admin ----

export const AdminPaymentsQuery = pageQuery().extend({
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
export const AdminPaymentsPage = pageSchema(AdminPaymentSchema).openapi("AdminPaymentsPage");

export const PaymentStatsQuery = z.object({
  start_date: calendarDate.optional().openapi({ example: "2026-10-24" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
});

const perCurrency = z.record(z.string(), z.number());
export const PaymentStatsSchema = z
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

export const AdminOrderNoParam = z.object({
  order_no: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "order_no", in: "path" }, example: "TA20261122ABCDEFGH23456789" }),
});

export const RefundBody = z.object({
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

export const RefundResultSchema = z
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
