import { type SQL, sql } from "drizzle-orm";
import { pgErrorCode, queryRows } from "../../db/client";
import type { INVOICE_STATUSES } from "../../db/schema";
import type { Deps } from "../../deps";
import { conflict, notFound } from "../../http/errors";
import { iso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { type Actor, auditCte, lockBefore } from "../admin/writes";
import { notificationInsert } from "../notifications/service";

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceInput {
  order_no: string;
  title: string;
  tax_number: string;
  email: string;
}

interface InvoiceRow {
  id: string;
  user_id: string;
  order_no: string;
  title: string;
  tax_number: string;
  email: string;
  amount: number;
  currency: string;
  status: InvoiceStatus;
  invoice_number: string | null;
  issued_at: Date | null;
  created_at: Date;
}

const COLUMNS = sql`i.id, i.user_id, i.order_no, i.title, i.tax_number, i.email, i.amount,
  i.currency, i.status, i.invoice_number, i.issued_at, i.created_at`;

function toInvoiceResponse(row: InvoiceRow) {
  return {
    id: row.id,
    order_no: row.order_no,
    title: row.title,
    tax_number: row.tax_number,
    email: row.email,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    invoice_number: row.invoice_number,
    issued_at: iso(row.issued_at),
    created_at: iso(row.created_at)!,
  };
}

/** Order states with money kept: the invoice is for the amount less refunds. */
const PAID = sql`('paid', 'partially_refunded')`;

/**
 * Requests an invoice for the caller's own paid order, in one statement: another user's or an
 * unknown order is 404, an unpaid (or fully refunded) one 409, and the unique order number
 * makes a second request for the same order 409.
 */
export async function requestInvoice(deps: Deps, userId: string, input: InvoiceInput) {
  const now = deps.clock.now().toISOString();
  const [row] = await queryRows<InvoiceRow & { order_status: string | null; taken: boolean }>(
    deps.db,
    sql`with o as (
        select order_no, user_id, status, amount - refunded_amount as due, currency
        from payment_transactions where order_no = ${input.order_no} and user_id = ${userId}),
      created as (
        insert into invoices as i (user_id, order_no, title, tax_number, email, amount, currency,
                                   created_at)
        select o.user_id, o.order_no, ${input.title}, ${input.tax_number}, ${input.email}, o.due,
               o.currency, ${now}::timestamptz
        from o where o.status in ${PAID} and o.due > 0
        on conflict (order_no) do nothing
        returning ${COLUMNS})
      select c.*, (select status from o) as order_status,
        exists (select 1 from invoices where order_no = ${input.order_no}) as taken
      from (select 1) one left join created c on true`,
  ).catch((error) => {
    // A parallel request for the same order committed first.
    if (pgErrorCode(error) === "23505") throw conflict("An invoice was already requested");
    throw error;
  });
  if (!row?.order_status) throw notFound("Order not found");
  if (row.id) return toInvoiceResponse(row);
  if (row.taken) throw conflict("An invoice was already requested for this order");
  throw conflict("Only a paid order can be invoiced");
}

async function listInvoices(
  deps: Deps,
  query: { page: number; size: number; userId?: string; status?: InvoiceStatus },
) {
  const filters: SQL[] = [sql`true`];
  if (query.userId) filters.push(sql`i.user_id = ${query.userId}`);
  if (query.status) filters.push(sql`i.status = ${query.status}`);
  const where = sql.join(filters, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<InvoiceRow & { user_email: string | null }>(
      deps.db,
      sql`select ${COLUMNS}, u.email as user_email
          from invoices i join users u on u.id = i.user_id
          where ${where} order by i.created_at desc, i.id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from invoices i where ${where}`,
    ),
  ]);
  return { rows, total: count?.n ?? 0, page: query.page, size: query.size };
}

export async function listOwnInvoices(
  deps: Deps,
  query: { userId: string; page: number; size: number },
) {
  const { rows, ...page } = await listInvoices(deps, query);
  return { items: rows.map(toInvoiceResponse), ...page };
}

export async function adminListInvoices(
  deps: Deps,
  query: { page: number; size: number; status?: InvoiceStatus; user_id?: string },
) {
  const { rows, ...page } = await listInvoices(deps, { ...query, userId: query.user_id });
  return {
    items: rows.map((r) => ({
      ...toInvoiceResponse(r),
      user_id: r.user_id,
      user_email: r.user_email,
    })),
    ...page,
  };
}

/**
 * Marks a requested invoice issued with its number, notifies the user and writes the audit row,
 * in one statement.
 */
export async function issueInvoice(
  deps: Deps,
  actor: Actor,
  input: { id: string; invoiceNumber: string },
) {
  const now = deps.clock.now().toISOString();
  const old = lockBefore("invoices", input.id, "i");
  const [row] = await queryRows<InvoiceRow & { found: boolean }>(
    deps.db,
    sql`with issued as (
        update invoices i set status = 'issued', invoice_number = ${input.invoiceNumber},
          issued_by = ${actor.id}, issued_at = ${now}::timestamptz
        from ${old.from}
        where ${old.where} and i.status = 'requested'
        returning ${COLUMNS}, audit_old.audit_before),
      ${auditCte(actor, {
        action: "invoice.issue",
        target: "invoice",
        rows: sql`issued`,
        kind: "update",
        fields: ["status", "invoice_number"],
      })},
      notice as (${notificationInsert(
        "invoice_issued",
        sql`select user_id, 'Invoice issued'::text as title,
              'Invoice ' || invoice_number || ' for order ' || order_no || ' was issued and sent to '
                || email || '.' as body,
              jsonb_build_object('invoice_id', id, 'order_no', order_no,
                                 'invoice_number', invoice_number) as data,
              'invoice_issued:' || id as dedupe_key
            from issued`,
        now,
      )})
      select x.*, exists (select 1 from invoices where id = ${input.id}) as found
      from (select 1) one left join issued x on true`,
  );
  if (!row?.found) throw notFound("Invoice not found");
  if (!row.id) throw conflict("This invoice was already issued");
  return toInvoiceResponse(row);
}
