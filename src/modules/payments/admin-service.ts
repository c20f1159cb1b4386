import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { OrderStatus, PayType } from "../../db/schema";
import type { Deps } from "../../deps";
import { offsetOf } from "../../lib/pagination";
import { escapeLike } from "../../lib/sql-text";
import { type OrderRow, toOrderResponse } from "./orders";

/** UTC day bounds as timestamps, so the (status | pay_type, created_at) indexes serve them. */
const fromDay = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;
const untilDay = (day: string) => sql`(${day}::date + 1)::timestamp at time zone 'UTC'`;

export interface AdminPaymentsQuery {
  page: number;
  size: number;
  q?: string;
  status?: OrderStatus;
  pay_type?: PayType;
  start_date?: string;
  end_date?: string;
}

/** Orders newest first; `q` is an order number prefix or a part of the buyer's email. */
export async function listPayments(deps: Deps, query: AdminPaymentsQuery) {
  const filters: SQL[] = [sql`true`];
  if (query.q) {
    const prefix = `${escapeLike(query.q.trim().toUpperCase())}%`;
    const contains = `%${escapeLike(query.q.trim().toLowerCase())}%`;
    filters.push(sql`(t.order_no like ${prefix} or u.email like ${contains})`);
  }
  if (query.status) filters.push(sql`t.status = ${query.status}`);
  if (query.pay_type) filters.push(sql`t.pay_type = ${query.pay_type}`);
  if (query.start_date) filters.push(sql`t.created_at >= ${fromDay(query.start_date)}`);
  if (query.end_date) filters.push(sql`t.created_at < ${untilDay(query.end_date)}`);
  const where = sql.join(filters, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<OrderRow & { email: string | null }>(
      deps.db,
      sql`select t.*, u.email from payment_transactions t join users u on u.id = t.user_id
          where ${where} order by t.created_at desc, t.id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from payment_transactions t join users u on u.id = t.user_id
          where ${where}`,
    ),
  ]);
  return {
    items: rows.map((r) => ({
      ...toOrderResponse(r),
      user_id: r.user_id,
      email: r.email,
      provider: r.provider,
      provider_trade_no: r.provider_trade_no,
    })),
    total: count?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

interface RevenueRow {
  date: string;
  pay_type: PayType;
  currency: string;
  orders: number;
  gross: number;
  refunded: number;
  revenue: number;
}

export interface PaymentStats {
  start_date: string;
  end_date: string;
  /** Money is per currency: amounts of different currencies are never added together. */
  totals: {
    orders: number;
    paid_orders: number;
    gross: Record<string, number>;
    refunded: Record<string, number>;
    revenue: Record<string, number>;
  };
  by_status: Record<OrderStatus, number>;
  revenue: RevenueRow[];
}

const REVENUE_STATUSES = sql`('paid', 'refunded', 'partially_refunded')`;

/**
 * Revenue (amount - refunded_amount of paid, refunded and partially refunded orders) per UTC
 * day of the order, pay_type and currency, and order counts by status: two queries.
 */
export async function paymentStats(
  deps: Deps,
  range: { start: string; end: string },
): Promise<PaymentStats> {
  const inRange = sql`t.created_at >= ${fromDay(range.start)} and t.created_at < ${untilDay(range.end)}`;
  const [revenueRows, statusRows] = await Promise.all([
    queryRows<
      Omit<RevenueRow, "orders" | "gross" | "refunded" | "revenue"> & Record<string, unknown>
    >(
      deps.db,
      sql`select to_char((t.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as date,
            t.pay_type, t.currency, count(*)::int as orders,
            sum(t.amount)::float8 as gross, sum(t.refunded_amount)::float8 as refunded,
            sum(t.amount - t.refunded_amount)::float8 as revenue
          from payment_transactions t
          where t.status in ${REVENUE_STATUSES} and ${inRange}
          group by 1, 2, 3 order by 1, 2, 3`,
    ),
    queryRows<{ status: OrderStatus; n: number }>(
      deps.db,
      sql`select t.status, count(*)::int as n from payment_transactions t where ${inRange}
          group by t.status`,
    ),
  ]);
  const byStatus: Record<OrderStatus, number> = {
    pending: 0,
    paid: 0,
    expired: 0,
    cancelled: 0,
    refunded: 0,
    partially_refunded: 0,
  };
  for (const row of statusRows) byStatus[row.status] = row.n;
  const totals: PaymentStats["totals"] = {
    orders: statusRows.reduce((sum, r) => sum + r.n, 0),
    paid_orders: 0,
    gross: {},
    refunded: {},
    revenue: {},
  };
  const revenue: RevenueRow[] = revenueRows.map((r) => ({
    date: r.date,
    pay_type: r.pay_type,
    currency: r.currency,
    orders: Number(r.orders),
    gross: Number(r.gross),
    refunded: Number(r.refunded),
    revenue: Number(r.revenue),
  }));
  for (const row of revenue) {
    totals.paid_orders += row.orders;
    totals.gross[row.currency] = (totals.gross[row.currency] ?? 0) + row.gross;
    totals.refunded[row.currency] = (totals.refunded[row.currency] ?? 0) + row.refunded;
    totals.revenue[row.currency] = (totals.revenue[row.currency] ?? 0) + row.revenue;
  }
  return {
    start_date: range.start,
    end_date: range.end,
    totals,
    by_status: byStatus,
    revenue,
  };
}
