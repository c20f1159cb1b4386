import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ASYNC_COMMIT, KEYSET_START, type KeysetCursor } from "../../../db/batches";
import { type Db, queryRows, queryRowsPrepared } from "../../../db/client";
import { selectPage } from "../../../db/page";
import {
  creditPurchases,
  type OrderStatus,
  type PayType,
  paymentEvents,
  paymentNonces,
  paymentRefunds,
  paymentTransactions,
  subscriptionPlans,
  subscriptions,
  users,
} from "../../../db/schema";
import { col, columnList, columnNames, type DbRow } from "../../../db/sql";
import { escapeLike } from "../../../lib/sql-text";

/**
 * Every statement on the payment tables (payment_transactions, credit_purchases,
 * payment_events, payment_nonces, payment_refunds). The credit and subscription side of a
 * payment or refund stays in the plpgsql functions payment_fulfil, payment_refund_create and
 * payment_refund_apply (migrations/), called here in one statement each.
 */

export type OrderRow = DbRow<typeof paymentTransactions>;
type RefundRow = DbRow<typeof paymentRefunds>;

const t = paymentTransactions;
const r = paymentRefunds;

/** Every column of an order, qualified (`select *` of the order alone). */
const ORDER_COLUMNS = columnList(Object.values(getTableColumns(paymentTransactions)));

// ---- callback nonces ----

/**
 * Records a callback nonce atomically; true when it had been seen. Nonces past their expiry are
 * swept a few at a time by the same statement.
 */
export async function recordNonce(
  db: Db,
  params: { nonce: string; expiresAt: string; now: string },
): Promise<boolean> {
  const n = paymentNonces;
  const rows = await queryRows<Pick<DbRow<typeof paymentNonces>, "nonce">>(
    db,
    sql`with swept as (
        delete from ${n} where ${n.nonce} in (
          select ${n.nonce} from ${n}
          where ${n.expiresAt} < ${params.now}::timestamptz limit 100)),
      fresh as (
        insert into ${n} (${columnNames([n.nonce, n.expiresAt])})
        values (${params.nonce}, ${params.expiresAt}::timestamptz)
        on conflict (${col(n.nonce)}) do nothing
        returning ${n.nonce})
      select nonce from fresh`,
  );
  return rows.length === 0;
}

// ---- orders ----

/**
 * Inserts an order and, for a credit order, its credit_purchases row, in one statement (before
 * any provider call, so a callback can never arrive for an order we do not know).
 */
export async function insertOrder(
  db: Db,
  order: {
    orderNo: string;
    userId: string;
    kind: OrderRow["kind"];
    packageId: string | null;
    planId: string | null;
    planCode: string | null;
    billingCycle: OrderRow["billing_cycle"];
    credits: number | null;
    subject: string;
    payType: PayType;
    provider: OrderRow["provider"];
    amount: number;
    currency: string;
    expiresAt: string;
    now: string;
  },
): Promise<OrderRow> {
  const p = creditPurchases;
  const [row] = await queryRows<OrderRow>(
    db,
    sql`with o as (
        insert into ${t} (${columnNames([
          t.orderNo,
          t.userId,
          t.kind,
          t.packageId,
          t.planId,
          t.planCode,
          t.billingCycle,
          t.credits,
          t.subject,
          t.payType,
          t.provider,
          t.amount,
          t.currency,
          t.expiresAt,
          t.createdAt,
          t.updatedAt,
        ])})
        values (${order.orderNo}, ${order.userId}, ${order.kind}, ${order.packageId},
          ${order.planId}, ${order.planCode}, ${order.billingCycle}, ${order.credits},
          ${order.subject}, ${order.payType}, ${order.provider}, ${order.amount},
          ${order.currency}, ${order.expiresAt}::timestamptz, ${order.now}::timestamptz,
          ${order.now}::timestamptz)
        returning *),
      purchase as (
        insert into ${p} (${columnNames([
          p.userId,
          p.orderNo,
          p.packageId,
          p.credits,
          p.amount,
          p.currency,
          p.createdAt,
        ])})
        select user_id, order_no, package_id, credits, amount, currency, created_at from o
        where kind = 'credits')
      select * from o`,
  );
  return row!;
}

/** Stores where the payer pays (and the provider's id of the order); the order as it is now. */
export async function setOrderPayment(
  db: Db,
  params: { orderNo: string; payUrl: string; tradeNo: string | null },
): Promise<OrderRow | undefined> {
  const [row] = await queryRows<OrderRow>(
    db,
    sql`update ${t} set ${col(t.payUrl)} = ${params.payUrl},
          ${col(t.providerTradeNo)} = ${params.tradeNo}, ${col(t.updatedAt)} = now()
        where ${t.orderNo} = ${params.orderNo} returning *`,
  );
  return row;
}

/** A pending order whose provider could not start the payment is cancelled. */
export async function cancelUnstartedOrder(db: Db, params: { orderNo: string }): Promise<void> {
  await db.execute(
    sql`update ${t} set ${col(t.status)} = 'cancelled', ${col(t.updatedAt)} = now()
        where ${t.orderNo} = ${params.orderNo} and ${t.status} = 'pending'`,
  );
}

export async function getUserOrder(
  db: Db,
  params: { userId: string; orderNo: string },
): Promise<OrderRow | undefined> {
  const [row] = await queryRows<OrderRow>(
    db,
    sql`select ${ORDER_COLUMNS} from ${t}
        where ${t.orderNo} = ${params.orderNo} and ${t.userId} = ${params.userId}`,
  );
  return row;
}

/** Any user's order by number (callbacks and the sandbox page). */
export async function getOrderByNo(
  db: Db,
  params: { orderNo: string },
): Promise<OrderRow | undefined> {
  const [row] = await queryRows<OrderRow>(
    db,
    sql`select ${ORDER_COLUMNS} from ${t} where ${t.orderNo} = ${params.orderNo}`,
  );
  return row;
}

/** The caller's orders, newest first. */
export function listUserOrders(
  db: Db,
  params: { userId: string; status?: OrderStatus; page: number; size: number },
) {
  const filters: SQL[] = [sql`${t.userId} = ${params.userId}`];
  if (params.status) filters.push(sql`${t.status} = ${params.status}`);
  return selectPage<OrderRow>(db, {
    columns: ORDER_COLUMNS,
    from: sql`${t}`,
    where: sql.join(filters, sql` and `),
    order: sql`${t.createdAt} desc, ${t.id} desc`,
    page: params.page,
    size: params.size,
  });
}

/** Cancels a pending order (and its purchase row); a provider only ever moves its own orders. */
export async function cancelPendingOrder(
  db: Db,
  params: { orderNo: string; provider: OrderRow["provider"] | null; now: string },
): Promise<boolean> {
  const p = creditPurchases;
  const rows = await queryRows<Pick<OrderRow, "order_no">>(
    db,
    sql`with cancelled as (
        update ${t} set ${col(t.status)} = 'cancelled',
          ${col(t.updatedAt)} = ${params.now}::timestamptz
        where ${t.orderNo} = ${params.orderNo} and ${t.status} = 'pending'
          and (${params.provider}::text is null or ${t.provider} = ${params.provider})
        returning ${t.orderNo}),
      purchases as (
        update ${p} set ${col(p.status)} = 'cancelled'
        where ${p.orderNo} in (select order_no from cancelled) and ${p.status} = 'pending')
      select order_no from cancelled`,
  );
  return rows.length > 0;
}

/** Where the scheduled expiry resumes: the (expiry, id) of the last order a batch took. */
export type OrderCursor = KeysetCursor;

/**
 * One batch of the scheduled expiry: up to `limit` pending orders past their time after
 * `after` become expired, with their purchase rows, soonest expired first, read from
 * payment_transactions_pending_expiry_id_idx from the cursor on (from the start, every batch
 * re-read the index entries of the orders the previous ones expired). `skip locked`: an order a
 * payment callback or a cancel is changing right now is left for the next run, so neither waits
 * on the task. Returns how many the batch took, how many it expired, and where to resume.
 */
export async function expireOrdersBatch(
  db: Db,
  params: { now: string; limit: number; after: OrderCursor | null },
): Promise<{ taken: number; expired: number; next: OrderCursor | null }> {
  const p = creditPurchases;
  const from = params.after ?? KEYSET_START;
  // A named statement (its values all parameters): a run sends it hundreds of times, and its
  // planning was a fixed part of every batch.
  const [row] = await queryRowsPrepared<{
    taken: number;
    expired: number;
    at: string | null;
    id: string | null;
  }>(
    db,
    sql`with due as materialized (
        select ${t.orderNo}, ${t.expiresAt}, ${t.id} from ${t}
        where ${t.status} = 'pending' and ${t.expiresAt} <= ${params.now}::timestamptz
          and (${t.expiresAt}, ${t.id}) > (${from.at}::timestamptz, ${from.id}::uuid)
        order by ${t.expiresAt}, ${t.id} limit ${params.limit}
        for no key update skip locked),
      expired as (
        update ${t} set ${col(t.status)} = 'expired', ${col(t.updatedAt)} = now()
        where ${t.orderNo} in (select order_no from due) and ${t.status} = 'pending'
        returning ${t.orderNo}),
      purchases as (
        update ${p} set ${col(p.status)} = 'expired'
        where ${p.orderNo} in (select order_no from expired) and ${p.status} = 'pending'),
      last as (select expires_at::text as at, id::text as id from due
        order by expires_at desc, id desc limit 1)
      select (select count(*)::int from due) as taken,
        (select count(*)::int from expired) as expired,
        (select at from last) as at, (select id from last) as id,
        ${ASYNC_COMMIT}`,
  );
  return {
    taken: row?.taken ?? 0,
    expired: row?.expired ?? 0,
    next: row?.at && row.id ? { at: row.at, id: row.id } : null,
  };
}

// ---- provider events ----

export type FulfilResult =
  | "applied"
  | "duplicate"
  | "amount_mismatch"
  | "unknown_order"
  | "wrong_provider"
  | "ignored";

/**
 * Inserts a provider event keyed by (provider, event_id); only a fresh insert goes on to pay
 * its order through payment_fulfil (refused when the order belongs to another provider). One
 * statement; `fresh` is false for a redelivery (result "duplicate").
 */
export async function insertPaymentEvent(
  db: Db,
  event: {
    provider: OrderRow["provider"];
    eventId: string;
    type: string;
    orderNo: string | null;
    payload: unknown;
    payment?: { tradeNo: string | null; amount: number; currency: string; paidAt: string };
    now: string;
  },
): Promise<{ result: FulfilResult | null; fresh: boolean } | undefined> {
  const e = paymentEvents;
  const fulfil = event.payment
    ? sql`case when exists (select 1 from ${t}
                            where ${t.orderNo} = ${event.orderNo} and ${t.provider} <> ${event.provider})
          then 'wrong_provider'
          else (select f.result from payment_fulfil(${event.orderNo}, ${event.payment.tradeNo},
            ${event.payment.amount}, ${event.payment.currency},
            ${event.payment.paidAt}::timestamptz, ${event.now}::timestamptz) f) end`
    : sql`'ignored'`;
  const [row] = await queryRows<{ result: FulfilResult | null; fresh: boolean }>(
    db,
    sql`with ev as (
        insert into ${e} (${columnNames([
          e.provider,
          e.eventId,
          e.orderNo,
          e.type,
          e.result,
          e.payload,
          e.createdAt,
        ])})
        values (${event.provider}, ${event.eventId}, ${event.orderNo}, ${event.type}, 'pending',
                ${JSON.stringify(event.payload)}::jsonb, ${event.now}::timestamptz)
        on conflict (${col(e.provider)}, ${col(e.eventId)}) do nothing
        returning ${e.id})
      select case when exists (select 1 from ev) then ${fulfil} else 'duplicate' end as result,
        exists (select 1 from ev) as fresh`,
  );
  return row;
}

export async function setPaymentEventResult(
  db: Db,
  params: { provider: string; eventId: string; result: FulfilResult },
): Promise<void> {
  const e = paymentEvents;
  await db.execute(
    sql`update ${e} set ${col(e.result)} = ${params.result}
        where ${e.provider} = ${params.provider} and ${e.eventId} = ${params.eventId}`,
  );
}

// ---- notices ----

/** A paid order, for the payer's notification; undefined when it is not (or no longer) paid. */
export async function getPaidOrderNotice(db: Db, params: { orderNo: string }) {
  const [row] = await queryRows<
    Pick<OrderRow, "user_id" | "subject" | "amount" | "currency" | "kind" | "paid_late">
  >(
    db,
    sql`select ${columnList([t.userId, t.subject, t.amount, t.currency, t.kind, t.paidLate])}
        from ${t} where ${t.orderNo} = ${params.orderNo} and ${t.paidAt} is not null`,
  );
  return row;
}

/** A refund with its order, for the payer's notification. */
export async function getRefundNotice(db: Db, params: { refundNo: string }) {
  const [row] = await queryRows<
    Pick<OrderRow, "user_id" | "order_no" | "subject" | "currency"> &
      Pick<RefundRow, "amount" | "status">
  >(
    db,
    sql`select ${columnList([t.userId, t.orderNo, t.subject, r.amount, t.currency, r.status])}
        from ${r} join ${t} on ${t.orderNo} = ${r.orderNo}
        where ${r.refundNo} = ${params.refundNo}`,
  );
  return row;
}

// ---- refunds ----

/** The refund the event names belongs to the event's order, of this provider, for its amount. */
export async function refundMatches(
  db: Db,
  params: { refundNo: string; orderNo: string; amount: number; provider: OrderRow["provider"] },
): Promise<boolean> {
  const rows = await queryRows<{ ok: boolean }>(
    db,
    sql`select true as ok from ${r}
        join ${t} on ${t.orderNo} = ${r.orderNo}
        where ${r.refundNo} = ${params.refundNo} and ${r.orderNo} = ${params.orderNo}
          and ${r.amount} = ${params.amount} and ${t.provider} = ${params.provider}`,
  );
  return rows.length > 0;
}

/** payment_refund_create's answer, with the order's provider and refunded amount. */
type ReservedRefund = {
  result: "created" | "unknown_order" | "not_refundable" | "bad_amount";
  remaining: number | null;
  amount: RefundRow["amount"] | null;
  status: OrderStatus | null;
  order_refunded: OrderRow["refunded_amount"] | null;
} & Pick<OrderRow, "provider" | "provider_trade_no">;

/**
 * Reserves a refund (payment_refund_create, under the order's lock) with the statement's other
 * CTEs (`extra`, e.g. the admin's audit row over `r`), in one statement.
 */
export async function createRefund(
  db: Db,
  params: {
    orderNo: string;
    refundNo: string;
    amount: number | null;
    reason: string;
    adminId: string;
    now: string;
    /** CTEs appended to `with r as (...)`, reading `r`. */
    extra: (createdRows: SQL) => SQL;
  },
): Promise<ReservedRefund | undefined> {
  const created = sql`(select ${params.orderNo}::text as id, ${params.refundNo}::text as refund_no,
          amount, ${params.reason}::text as reason from r where result = 'created')`;
  const [row] = await queryRows<ReservedRefund>(
    db,
    sql`with r as (
        select * from payment_refund_create(${params.orderNo}, ${params.refundNo},
          ${params.amount}::integer, ${params.reason}, ${params.adminId}::uuid,
          ${params.now}::timestamptz)),
      ${params.extra(created)}
      select r.result, r.remaining, r.amount, r.status, ${t.provider}, ${t.providerTradeNo},
          ${t.refundedAmount} as order_refunded
        from r left join ${t} on ${t.orderNo} = ${params.orderNo}`,
  );
  return row;
}

/** payment_refund_apply's answer. */
interface AppliedRefund {
  result: "applied" | "duplicate" | "unknown_refund" | "not_refundable";
  order_status: OrderStatus | null;
  refunded_amount: OrderRow["refunded_amount"] | null;
  credits_reversed: RefundRow["credits_reversed"] | null;
}

/** payment_refund_apply: the order's refunded amount and the credits or subscription taken back. */
export async function applyRefundStatement(
  db: Db,
  params: { refundNo: string; adminId: string | null; now: string },
): Promise<AppliedRefund | undefined> {
  const [row] = await queryRows<AppliedRefund>(
    db,
    sql`select result, order_status, refunded_amount, credits_reversed
        from payment_refund_apply(${params.refundNo}, ${params.adminId}::uuid,
          ${params.now}::timestamptz)`,
  );
  return row;
}

export async function markRefundFailed(
  db: Db,
  params: { refundNo: string; now: string },
): Promise<void> {
  await db.execute(
    sql`update ${r} set ${col(r.status)} = 'failed',
          ${col(r.completedAt)} = ${params.now}::timestamptz
        where ${r.refundNo} = ${params.refundNo} and ${r.status} = 'pending'`,
  );
}

/** Pending refunds created before `before` at a real provider, oldest first. */
export function listDueRefunds(db: Db, params: { before: string; limit: number }) {
  return queryRows<
    Pick<RefundRow, "refund_no" | "amount" | "reason" | "admin_id"> &
      Pick<OrderRow, "order_no" | "provider" | "provider_trade_no">
  >(
    db,
    sql`select ${columnList([
      r.refundNo,
      r.amount,
      r.reason,
      r.adminId,
      t.orderNo,
      t.provider,
      t.providerTradeNo,
    ])}
        from ${r} join ${t} on ${t.orderNo} = ${r.orderNo}
        where ${r.status} = 'pending' and ${r.createdAt} <= ${params.before}::timestamptz
          and ${t.provider} <> 'sandbox'
        order by ${r.createdAt} limit ${params.limit}`,
  );
}

// ---- admin ----

/** UTC day bounds as timestamps, so the (status | pay_type, created_at) indexes serve them. */
const fromDay = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;
const untilDay = (day: string) => sql`(${day}::date + 1)::timestamp at time zone 'UTC'`;

/** Orders newest first with the buyer's email; `q` is an order number prefix or part of it. */
export function listAllOrders(
  db: Db,
  params: {
    page: number;
    size: number;
    q?: string;
    status?: OrderStatus;
    payType?: PayType;
    startDate?: string;
    endDate?: string;
  },
) {
  const filters: SQL[] = [sql`true`];
  if (params.q) {
    const prefix = `${escapeLike(params.q.trim().toUpperCase())}%`;
    const contains = `%${escapeLike(params.q.trim().toLowerCase())}%`;
    filters.push(sql`(${t.orderNo} like ${prefix} or ${users.email} like ${contains})`);
  }
  if (params.status) filters.push(sql`${t.status} = ${params.status}`);
  if (params.payType) filters.push(sql`${t.payType} = ${params.payType}`);
  if (params.startDate) filters.push(sql`${t.createdAt} >= ${fromDay(params.startDate)}`);
  if (params.endDate) filters.push(sql`${t.createdAt} < ${untilDay(params.endDate)}`);
  return selectPage<OrderRow & Pick<DbRow<typeof users>, "email">>(db, {
    columns: sql`${ORDER_COLUMNS}, ${users.email}`,
    from: sql`${t} join ${users} on ${users.id} = ${t.userId}`,
    where: sql.join(filters, sql` and `),
    order: sql`${t.createdAt} desc, ${t.id} desc`,
    page: params.page,
    size: params.size,
  });
}

const REVENUE_STATUSES = sql`('paid', 'refunded', 'partially_refunded')`;

/**
 * Revenue rows (amount less refunds of paid, refunded and partially refunded orders) per UTC
 * day, pay_type and currency, and order counts by status, over `[start, end]` days: two
 * statements, run together.
 */
export function paymentFigures(db: Db, range: { start: string; end: string }) {
  const inRange = sql`${t.createdAt} >= ${fromDay(range.start)} and ${t.createdAt} < ${untilDay(range.end)}`;
  return Promise.all([
    queryRows<
      Pick<OrderRow, "pay_type" | "currency"> & {
        date: string;
        orders: number;
        gross: number;
        refunded: number;
        revenue: number;
      }
    >(
      db,
      sql`select to_char((${t.createdAt} at time zone 'UTC')::date, 'YYYY-MM-DD') as date,
            ${t.payType}, ${t.currency}, count(*)::int as orders,
            sum(${t.amount})::float8 as gross, sum(${t.refundedAmount})::float8 as refunded,
            sum(${t.amount} - ${t.refundedAmount})::float8 as revenue
          from ${t}
          where ${t.status} in ${REVENUE_STATUSES} and ${inRange}
          group by 1, 2, 3 order by 1, 2, 3`,
    ),
    queryRows<Pick<OrderRow, "status"> & { n: number }>(
      db,
      sql`select ${t.status}, count(*)::int as n from ${t} where ${inRange}
          group by ${t.status}`,
    ),
  ]);
}

// ---- fragments for other modules' statements ----

/**
 * An INSERT (a CTE body) of `referral` subscription rows (no monthly credits) for growth's
 * referral rewards. `rows` yields user_id, plan_code, starts_at, ends_at and created_at; the
 * plan's id is looked up by its code.
 */
export function referralSubscriptionInsert(rows: SQL): SQL {
  const s = subscriptions;
  const sp = alias(subscriptionPlans, "sp");
  return sql`insert into ${s} (${columnNames([
    s.userId,
    s.planId,
    s.planCode,
    s.billingCycle,
    s.monthlyCredits,
    s.startsAt,
    s.endsAt,
    s.createdAt,
  ])})
    select n.user_id, (select ${sp.id} from ${subscriptionPlans} ${sp} where ${sp.code} = n.plan_code),
      n.plan_code, 'referral', 0, n.starts_at, n.ends_at, n.created_at
    from (${rows}) n`;
}
