import { type Column, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { customers } from "../../../db/schema";
import { col, columnNames, type DbRow } from "../../../db/sql";
import { type CustomerData, readableBy, writableBy } from "./index";

/** Spreadsheet import and export of customers (src/modules/imports). */

const c = alias(customers, "c");

/** An existing customer an import row may update: its email and lower-cased company. */
export interface CustomerImportMatch {
  id: DbRow<typeof customers>["id"];
  primary: DbRow<typeof customers>["email"];
  secondary: string | null;
  /** False: the caller sees it (a member and the pool) but may not change it. */
  writable: boolean;
}

/**
 * The customers the user sees (src/db/scope.ts) with one of the emails or (lower-cased)
 * companies, oldest first: an import's duplicates are judged against what its importer sees.
 */
export function findCustomersForImport(
  db: Db,
  params: { userId: string; emails: string[]; companies: string[] },
): Promise<CustomerImportMatch[]> {
  const p = JSON.stringify(params.emails);
  const s = JSON.stringify(params.companies);
  return queryRows<CustomerImportMatch>(
    db,
    sql`select ${customers.id}, ${customers.email} as "primary", lower(${customers.company}) as secondary,
        ${writableBy(customers, params.userId)} as writable
      from ${customers}
      where ${readableBy(customers, params.userId)} and (
        ${customers.email} in (select jsonb_array_elements_text(${p}::jsonb))
        or lower(${customers.company}) in (select jsonb_array_elements_text(${s}::jsonb)))
      order by ${customers.createdAt}, ${customers.id}`,
  );
}

/**
 * One statement: updates the rows with an id the user may change (a null field keeps the stored
 * value) and inserts the rows without one, held by the user in their organisation. Each row
 * carries the import's field names (the column names).
 */
export async function upsertImportedCustomers(
  db: Db,
  params: { userId: string; now: string; rows: Record<string, unknown>[] },
): Promise<void> {
  const payload = JSON.stringify(params.rows);
  const { userId, now } = params;
  // A field the row leaves empty (null) keeps the stored value.
  const keep = (column: Column) => sql`${col(column)} = coalesce(i.${col(column)}, ${column})`;
  await queryRows(
    db,
    sql`with input as (
          select * from jsonb_to_recordset(${payload}::jsonb) as x(
            id uuid, company text, contact_name text, email text, phone text, whatsapp text,
            country text, source text, tags jsonb, status text, notes text,
            estimated_value int, estimated_currency text, last_contact_at timestamptz,
            next_followup_at timestamptz)),
        upd as (
          update ${customers} c set
            ${sql.join(
              [
                keep(c.company),
                keep(c.contactName),
                keep(c.email),
                keep(c.phone),
                keep(c.whatsapp),
                keep(c.country),
                keep(c.source),
                keep(c.tags),
                keep(c.status),
                keep(c.notes),
                keep(c.estimatedValue),
                keep(c.estimatedCurrency),
                keep(c.lastContactAt),
                keep(c.nextFollowupAt),
              ],
              sql`,\n            `,
            )},
            ${col(customers.updatedAt)} = ${now}::timestamptz
          from input i
          where i.id is not null and ${c.id} = i.id and ${writableBy(c, userId)}
          returning ${c.id}),
        ins as (
          insert into ${customers} (${columnNames([
            customers.userId,
            customers.company,
            customers.contactName,
            customers.email,
            customers.phone,
            customers.whatsapp,
            customers.country,
            customers.source,
            customers.tags,
            customers.status,
            customers.notes,
            customers.estimatedValue,
            customers.estimatedCurrency,
            customers.lastContactAt,
            customers.nextFollowupAt,
            customers.createdAt,
            customers.updatedAt,
          ])})
          select ${userId}::uuid, i.company, i.contact_name, i.email, i.phone, i.whatsapp,
            i.country, i.source, coalesce(i.tags, '[]'::jsonb), coalesce(i.status, 'new'),
            i.notes, i.estimated_value, coalesce(i.estimated_currency, 'USD'),
            i.last_contact_at, i.next_followup_at, ${now}::timestamptz, ${now}::timestamptz
          from input i where i.id is null
          returning ${customers.id})
        select (select count(*) from upd)::int as updated, (select count(*) from ins)::int as created`,
  );
}

const isoText = (column: unknown) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A customer as exported: every field the import reads, dates as ISO 8601 UTC text. */
export type CustomerExportRow = CustomerData & { currency: string };

/** Where a page of the export ended: the last row's created_at (exact, as text) and id. */
export interface ExportCursor {
  createdAt: string;
  id: string;
}

/**
 * One page of the customers the user sees (src/db/scope.ts), oldest first, after `after` (keyset
 * on (created_at, id); the redundant `created_at >=` puts the seek on the organisation's
 * created_at index, so a page costs the same at any depth); `currency` is that of
 * estimated_value. `cursor` is where the next
 * page starts.
 */
export async function exportCustomersPage(
  db: Db,
  params: { userId: string; after: ExportCursor | null; limit: number },
): Promise<{ rows: CustomerExportRow[]; cursor: ExportCursor | null }> {
  const t = customers;
  const after = params.after
    ? sql`and ${t.createdAt} >= ${params.after.createdAt}::timestamptz
        and (${t.createdAt}, ${t.id}) > (${params.after.createdAt}::timestamptz, ${params.after.id}::uuid)`
    : sql``;
  const rows = await queryRows<CustomerExportRow & { cursor_at: string; cursor_id: string }>(
    db,
    sql`select ${t.company}, ${t.contactName}, ${t.email}, ${t.phone}, ${t.whatsapp}, ${t.country},
        ${t.source}, ${t.tags}, ${t.status}, ${t.notes}, ${t.estimatedValue}, ${t.estimatedCurrency},
        ${t.estimatedCurrency} as currency,
        ${isoText(t.lastContactAt)} as last_contact_at,
        ${isoText(t.nextFollowupAt)} as next_followup_at,
        ${t.createdAt}::text as cursor_at, ${t.id} as cursor_id
      from ${t} where ${readableBy(t, params.userId)} ${after}
      order by ${t.createdAt}, ${t.id} limit ${params.limit}`,
  );
  const last = rows.at(-1);
  const cursor =
    rows.length === params.limit && last ? { createdAt: last.cursor_at, id: last.cursor_id } : null;
  // The rows keep their cursor columns: the export reads only its own, and deleting a property
  // turns each row into a slower dictionary-mode object.
  return { rows, cursor };
}
