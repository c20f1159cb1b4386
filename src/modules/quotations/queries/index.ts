import { type Column, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import {
  customers,
  type QUOTATION_STATUSES,
  quotationItems,
  quotations,
  users,
} from "../../../db/schema";
import { type ScopeAccess, type ScopedTable, visibleTo } from "../../../db/scope";
import { type ColumnName, col, columnList, columnNames, type DbRow } from "../../../db/sql";
import { customerStageForward } from "../../customers/queries/quotation-stage";

type QuotationStatus = (typeof QUOTATION_STATUSES)[number];

const q = alias(quotations, "q");
const qi = alias(quotationItems, "i");

/** What an item stores, but its id and quotation. */
export type QuotationItemValues = Pick<
  DbRow<typeof quotationItems>,
  | "product_id"
  | "position"
  | "name"
  | "description"
  | "unit"
  | "quantity"
  | "unit_price"
  | "line_total"
>;

export type QuotationRow = Pick<
  DbRow<typeof quotations>,
  | "id"
  | "quote_no"
  | "customer_id"
  | "status"
  | "currency"
  | "incoterm"
  | "valid_until"
  | "subtotal"
  | "discount"
  | "shipping"
  | "total"
  | "notes"
  | "created_at"
  | "updated_at"
  | "org_id"
  | "user_id"
  | "revision"
  | "previous_id"
  | "buyer_address"
  | "named_place"
  | "port_of_loading"
  | "lead_time"
  | "packing"
  | "proforma_no"
> & {
  /** The proforma invoice's issue day (UTC, YYYY-MM-DD); null until one is issued. */
  proforma_date: string | null;
  /** The name of the member who made it. */
  owner_name: string | null;
  /** jsonb may arrive parsed or as text depending on the driver. */
  exchange_rates: DbRow<typeof quotations>["exchange_rates"] | string;
};

export type FrozenRates = NonNullable<DbRow<typeof quotations>["exchange_rates"]>;

const owner = alias(users, "owner");
const held = alias(customers, "held");

const COLUMNS = sql`${columnList([q.id, q.quoteNo, q.customerId, q.status, q.currency, q.incoterm])},
  ${q.validUntil}::text as valid_until, ${columnList([q.subtotal, q.discount, q.shipping, q.total, q.notes, q.exchangeRates, q.createdAt, q.updatedAt, q.orgId, q.userId])},
  ${columnList([q.revision, q.previousId, q.buyerAddress, q.namedPlace, q.portOfLoading, q.leadTime, q.packing, q.proformaNo])},
  to_char(${q.proformaIssuedAt} at time zone 'UTC', 'YYYY-MM-DD') as proforma_date,
  (select ${owner.name} from ${users} ${owner} where ${owner.id} = ${q.userId}) as owner_name`;

/**
 * The quotations the caller may see or change (docs/teams.md): a member's own and those of the
 * customers they hold, whoever made them, so a customer handed over brings its quotations along
 * and the new holder can send, accept or correct them; managers and above, all of the
 * organisation's. Reading and changing are the same set: no pool, and a quotation the member
 * may see but not change would leave the customer they hold without anyone to work its quotes.
 */
function quotationScope(
  table: ScopedTable & { customerId: AnyPgColumn },
  userId: string,
  access: ScopeAccess,
): SQL {
  return visibleTo(table, userId, {
    access,
    alsoVisible: sql`exists (select 1 from ${customers} ${held}
      where ${held.id} = ${table.customerId} and ${held.userId} = ${userId}::uuid)`,
  });
}

/** The items as one jsonb parameter, inserted by the same statement as their quotation. */
const insertItems = (quotationIdFrom: SQL, items: QuotationItemValues[]) => sql`
  insert into ${quotationItems} (${columnNames([quotationItems.quotationId, quotationItems.productId, quotationItems.position, quotationItems.name, quotationItems.description, quotationItems.unit, quotationItems.quantity, quotationItems.unitPrice, quotationItems.lineTotal])})
  select q.id, (i->>'product_id')::uuid, (i->>'position')::int, i->>'name', i->>'description',
    i->>'unit', (i->>'quantity')::int, (i->>'unit_price')::int, (i->>'line_total')::int
  from ${quotationIdFrom} q, jsonb_array_elements(${JSON.stringify(items)}::jsonb) as t(i)`;

/** The fields a document prints beside the terms (docs/quotations.md), as stored. */
export type TradeValues = Pick<
  DbRow<typeof quotations>,
  "buyer_address" | "named_place" | "port_of_loading" | "lead_time" | "packing"
>;
const TRADE_KEYS = [
  "buyer_address",
  "named_place",
  "port_of_loading",
  "lead_time",
  "packing",
] as const satisfies readonly (keyof TradeValues)[];
const TRADE_COLUMNS = [
  quotations.buyerAddress,
  quotations.namedPlace,
  quotations.portOfLoading,
  quotations.leadTime,
  quotations.packing,
] as const;

/** `<prefix>-NNN`: padded to at least three digits, never cut to them. */
const nextNumber = (prefix: string, n: SQL) =>
  sql`${prefix} || '-' || lpad(${n}::text, greatest(3, length(${n}::text)), '0')`;

/** The next number of the seller's quotations numbered `<prefix>-N` (a subquery with `n`). */
const numberCounter = (prefix: string, userId: string) => {
  const t = quotations;
  return sql`(select coalesce(max(substring(${t.quoteNo} from ${prefix.length + 2}::int)::bigint), 0) + 1 as n
    from ${t}
    where ${t.userId} = ${userId} and ${t.quoteNo} ~ ${`^${prefix}-[0-9]+$`})`;
};

/**
 * Inserts a quotation and its items in one statement, numbered `<prefix>-NNN` (the next number
 * of the user's quotations with that prefix, which is `Q-YYYYMMDD`). Padded to at least three
 * digits, never cut to them: the 1,000th of a day is `-1000` (lpad alone truncates to its
 * width, and `-100` was taken). The next number is the largest one read as a number, so `-1000`
 * follows `-999`. Two creates racing for one number meet on the unique (user_id, quote_no):
 * the later one inserts nothing and answers false, and the caller retries. A conflict that
 * raised would abort the transaction a billed draft creates its quotation in (ai/billing.ts),
 * and every retry in it with it.
 */
export async function insertQuotation(
  db: Db,
  params: {
    id: string;
    userId: string;
    prefix: string;
    customerId: string | null;
    currency: string;
    incoterm: string | null;
    validUntil: string | null;
    subtotal: number;
    discount: number;
    shipping: number;
    total: number;
    notes: string | null;
    trade: TradeValues;
    exchangeRates: FrozenRates;
    items: QuotationItemValues[];
  },
): Promise<boolean> {
  const t = quotations;
  const { prefix, userId } = params;
  const inserted = await queryRows(
    db,
    sql`with q as (
          insert into ${t} (${columnNames([t.id, t.userId, t.customerId, t.quoteNo, t.currency, t.incoterm, t.validUntil, t.subtotal, t.discount, t.shipping, t.total, t.notes, t.exchangeRates, ...TRADE_COLUMNS])})
          select ${params.id}, ${userId}, ${params.customerId},
            ${nextNumber(prefix, sql`counter.n`)},
            ${params.currency}, ${params.incoterm}, ${params.validUntil},
            ${params.subtotal}, ${params.discount}, ${params.shipping}, ${params.total},
            ${params.notes}, ${JSON.stringify(params.exchangeRates)}::jsonb,
            ${sql.join(
              TRADE_KEYS.map((k) => sql`${params.trade[k]}`),
              sql`, `,
            )}
          from ${numberCounter(prefix, userId)} counter
          on conflict (${columnNames([t.userId, t.quoteNo, t.revision])}) do nothing
          returning ${t.id}
        ), items as (${insertItems(sql`q`, params.items)} returning 1)
        select id from q`,
  );
  return inserted.length > 0;
}

/** A page of the quotations the caller sees, newest first, with their item counts. */
export function listQuotations(
  db: Db,
  params: {
    userId: string;
    status?: QuotationStatus | undefined;
    customerId?: string | undefined;
    page: number;
    size: number;
  },
) {
  const filters: SQL[] = [quotationScope(q, params.userId, "read")];
  if (params.status) filters.push(sql`${q.status} = ${params.status}`);
  if (params.customerId) filters.push(sql`${q.customerId} = ${params.customerId}`);
  return selectPage<QuotationRow & { item_count: number }>(db, {
    columns: sql`${COLUMNS},
      (select count(*)::int from ${quotationItems} ${qi} where ${qi.quotationId} = ${q.id}) as item_count`,
    from: sql`${quotations} ${q}`,
    where: sql.join(filters, sql` and `),
    order: sql`${q.createdAt} desc, ${q.id} desc`,
    page: params.page,
    size: params.size,
  });
}

export type QuotationItemRow = QuotationItemValues & Pick<DbRow<typeof quotationItems>, "id">;

/** The quotation with its items (by position); undefined when the caller does not see it. */
export async function getQuotation(
  db: Db,
  params: { userId: string; id: string },
): Promise<(QuotationRow & { items: QuotationItemRow[] | string }) | undefined> {
  const [row] = await queryRows<QuotationRow & { items: QuotationItemRow[] | string }>(
    db,
    sql`select ${COLUMNS},
          coalesce((select jsonb_agg(jsonb_build_object('id', ${qi.id}, 'product_id', ${qi.productId},
              'position', ${qi.position}, 'name', ${qi.name}, 'description', ${qi.description},
              'unit', ${qi.unit}, 'quantity', ${qi.quantity}, 'unit_price', ${qi.unitPrice},
              'line_total', ${qi.lineTotal}) order by ${qi.position})
            from ${quotationItems} ${qi} where ${qi.quotationId} = ${q.id}), '[]'::jsonb) as items
        from ${quotations} ${q} where ${q.id} = ${params.id} and ${quotationScope(q, params.userId, "read")}`,
  );
  return row;
}

/** The currency and frozen rates of a quotation the caller may change, to price new items with. */
export async function getQuotationPricing(
  db: Db,
  params: { userId: string; id: string },
): Promise<Pick<QuotationRow, "currency" | "exchange_rates"> | undefined> {
  const t = quotations;
  const [row] = await queryRows<Pick<QuotationRow, "currency" | "exchange_rates">>(
    db,
    sql`select ${t.currency}, ${t.exchangeRates} from ${t}
        where ${t.id} = ${params.id} and ${quotationScope(t, params.userId, "write")}`,
  );
  return row;
}

/** The fields a PATCH sets as given. */
const PATCHABLE = {
  customer_id: quotations.customerId,
  incoterm: quotations.incoterm,
  valid_until: quotations.validUntil,
  notes: quotations.notes,
  currency: quotations.currency,
  discount: quotations.discount,
  shipping: quotations.shipping,
  buyer_address: quotations.buyerAddress,
  named_place: quotations.namedPlace,
  port_of_loading: quotations.portOfLoading,
  lead_time: quotations.leadTime,
  packing: quotations.packing,
} as const satisfies Partial<Record<ColumnName<typeof quotations>, Column>>;

/**
 * One statement: patches a quotation the caller may change when `conditions` hold (`draftOnly`: it is a
 * draft; `allowedFrom`: its status is one of these) and, with `priced`, replaces its items and
 * sets subtotal, total and rates. The total follows a discount or shipping change. Returns the
 * ids updated (none: not the caller's to change, or a condition failed).
 */
export function updateQuotation(
  db: Db,
  params: {
    userId: string;
    id: string;
    fields: Partial<Record<keyof typeof PATCHABLE, unknown>>;
    status?: QuotationStatus | undefined;
    draftOnly: boolean;
    allowedFrom?: QuotationStatus[] | undefined;
    priced?:
      | { items: QuotationItemValues[]; exchangeRates: FrozenRates; subtotal: number }
      | undefined;
  },
): Promise<Pick<DbRow<typeof quotations>, "id">[]> {
  const t = quotations;
  const { fields, status, priced } = params;
  const sets: SQL[] = [sql`${col(t.updatedAt)} = now()`];
  for (const key of [
    "customer_id",
    "incoterm",
    "valid_until",
    "notes",
    "currency",
    ...TRADE_KEYS,
  ] as const) {
    if (fields[key] !== undefined) sets.push(sql`${col(PATCHABLE[key])} = ${fields[key]}`);
  }
  if (fields.discount !== undefined) sets.push(sql`${col(t.discount)} = ${fields.discount}`);
  if (fields.shipping !== undefined) sets.push(sql`${col(t.shipping)} = ${fields.shipping}`);
  if (status !== undefined) sets.push(sql`${col(t.status)} = ${status}`);
  const discount = fields.discount === undefined ? col(t.discount) : sql`${fields.discount}`;
  const shipping = fields.shipping === undefined ? col(t.shipping) : sql`${fields.shipping}`;
  if (priced) {
    sets.push(sql`${col(t.exchangeRates)} = ${JSON.stringify(priced.exchangeRates)}::jsonb`);
    sets.push(sql`${col(t.subtotal)} = ${priced.subtotal}`);
    sets.push(sql`${col(t.total)} = ${priced.subtotal} - ${discount} + ${shipping}`);
  } else if (fields.discount !== undefined || fields.shipping !== undefined) {
    sets.push(sql`${col(t.total)} = ${col(t.subtotal)} - ${discount} + ${shipping}`);
  }
  const conditions: SQL[] = [
    sql`${col(t.id)} = ${params.id}`,
    quotationScope(t, params.userId, "write"),
  ];
  if (params.draftOnly) conditions.push(sql`${col(t.status)} = 'draft'`);
  if (params.allowedFrom !== undefined) {
    conditions.push(
      params.allowedFrom.length > 0 ? sql`${col(t.status)} in ${params.allowedFrom}` : sql`false`,
    );
  }
  // Sent with its stored items: none may be priced 0 (new items are checked by the service).
  if (status === "sent" && !priced) {
    conditions.push(sql`not exists (select 1 from ${quotationItems} ${qi}
      where ${qi.quotationId} = ${t.id} and ${qi.unitPrice} = 0)`);
  }
  const update = sql`update ${t} set ${sql.join(sets, sql`, `)}
    where ${sql.join(conditions, sql` and `)} returning ${col(t.id)}, ${col(t.customerId)}`;
  // Sent or accepted moves the customer's stage forward, never back (the customers module's
  // fragment, in this statement).
  const stage =
    status === "sent" || status === "accepted"
      ? sql`, stage as (${customerStageForward(sql`select customer_id from q`, status === "sent" ? "quoted" : "won")})`
      : sql``;
  const statement = priced
    ? sql`with q as (${update}),
            del as (delete from ${quotationItems}
              where ${quotationItems.quotationId} in (select id from q)),
            ins as (${insertItems(sql`q`, priced.items)} returning 1)${stage}
          select id from q`
    : sql`with q as (${update})${stage} select id from q`;
  return queryRows<Pick<DbRow<typeof quotations>, "id">>(db, statement);
}

/** Whether a row was deleted (its items go with it: on delete cascade). */
export async function deleteQuotation(
  db: Db,
  params: { userId: string; id: string },
): Promise<boolean> {
  const t = quotations;
  const rows = await queryRows<Pick<DbRow<typeof quotations>, "id">>(
    db,
    sql`delete from ${t} where ${t.id} = ${params.id} and ${quotationScope(t, params.userId, "write")}
        returning ${t.id}`,
  );
  return rows.length > 0;
}

type Party<Prefix extends string, T, K extends keyof T> = {
  [P in K as `${Prefix}_${P & string}`]: T[P];
};

export type QuotationParties = Party<
  "seller",
  DbRow<typeof users>,
  "name" | "company" | "email" | "phone" | "country"
> & {
  customer_company: DbRow<typeof customers>["company"];
  customer_contact: DbRow<typeof customers>["contact_name"];
  customer_email: DbRow<typeof customers>["email"];
  customer_country: DbRow<typeof customers>["country"];
};

/**
 * The seller (the member who made the quotation, whoever downloads it) and the quotation's
 * customer in its organisation (null fields when none), for documents.
 */
export async function getQuotationParties(
  db: Db,
  params: { sellerId: string; orgId: string; customerId: string | null },
): Promise<QuotationParties> {
  const u = alias(users, "u");
  const c = alias(customers, "c");
  const [row] = await queryRows<QuotationParties>(
    db,
    sql`select ${u.name} as seller_name, ${u.company} as seller_company, ${u.email} as seller_email,
          ${u.phone} as seller_phone, ${u.country} as seller_country,
          ${c.company} as customer_company, ${c.contactName} as customer_contact,
          ${c.email} as customer_email, ${c.country} as customer_country
        from ${users} ${u} left join ${customers} ${c} on ${c.id} = ${params.customerId} and ${c.orgId} = ${params.orgId}
        where ${u.id} = ${params.sellerId}`,
  );
  return row!;
}

/**
 * Whether the caller may quote the customer: `yes` for one they may work on (they hold it, or
 * they are a manager or above), `pool` for one in the organisation's pool they must claim first,
 * undefined for one they do not see (another member's, another organisation's, none).
 */
export async function quotableCustomer(
  db: Db,
  params: { userId: string; id: string },
): Promise<"yes" | "pool" | undefined> {
  const c = customers;
  const [row] = await queryRows<{ quotable: "yes" | "pool" }>(
    db,
    sql`select case when ${visibleTo(c, params.userId, { access: "write" })} then 'yes' else 'pool' end as quotable
        from ${c} where ${c.id} = ${params.id} and ${visibleTo(c, params.userId, { pool: true })}`,
  );
  return row?.quotable;
}

/** The statuses a quotation may be revised from (ADR 0106). */
const REVISABLE_STATUSES = ["sent", "accepted", "rejected", "expired"] as const;

/** The quotation columns a revision or a copy takes over as they are. */
const COPIED = [
  quotations.customerId,
  quotations.currency,
  quotations.incoterm,
  quotations.validUntil,
  quotations.subtotal,
  quotations.discount,
  quotations.shipping,
  quotations.total,
  quotations.notes,
  quotations.exchangeRates,
  ...TRADE_COLUMNS,
] as const;

/** Copies the items of quotation `sourceId` to the quotation(s) `target` returns. */
const copyItems = (target: SQL, sourceId: string) => {
  const i = quotationItems;
  const cols = [
    i.productId,
    i.position,
    i.name,
    i.description,
    i.unit,
    i.quantity,
    i.unitPrice,
    i.lineTotal,
  ];
  return sql`insert into ${i} (${columnNames([i.quotationId, ...cols])})
    select n.id, ${columnList(cols)} from ${target} n, ${i} where ${i.quotationId} = ${sourceId}`;
};

/**
 * One statement: quotation `id` (one the caller may change, sent, accepted, rejected or expired,
 * or superseded with its revision deleted) becomes `superseded`, and `newId` is its next
 * revision: a draft with the same number, `revision` + 1, `previous_id` the old one, the same
 * terms and items, the same seller and organisation. False when nothing was revised.
 */
export async function reviseQuotation(
  db: Db,
  params: { userId: string; id: string; newId: string },
): Promise<boolean> {
  const t = quotations;
  const n = alias(quotations, "n");
  const copied = columnNames([...COPIED]);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with old as (
          update ${t} set ${col(t.status)} = 'superseded', ${col(t.updatedAt)} = now()
          where ${col(t.id)} = ${params.id} and ${quotationScope(t, params.userId, "write")}
            and (${col(t.status)} in ${REVISABLE_STATUSES}
              or (${col(t.status)} = 'superseded'
                and not exists (select 1 from ${quotations} ${n} where ${n.previousId} = ${params.id})))
          returning *
        ), q as (
          insert into ${t} (${columnNames([t.id, t.orgId, t.userId, t.quoteNo, t.revision, t.previousId, t.status])}, ${copied})
          select ${params.newId}, org_id, user_id, quote_no, revision + 1, id, 'draft', ${copied}
          from old
          returning ${col(t.id)}
        ), items as (${copyItems(sql`q`, params.id)} returning 1)
        select id from q`,
  );
  return rows.length > 0;
}

/**
 * One statement: a copy of quotation `sourceId` as a fresh draft `id` of seller `userId`,
 * numbered `<prefix>-NNN` as a new quotation is (insertQuotation), with its terms and items.
 * False when the number was taken meanwhile (the caller numbers again) or the source is gone.
 */
export async function duplicateQuotation(
  db: Db,
  params: { userId: string; sourceId: string; id: string; prefix: string },
): Promise<boolean> {
  const t = quotations;
  const copied = columnNames([...COPIED]);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with q as (
          insert into ${t} (${columnNames([t.id, t.userId, t.quoteNo])}, ${copied})
          select ${params.id}, ${params.userId}, ${nextNumber(params.prefix, sql`counter.n`)}, ${copied}
          from ${t}, ${numberCounter(params.prefix, params.userId)} counter
          where ${t.id} = ${params.sourceId} and ${quotationScope(t, params.userId, "read")}
          on conflict (${columnNames([t.userId, t.quoteNo, t.revision])}) do nothing
          returning ${col(t.id)}
        ), items as (${copyItems(sql`q`, params.sourceId)} returning 1)
        select id from q`,
  );
  return rows.length > 0;
}

/**
 * Issues the proforma invoice number of an accepted quotation the caller sees, once: the next of
 * the organisation's `<prefix>-NNNN` series (`PI-YYYY`), with the issue time `now`. No row
 * when it already has one, is not accepted or is not the caller's to see. Two quotations of one
 * organisation issued at once meet on the unique (org_id, proforma_no): the loser's statement
 * raises 23505 and the caller numbers again.
 */
export async function issueProformaNumber(
  db: Db,
  params: { userId: string; id: string; prefix: string; now: string },
): Promise<boolean> {
  const t = quotations;
  const o = alias(quotations, "o");
  const { prefix } = params;
  const n = sql`counter.n`;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${t} set ${col(t.proformaNo)} = ${prefix} || '-' || lpad(${n}::text, greatest(4, length(${n}::text)), '0'),
          ${col(t.proformaIssuedAt)} = ${params.now}::timestamptz
        from (select coalesce(max(substring(${o.proformaNo} from ${prefix.length + 2}::int)::bigint), 0) + 1 as n
              from ${quotations} ${o}
              where ${o.orgId} = (select ${q.orgId} from ${quotations} ${q} where ${q.id} = ${params.id})
                and ${o.proformaNo} ~ ${`^${prefix}-[0-9]+$`}) counter
        where ${col(t.id)} = ${params.id} and ${col(t.proformaNo)} is null
          and ${col(t.status)} = 'accepted' and ${quotationScope(t, params.userId, "read")}
        returning ${col(t.id)}`,
  );
  return rows.length > 0;
}
