import { z } from "@hono/zod-openapi";
import { ORDER_STATUSES, PAY_TYPES } from "../../db/schema";
import { pageQuery, pageSchema } from "../../lib/pagination";

/** The stored enums, for the route files (which do not import src/db). */
export { ORDER_STATUSES, PAY_TYPES };

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
