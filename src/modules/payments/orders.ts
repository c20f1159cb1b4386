import { type SQL, sql } from "drizzle-orm";
import { publicBaseUrl } from "../../config";
import { queryRows } from "../../db/client";
import type { OrderStatus, PayType } from "../../db/schema";
import type { Deps } from "../../deps";
import { ApiError, notFound, unavailable, validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { PaymentGatewayError } from "../../providers/payment/gateway";
import { yearlyPrice } from "../credits/catalog";
import { notifyOrderPaid } from "./notices";
import { paymentReturnUrl } from "./return-url";

const ORDER_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** `TA` + UTC date + 16 random characters (80 bits): unguessable, fits every gateway's limit. */
function newOrderNo(now: Date): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const random = Array.from(bytes, (b) => ORDER_ALPHABET[b % ORDER_ALPHABET.length]).join("");
  return `TA${now.toISOString().slice(0, 10).replaceAll("-", "")}${random}`;
}

export type OrderItem =
  | { kind: "credits"; packageId: string }
  | {
      kind: "subscription";
      planId?: string;
      planCode?: string;
      billingCycle: "monthly" | "yearly";
    };

export interface OrderRow {
  id: string;
  order_no: string;
  user_id: string;
  kind: "credits" | "subscription";
  package_id: string | null;
  plan_id: string | null;
  plan_code: string | null;
  billing_cycle: "monthly" | "yearly" | null;
  credits: number | null;
  subject: string;
  pay_type: PayType;
  provider: "gateway" | "sandbox" | "stripe";
  amount: number;
  currency: string;
  status: OrderStatus;
  provider_trade_no: string | null;
  pay_url: string | null;
  expires_at: Date;
  paid_at: Date | null;
  paid_late: boolean;
  refunded_amount: number;
  created_at: Date;
}

export function toOrderResponse(row: OrderRow) {
  return {
    order_no: row.order_no,
    kind: row.kind,
    status: row.status,
    pay_type: row.pay_type,
    amount: row.amount,
    currency: row.currency,
    subject: row.subject,
    credits: row.credits,
    plan: row.plan_code,
    billing_cycle: row.billing_cycle,
    pay_url: row.pay_url,
    expires_at: iso(row.expires_at)!,
    paid_at: iso(row.paid_at),
    paid_late: row.paid_late,
    refunded_amount: row.refunded_amount,
    created_at: iso(row.created_at)!,
  };
}
export type OrderResponse = ReturnType<typeof toOrderResponse>;

interface Priced {
  amount: number;
  currency: string;
  subject: string;
  credits: number | null;
  packageId: string | null;
  planId: string | null;
  planCode: string | null;
  billingCycle: "monthly" | "yearly" | null;
}

async function price(deps: Deps, item: OrderItem): Promise<Priced> {
  if (item.kind === "credits") {
    const [pkg] = await queryRows<{
      id: string;
      name: string;
      credits: number;
      price: number;
      currency: string;
    }>(
      deps.db,
      sql`select id, name, credits, price, currency from credit_packages
          where id = ${item.packageId} and active`,
    );
    if (!pkg) throw notFound("Credit package not found");
    if (pkg.price <= 0)
      throw validationError([
        { loc: ["body", "package_id"], msg: "This package is not for sale", type: "value_error" },
      ]);
    return {
      amount: pkg.price,
      currency: pkg.currency,
      subject: `${pkg.name} (${pkg.credits} credits)`,
      credits: pkg.credits,
      packageId: pkg.id,
      planId: null,
      planCode: null,
      billingCycle: null,
    };
  }
  const where = item.planId ? sql`p.id = ${item.planId}` : sql`p.code = ${item.planCode ?? ""}`;
  const [plan] = await queryRows<{
    id: string;
    code: string;
    name: string;
    currency: string;
    monthly_price: number;
    discount: number;
  }>(
    deps.db,
    sql`select p.id, p.code, p.name, p.currency, p.monthly_price,
          coalesce((select (value #>> '{}')::float8 from system_config
                    where key = 'plans.yearly_discount'), 0.15) as discount
        from subscription_plans p where ${where} and p.active`,
  );
  if (!plan) throw notFound("Plan not found");
  if (plan.monthly_price <= 0) {
    throw validationError([
      { loc: ["body", "plan"], msg: "The free plan needs no order", type: "value_error" },
    ]);
  }
  const yearly = item.billingCycle === "yearly";
  return {
    amount: yearly ? yearlyPrice(plan.monthly_price, plan.discount) : plan.monthly_price,
    currency: plan.currency,
    subject: `${plan.name} plan, ${yearly ? "1 year" : "1 month"}`,
    credits: null,
    packageId: null,
    planId: plan.id,
    planCode: plan.code,
    billingCycle: item.billingCycle,
  };
}

/** Which provider serves a pay_type here: card is Stripe; alipay/wxpay the gateway or sandbox. */
function providerFor(deps: Deps, payType: PayType): OrderRow["provider"] {
  if (payType === "card") {
    if (!deps.payments.stripe) throw unavailable("Card payments are not configured");
    return "stripe";
  }
  if (deps.payments.gateway) return "gateway";
  if (!sandboxEnabled(deps)) throw unavailable("Alipay and WeChat Pay are not configured");
  return "sandbox";
}

/**
 * The built-in sandbox gateway serves alipay/wxpay when no real gateway is configured, except
 * in production unless PAYMENT_SANDBOX=true: there it would hand out credits for nothing.
 */
export function sandboxEnabled(deps: Deps): boolean {
  return deps.payments.gateway === null && deps.payments.sandbox;
}

/**
 * Creates an order and asks its provider for a payment page. The order row (and the
 * credit_purchases row of a credit order) is written in one statement before any provider
 * call, so a callback can never arrive for an order we do not know.
 */
export async function createOrder(
  deps: Deps,
  input: { userId: string; item: OrderItem; payType: PayType },
): Promise<OrderResponse> {
  const provider = providerFor(deps, input.payType);
  const priced = await price(deps, input.item);
  const now = deps.clock.now();
  const orderNo = newOrderNo(now);
  const expiresAt = new Date(now.getTime() + deps.config.PAYMENT_ORDER_TTL_MINUTES * 60_000);
  const [order] = await queryRows<OrderRow>(
    deps.db,
    sql`with o as (
        insert into payment_transactions (order_no, user_id, kind, package_id, plan_id, plan_code,
          billing_cycle, credits, subject, pay_type, provider, amount, currency, expires_at,
          created_at, updated_at)
        values (${orderNo}, ${input.userId}, ${input.item.kind}, ${priced.packageId}, ${priced.planId},
          ${priced.planCode}, ${priced.billingCycle}, ${priced.credits}, ${priced.subject},
          ${input.payType}, ${provider}, ${priced.amount}, ${priced.currency},
          ${expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz,
          ${now.toISOString()}::timestamptz)
        returning *),
      purchase as (
        insert into credit_purchases (user_id, order_no, package_id, credits, amount, currency, created_at)
        select user_id, order_no, package_id, credits, amount, currency, created_at from o
        where kind = 'credits')
      select * from o`,
  );
  const base = publicBaseUrl(deps.config);
  try {
    const payment = await startPayment(deps, order!, base);
    const [updated] = await queryRows<OrderRow>(
      deps.db,
      sql`update payment_transactions set pay_url = ${payment.payUrl},
            provider_trade_no = ${payment.tradeNo}, updated_at = now()
          where order_no = ${orderNo} returning *`,
    );
    return toOrderResponse(updated!);
  } catch (error) {
    await deps.db.execute(
      sql`update payment_transactions set status = 'cancelled', updated_at = now()
          where order_no = ${orderNo} and status = 'pending'`,
    );
    if (error instanceof ApiError) throw error;
    if (error instanceof PaymentGatewayError) throw new ApiError(400, error.message);
    deps.logger.warn("payment provider failed", {
      order_no: orderNo,
      provider,
      error: String(error),
    });
    throw unavailable("The payment provider is unavailable, try again shortly");
  }
}

async function startPayment(
  deps: Deps,
  order: OrderRow,
  base: string,
): Promise<{ payUrl: string; tradeNo: string | null }> {
  if (order.provider === "sandbox") {
    return { payUrl: `${base}/api/v1/payments/sandbox/${order.order_no}`, tradeNo: null };
  }
  if (order.provider === "stripe") {
    const session = await deps.payments.stripe!.createCheckoutSession({
      orderNo: order.order_no,
      amount: order.amount,
      currency: order.currency,
      description: order.subject,
      successUrl: paymentReturnUrl(deps, order.order_no, "success"),
      cancelUrl: paymentReturnUrl(deps, order.order_no, "cancel"),
      expiresAt: new Date(order.expires_at),
    });
    return { payUrl: session.url, tradeNo: session.id };
  }
  const created = await deps.payments.gateway!.createOrder({
    out_trade_no: order.order_no,
    amount: order.amount,
    currency: order.currency,
    pay_type: order.pay_type as "alipay" | "wxpay",
    subject: order.subject,
    notify_url: `${base}/api/v1/payments/callback`,
    return_url: paymentReturnUrl(deps, order.order_no),
    expire_at: new Date(order.expires_at).toISOString(),
  });
  return { payUrl: created.pay_url, tradeNo: created.trade_no };
}

export async function getOrder(deps: Deps, userId: string, orderNo: string) {
  const [row] = await queryRows<OrderRow>(
    deps.db,
    sql`select * from payment_transactions where order_no = ${orderNo} and user_id = ${userId}`,
  );
  if (!row) throw notFound("Order not found");
  return toOrderResponse(row);
}

export async function listOrders(
  deps: Deps,
  query: { userId: string; page: number; size: number; status?: OrderStatus },
) {
  const filters: SQL[] = [sql`user_id = ${query.userId}`];
  if (query.status) filters.push(sql`status = ${query.status}`);
  const where = sql.join(filters, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<OrderRow>(
      deps.db,
      sql`select * from payment_transactions where ${where}
          order by created_at desc, id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from payment_transactions where ${where}`,
    ),
  ]);
  return {
    items: rows.map(toOrderResponse),
    total: count?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/** Any user's order by number (callbacks and the sandbox page); null when unknown. */
export async function findOrder(deps: Deps, orderNo: string): Promise<OrderRow | null> {
  const [row] = await queryRows<OrderRow>(
    deps.db,
    sql`select * from payment_transactions where order_no = ${orderNo}`,
  );
  return row ?? null;
}

/**
 * Cancels an order that is still pending (payer cancelled, gateway closed it, Stripe session
 * expired). A paid, refunded or already expired order is left as it is: states never move back.
 */
/** Cancels a pending order; a provider's event only ever moves that provider's orders. */
export async function cancelPendingOrder(
  deps: Deps,
  orderNo: string,
  provider?: OrderRow["provider"],
): Promise<boolean> {
  const rows = await queryRows<{ order_no: string }>(
    deps.db,
    sql`with cancelled as (
        update payment_transactions set status = 'cancelled',
          updated_at = ${deps.clock.now().toISOString()}::timestamptz
        where order_no = ${orderNo} and status = 'pending'
          and (${provider ?? null}::text is null or provider = ${provider ?? null})
        returning order_no),
      purchases as (
        update credit_purchases set status = 'cancelled'
        where order_no in (select order_no from cancelled) and status = 'pending')
      select order_no from cancelled`,
  );
  return rows.length > 0;
}

export type FulfilResult =
  | "applied"
  | "duplicate"
  | "amount_mismatch"
  | "unknown_order"
  | "wrong_provider"
  | "ignored";

/**
 * Records a provider event and, for a payment, applies it to its order. The event is keyed by
 * (provider, event_id): a redelivered event is a no-op; payment_fulfil locks the order and
 * grants or subscribes once, whatever arrives in which order.
 */
export async function recordPaymentEvent(
  deps: Deps,
  event: {
    provider: "gateway" | "sandbox" | "stripe";
    eventId: string;
    type: string;
    orderNo: string | null;
    payload: unknown;
    payment?: { tradeNo: string | null; amount: number; currency: string; paidAt: Date };
  },
): Promise<FulfilResult> {
  const now = deps.clock.now().toISOString();
  // A verified event of one provider never pays an order of another (a Stripe event naming an
  // alipay order's number is recorded and refused).
  const fulfil = event.payment
    ? sql`case when exists (select 1 from payment_transactions
                            where order_no = ${event.orderNo} and provider <> ${event.provider})
          then 'wrong_provider'
          else (select f.result from payment_fulfil(${event.orderNo}, ${event.payment.tradeNo},
            ${event.payment.amount}, ${event.payment.currency},
            ${event.payment.paidAt.toISOString()}::timestamptz, ${now}::timestamptz) f) end`
    : sql`'ignored'`;
  // The event row is inserted first; only a fresh insert goes on to fulfil the order.
  const [row] = await queryRows<{ result: FulfilResult | null; fresh: boolean }>(
    deps.db,
    sql`with ev as (
        insert into payment_events (provider, event_id, order_no, type, result, payload, created_at)
        values (${event.provider}, ${event.eventId}, ${event.orderNo}, ${event.type}, 'pending',
                ${JSON.stringify(event.payload)}::jsonb, ${now}::timestamptz)
        on conflict (provider, event_id) do nothing
        returning id)
      select case when exists (select 1 from ev) then ${fulfil} else 'duplicate' end as result,
        exists (select 1 from ev) as fresh`,
  );
  const result = row?.result ?? "duplicate";
  // A fresh event keeps its outcome, "duplicate" included (a second event for a paid order).
  if (row?.fresh) {
    await deps.db.execute(
      sql`update payment_events set result = ${result}
          where provider = ${event.provider} and event_id = ${event.eventId}`,
    );
  }
  if (result === "amount_mismatch" || result === "unknown_order" || result === "wrong_provider") {
    deps.logger.warn("payment event not applied", { ...event, payload: undefined, result });
  }
  // Also on a duplicate: a delivery retried because the first died after paying the order still
  // notifies, and the notification's dedupe key keeps it to one.
  if (event.payment && event.orderNo && (result === "applied" || result === "duplicate")) {
    await notifyOrderPaid(deps, event.orderNo);
  }
  return result;
}

/** Scheduled task: pending orders past their time become expired (a late payment still counts). */
export async function expirePendingOrders(deps: Deps): Promise<number> {
  const rows = await queryRows<{ order_no: string }>(
    deps.db,
    sql`with expired as (
        update payment_transactions set status = 'expired', updated_at = now()
        where status = 'pending' and expires_at <= ${deps.clock.now().toISOString()}::timestamptz
        returning order_no),
      purchases as (
        update credit_purchases set status = 'expired'
        where order_no in (select order_no from expired) and status = 'pending')
      select order_no from expired`,
  );
  return rows.length;
}
