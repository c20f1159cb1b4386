import type { OrderStatus, PayType } from "../../../db/schema";
import type { Deps } from "../../../ports";
import { listAllOrders, paymentFigures } from "../queries";
import { toOrderResponse } from "./orders";

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
  const { rows, total } = await listAllOrders(deps.db, {
    page: query.page,
    size: query.size,
    q: query.q,
    status: query.status,
    payType: query.pay_type,
    startDate: query.start_date,
    endDate: query.end_date,
  });
  return {
    items: rows.map((r) => ({
      ...toOrderResponse(r),
      user_id: r.user_id,
      email: r.email,
      provider: r.provider,
      provider_trade_no: r.provider_trade_no,
    })),
    total,
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

/**
 * Revenue (amount - refunded_amount of paid, refunded and partially refunded orders) per UTC
 * day of the order, pay_type and currency, and order counts by status: two queries.
 */
export async function paymentStats(
  deps: Deps,
  range: { start: string; end: string },
): Promise<PaymentStats> {
  const [revenueRows, statusRows] = await paymentFigures(deps.db, range);
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
