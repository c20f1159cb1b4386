import { pgErrorCode } from "../../../db/client";
import type { INVOICE_STATUSES } from "../../../db/schema";
import { conflict, notFound } from "../../../http/errors";
import { iso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import type { Actor } from "../../admin/queries/audit";
import {
  type InvoiceRow,
  insertInvoice,
  issueInvoice as issueInvoiceRow,
  listInvoices,
} from "../queries";

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceInput {
  order_no: string;
  title: string;
  tax_number: string;
  email: string;
}

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

/**
 * Requests an invoice for the caller's own paid order, in one statement: another user's or an
 * unknown order is 404, an unpaid (or fully refunded) one 409, and the unique order number
 * makes a second request for the same order 409.
 */
export async function requestInvoice(deps: Deps, userId: string, input: InvoiceInput) {
  const row = await insertInvoice(deps.db, {
    userId,
    orderNo: input.order_no,
    title: input.title,
    taxNumber: input.tax_number,
    email: input.email,
    now: deps.clock.now().toISOString(),
  }).catch((error) => {
    // A parallel request for the same order committed first.
    if (pgErrorCode(error) === "23505") throw conflict("An invoice was already requested");
    throw error;
  });
  if (!row?.order_status) throw notFound("Order not found");
  if (row.id) return toInvoiceResponse(row as InvoiceRow);
  if (row.taken) throw conflict("An invoice was already requested for this order");
  throw conflict("Only a paid order can be invoiced");
}

export async function listOwnInvoices(
  deps: Deps,
  query: { userId: string; page: number; size: number },
) {
  const { rows, total } = await listInvoices(deps.db, query);
  return { items: rows.map(toInvoiceResponse), total, page: query.page, size: query.size };
}

export async function adminListInvoices(
  deps: Deps,
  query: { page: number; size: number; status?: InvoiceStatus; user_id?: string },
) {
  const { rows, total } = await listInvoices(deps.db, { ...query, userId: query.user_id });
  return {
    items: rows.map((r) => ({
      ...toInvoiceResponse(r),
      user_id: r.user_id,
      user_email: r.user_email,
    })),
    total,
    page: query.page,
    size: query.size,
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
  const row = await issueInvoiceRow(deps.db, actor, {
    id: input.id,
    invoiceNumber: input.invoiceNumber,
    now: deps.clock.now().toISOString(),
  });
  if (!row?.found) throw notFound("Invoice not found");
  if (!row.id) throw conflict("This invoice was already issued");
  return toInvoiceResponse(row as InvoiceRow);
}
