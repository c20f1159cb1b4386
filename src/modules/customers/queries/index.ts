import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import {
  type PrebuiltPage,
  prebuiltMatchedPage,
  prebuiltPage,
  runPrebuiltPage,
  selectPage,
} from "../../../db/page";
import {
  type CustomerStatus,
  customers,
  followupLogs,
  systemConfig,
  users,
} from "../../../db/schema";
import {
  type CallerId,
  callerOrgSql,
  callerSeesAllSql,
  type ScopedTable,
  visibleTo,
} from "../../../db/scope";
import {
  type ColumnName,
  col,
  columnList,
  type DbRow,
  rendered,
  renderedColumns,
} from "../../../db/sql";
import { offsetOf } from "../../../lib/pagination";
import { escapeLike } from "../../../lib/sql-text";
import { customersKeptSql } from "../../entitlements/queries";

/** The customers table as `c`, the alias every statement of the module reads it through. */
const c = alias(customers, "c");

/** customers.silence_days from the system config (14 when unset), as a scalar subquery. */
export const SILENCE_DAYS_SQL = sql`coalesce((select (${systemConfig.value} #>> '{}')::int
  from ${systemConfig} where ${systemConfig.key} = 'customers.silence_days'), 14)`;

/**
 * What the caller sees of the customers (ADR 0097, src/db/scope.ts): a member what they hold and
 * the pool, a manager, an admin or the owner the whole organisation.
 */
export const readableBy = (t: ScopedTable, userId: CallerId) =>
  visibleTo(t, userId, { pool: true });

/** What the caller may change: a member only what they hold (a pool customer is claimed first). */
export const writableBy = (t: ScopedTable, userId: string) =>
  visibleTo(t, userId, { access: "write" });

const holder = alias(users, "holder");

/** The holder's name beside a row of `c` (null in the pool); read per returned row only. */
const OWNER_NAME_SQL = rendered(
  sql`(select ${holder.name} from ${users} ${holder} where ${holder.id} = ${c.userId})`,
);

const COLUMNS_ONLY = columnList([
  c.id,
  c.orgId,
  c.userId,
  c.company,
  c.contactName,
  c.email,
  c.phone,
  c.whatsapp,
  c.country,
  c.source,
  c.tags,
  c.status,
  c.notes,
  c.estimatedValue,
  c.estimatedCurrency,
  c.lastContactAt,
  c.nextFollowupAt,
  c.createdAt,
  c.updatedAt,
]);
const COLUMNS = rendered(sql`${COLUMNS_ONLY}, ${OWNER_NAME_SQL} as owner_name`);

/** A customer's own fields: what a row shows besides its keys and times, and an export carries. */
export type CustomerData = Pick<
  DbRow<typeof customers>,
  | "company"
  | "contact_name"
  | "email"
  | "phone"
  | "whatsapp"
  | "country"
  | "source"
  | "tags"
  | "status"
  | "notes"
  | "estimated_value"
  | "estimated_currency"
  | "last_contact_at"
  | "next_followup_at"
>;

export type CustomerRow = Pick<
  DbRow<typeof customers>,
  "id" | "org_id" | "user_id" | "created_at" | "updated_at"
> &
  CustomerData & { owner_name: string | null };

/** The columns a create or a patch may set. */
const WRITABLE = {
  company: customers.company,
  contact_name: customers.contactName,
  email: customers.email,
  phone: customers.phone,
  whatsapp: customers.whatsapp,
  country: customers.country,
  source: customers.source,
  tags: customers.tags,
  status: customers.status,
  notes: customers.notes,
  estimated_value: customers.estimatedValue,
  estimated_currency: customers.estimatedCurrency,
  next_followup_at: customers.nextFollowupAt,
} as const satisfies Partial<Record<ColumnName<typeof customers>, unknown>>;

type WritableKey = keyof typeof WRITABLE;
const WRITABLE_KEYS = Object.keys(WRITABLE) as WritableKey[];
type CustomerFields = Partial<Record<WritableKey, unknown>>;

function columnValue(key: WritableKey, value: unknown): SQL {
  if (value === null) return sql`null`;
  if (key === "tags") return sql`${JSON.stringify(value)}::jsonb`;
  if (key === "next_followup_at") return sql`${value as string}::timestamptz`;
  return sql`${value}`;
}

const keysOf = (fields: CustomerFields) => WRITABLE_KEYS.filter((k) => fields[k] !== undefined);

export async function insertCustomer(
  db: Db,
  params: { id: string; userId: string; now: string; fields: CustomerFields },
): Promise<CustomerRow> {
  const { fields, now } = params;
  const keys = keysOf(fields);
  const columns = sql.join(
    [
      col(customers.id),
      col(customers.userId),
      col(customers.createdAt),
      col(customers.updatedAt),
      ...keys.map((k) => col(WRITABLE[k])),
    ],
    sql`, `,
  );
  const values = sql.join(
    [
      sql`${params.id}`,
      sql`${params.userId}`,
      sql`${now}::timestamptz`,
      sql`${now}::timestamptz`,
      ...keys.map((k) => columnValue(k, fields[k])),
    ],
    sql`, `,
  );
  const [row] = await queryRows<CustomerRow>(
    db,
    sql`insert into ${customers} as c (${columns}) values (${values}) returning ${COLUMNS}`,
  );
  return row!;
}

export async function getCustomer(
  db: Db,
  params: { userId: string; id: string },
): Promise<CustomerRow | undefined> {
  const [row] = await queryRows<CustomerRow>(
    db,
    sql`select ${COLUMNS} from ${customers} ${c}
        where ${c.id} = ${params.id} and ${readableBy(c, params.userId)}`,
  );
  return row;
}

type CustomerUpdate = CustomerRow & {
  /** False: the caller sees the customer (the pool) but may not change it. */
  writable: boolean;
  previous: CustomerStatus;
  updated: boolean;
  keeps_identity: boolean;
};

/**
 * One statement: locks the row the caller sees, applies the patch only when the caller may
 * change it, the status it has is in `allowedFrom` (any status when null) and a company, a
 * contact name or an email remains, and reports which case happened (no row: not found).
 */
export async function updateCustomer(
  db: Db,
  params: {
    userId: string;
    id: string;
    now: string;
    fields: CustomerFields;
    allowedFrom: CustomerStatus[] | null;
  },
): Promise<CustomerUpdate | undefined> {
  const { fields, allowedFrom } = params;
  const keys = keysOf(fields);
  const sets = keys.map((k) => sql`${col(WRITABLE[k])} = ${columnValue(k, fields[k])}`);
  sets.push(sql`${col(customers.updatedAt)} = ${params.now}::timestamptz`);
  const guard = allowedFrom
    ? sql`cur.status in (${sql.join(
        allowedFrom.map((s) => sql`${s}`),
        sql`, `,
      )})`
    : sql`true`;
  // The customer must keep a company, a contact name or an email after the change.
  const after = (key: "company" | "contact_name" | "email") =>
    keys.includes(key) ? columnValue(key, fields[key]) : sql.raw(`cur.${key}`);
  const keepsIdentity = sql`coalesce(${after("company")}, ${after("contact_name")}, ${after("email")}) is not null`;
  const [row] = await queryRows<CustomerUpdate>(
    db,
    sql`with cur as (
          select ${customers.id}, ${customers.status}, ${customers.company},
            ${customers.contactName}, ${customers.email},
            ${writableBy(customers, params.userId)} as writable from ${customers}
          where ${customers.id} = ${params.id} and ${readableBy(customers, params.userId)}
          for update),
        upd as (
          update ${customers} c set ${sql.join(sets, sql`, `)}
          from cur where ${c.id} = cur.id and cur.writable and ${guard} and ${keepsIdentity}
          returning ${COLUMNS})
        select cur.writable, cur.status as previous, (upd.id is not null) as updated,
          (select ${keepsIdentity} from cur) as keeps_identity, upd.*
        from cur left join upd on true`,
  );
  return row;
}

/**
 * Deletes the customer when the caller may change it, in one statement: `not_found` when the
 * caller does not see it, `pool` when they see it but may not change it (a member and the pool).
 */
export async function deleteCustomer(
  db: Db,
  params: { userId: string; id: string },
): Promise<"deleted" | "not_found" | "pool"> {
  const [row] = await queryRows<{ writable: boolean }>(
    db,
    sql`with cur as (
          select ${customers.id}, ${writableBy(customers, params.userId)} as writable
          from ${customers}
          where ${customers.id} = ${params.id} and ${readableBy(customers, params.userId)}),
        del as (
          delete from ${customers} using cur
          where ${customers.id} = cur.id and cur.writable returning ${customers.id})
        select cur.writable from cur`,
  );
  if (!row) return "not_found";
  return row.writable ? "deleted" : "pool";
}

type CustomerSort =
  | "created_at"
  | "updated_at"
  | "last_contact_at"
  | "next_followup_at"
  | "estimated_value"
  | "company";

// The list is built on every request: its columns rendered once (src/db/sql.ts, rendered()).
const listed = renderedColumns(c);
const LIST_FROM = rendered(sql`${customers} ${c}`);

const SORT_SQL: Record<CustomerSort, { expr: SQL; nullable: boolean }> = {
  created_at: { expr: sql`${listed.createdAt}`, nullable: false },
  updated_at: { expr: sql`${listed.updatedAt}`, nullable: false },
  last_contact_at: { expr: sql`${listed.lastContactAt}`, nullable: true },
  next_followup_at: { expr: sql`${listed.nextFollowupAt}`, nullable: true },
  estimated_value: { expr: sql`${listed.estimatedValue}`, nullable: true },
  company: { expr: sql`lower(${listed.company})`, nullable: true },
};

function sortOf(sort: string) {
  const descending = sort.startsWith("-");
  const { expr, nullable } = SORT_SQL[(descending ? sort.slice(1) : sort) as CustomerSort];
  // Customers without the value come last either way.
  return { sortKey: expr, descending, nullsLast: nullable };
}

function orderBy(sort: string): SQL {
  const { sortKey, descending, nullsLast } = sortOf(sort);
  const dir = sql.raw(descending ? "desc" : "asc");
  return sql`${sortKey} ${dir}${sql.raw(nullsLast ? " nulls last" : "")}, ${listed.id} ${dir}`;
}

/**
 * search_text is company, contact and e-mail lower-cased. pg_trgm's index serves a LIKE whose
 * term holds a trigram; a shorter term (or one of CJK characters, which pg_trgm does not split
 * into trigrams under every locale) would make it read the whole index, so it is a strpos the
 * planner keeps on the btree indexes. Two texts, hence two cached plans of the named statement.
 */
type SearchKind = "like" | "strpos";

const searchKind = (term: string): SearchKind => (/[a-z0-9]{3}/.test(term) ? "like" : "strpos");

/** The search's condition on the `search` placeholder, and the value it takes for `term`. */
function searchFilter(kind: SearchKind): SQL {
  return kind === "like"
    ? sql`${listed.searchText} like ${P.search}`
    : sql`strpos(${listed.searchText}, ${P.search}) > 0`;
}

const searchValue = (kind: SearchKind, term: string) =>
  kind === "like" ? `%${escapeLike(term)}%` : term;

/**
 * How many customers the caller sees, unfiltered, without counting the organisation's rows: a
 * manager+ sees the organisation's, which the count every write keeps says (entitlements'
 * customersKeptSql, one row), so the first page costs the same at 100,000 customers as at 1,000;
 * a member's own and the pool's are counted on the (org_id, user_id, created_at) index, index
 * only, two ranges a member's share of the organisation long. The branch not taken is never run
 * (an initplan is evaluated when first read).
 */
function visibleTotalSql(userId: CallerId): SQL {
  return sql`(case when ${callerSeesAllSql(userId)}
      then ${customersKeptSql(callerOrgSql(userId))}
      else ${heldCountSql(sql`= ${userId}::uuid`, userId)} + ${heldCountSql(sql`is null`, userId)}
    end)`;
}

/** The customers of the caller's organisation whose holder matches `holder` (counted). */
function heldCountSql(holder: SQL, userId: CallerId): SQL {
  const p = alias(customers, "p");
  return sql`(select count(*) from ${customers} ${p}
    where ${p.orgId} = ${callerOrgSql(userId)} and ${p.userId} ${holder})`;
}

/**
 * `me`, `pool` or a member's user id: whose customers a list shows, within what the caller
 * sees (a member naming a colleague gets nothing here; the service answers 403).
 */
export type OwnerFilter = "me" | "pool" | (string & {});

/** The list's values, as the placeholders its statements are rendered with (ADR 0104). */
const P = {
  userId: sql.placeholder("userId"),
  owner: sql.placeholder("owner"),
  status: sql.placeholder("status"),
  country: sql.placeholder("country"),
  tag: sql.placeholder("tag"),
  now: sql.placeholder("now"),
  search: sql.placeholder("search"),
};

interface ListShape {
  owner: "me" | "pool" | "member" | undefined;
  status: boolean;
  country: boolean;
  tag: boolean;
  due: boolean | undefined;
  search: SearchKind | undefined;
  sort: string;
}

/**
 * The list's statement for one shape (which filters, which sort), its values placeholders:
 * the scope's subqueries and the filters are rendered once per shape, not on every request
 * (issue #22: rendering them was most of the list's own work, ADR 0104).
 */
function listStatement(shape: ListShape): PrebuiltPage {
  const filters: SQL[] = [readableBy(c, P.userId)];
  if (shape.owner === "me") filters.push(sql`${listed.userId} = ${P.userId}::uuid`);
  else if (shape.owner === "pool") filters.push(sql`${listed.userId} is null`);
  else if (shape.owner) filters.push(sql`${listed.userId} = ${P.owner}::uuid`);
  if (shape.status) filters.push(sql`${listed.status} = ${P.status}`);
  if (shape.country) filters.push(sql`lower(${listed.country}) = ${P.country}`);
  if (shape.tag) filters.push(sql`${listed.tags} @> ${P.tag}::jsonb`);
  if (shape.due === true) {
    filters.push(sql`${listed.nextFollowupAt} <= ${P.now}::timestamptz`);
  } else if (shape.due === false) {
    filters.push(
      sql`(${listed.nextFollowupAt} is null or ${listed.nextFollowupAt} > ${P.now}::timestamptz)`,
    );
  }
  const where = sql.join(filters, sql` and `);
  if (shape.search) {
    // A search reads all its matches whatever the shape: read them once (src/db/page.ts).
    return prebuiltMatchedPage({
      columns: COLUMNS,
      from: LIST_FROM,
      where: sql`${where} and ${searchFilter(shape.search)}`,
      key: listed.id,
      ...sortOf(shape.sort),
    });
  }
  return prebuiltPage({
    columns: COLUMNS,
    from: LIST_FROM,
    where,
    order: orderBy(shape.sort),
    // Unfiltered, the total is read from the kept count for a manager+, so the first page costs
    // the same at 100,000 customers as at 1,000 (counting grew with them).
    total: filters.length === 1 ? visibleTotalSql(P.userId) : undefined,
  });
}

/** One statement per shape; the shapes are finite (a few thousand at most, a handful in use). */
const listStatements = new Map<string, PrebuiltPage>();

/**
 * A page of the customers the caller sees (one named statement, rendered once per shape of
 * the list). `q` is lower-cased by the caller.
 */
export function listCustomers(
  db: Db,
  params: {
    userId: string;
    owner?: OwnerFilter;
    now: string;
    status?: CustomerStatus;
    country?: string;
    tag?: string;
    due?: boolean;
    q?: string;
    sort: string;
    page: number;
    size: number;
  },
) {
  const { owner, q } = params;
  const search = q ? searchKind(q) : undefined;
  const shape: ListShape = {
    owner:
      owner === "me" || owner === "pool" ? (owner as "me" | "pool") : owner ? "member" : undefined,
    status: Boolean(params.status),
    country: Boolean(params.country),
    tag: Boolean(params.tag),
    due: params.due,
    search,
    sort: params.sort,
  };
  const key = `${shape.owner}|${shape.status}|${shape.country}|${shape.tag}|${shape.due}|${search}|${shape.sort}`;
  let statement = listStatements.get(key);
  if (!statement) {
    statement = listStatement(shape);
    listStatements.set(key, statement);
  }
  return runPrebuiltPage<CustomerRow>(
    db,
    statement,
    {
      userId: params.userId,
      owner,
      status: params.status,
      country: params.country?.toLowerCase(),
      tag: params.tag === undefined ? undefined : JSON.stringify([params.tag]),
      now: params.now,
      search: search && q ? searchValue(search, q) : undefined,
    },
    params,
  );
}

/** Whether the caller is a manager, an admin or the owner of their organisation. */
export async function callerSeesAll(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ sees_all: boolean }>(
    db,
    sql`select ${callerSeesAllSql(userId)} as sees_all`,
  );
  return row?.sees_all === true;
}

type SilentRow = CustomerRow & { silent_since: string; silent_days: number; silence_days: number };

/** Silent: not won or lost, and the last contact (or creation) is older than silence_days. */
export function listSilentCustomers(
  db: Db,
  params: { userId: string; now: string; page: number; size: number },
) {
  const now = sql`${params.now}::timestamptz`;
  const since = sql`coalesce(${c.lastContactAt}, ${c.createdAt})`;
  const where = sql`${readableBy(c, params.userId)} and ${c.status} not in ('won', 'lost')
    and ${since} < ${now} - make_interval(days => cfg.days)`;
  const cfg = sql`(select ${SILENCE_DAYS_SQL} as days) cfg`;
  return selectPage<SilentRow>(db, {
    columns: sql`${COLUMNS}, ${since} as silent_since,
      floor(extract(epoch from (${now} - ${since})) / 86400)::int
        as silent_days,
      cfg.days as silence_days`,
    from: sql`${customers} ${c}, ${cfg}`,
    where,
    order: sql`${since}, ${c.id}`,
    page: params.page,
    size: params.size,
  });
}

/** The configured customers.silence_days. */
export async function silenceDays(db: Db): Promise<number> {
  const [row] = await queryRows<{ days: number }>(db, sql`select ${SILENCE_DAYS_SQL} as days`);
  return row!.days;
}

export type FollowupRow = Pick<
  DbRow<typeof followupLogs>,
  | "id"
  | "user_id"
  | "customer_id"
  | "channel"
  | "note"
  | "contacted_at"
  | "next_followup_at"
  | "created_at"
>;

/**
 * Logs a contact in one statement: the log row, and the customer's last_contact_at (the later
 * of the two), next_followup_at and status (new becomes contacted). The next follow-up is the
 * one given (`given`), else contacted_at + `cadence` (days, by the status the customer had: a
 * `case` over `cur.status`); a contact logged before the latest one on file leaves
 * next_followup_at alone unless given. No row: the caller does not see the customer; `writable`
 * false (and no log): they see it but may not change it (a member and a pool customer). The log
 * names who logged it; it belongs to the customer's organisation (the creator's, the trigger's).
 */
export async function insertFollowup(
  db: Db,
  params: {
    id: string;
    userId: string;
    customerId: string;
    channel: FollowupRow["channel"];
    note: string | null;
    contactedAt: string;
    /** undefined: not given; null: given as none. */
    nextFollowupAt: string | null | undefined;
    cadence: (statusColumn: SQL) => SQL;
    now: string;
  },
): Promise<
  | { writable: boolean; log: FollowupRow | string | null; customer: CustomerRow | string | null }
  | undefined
> {
  const { userId, now } = params;
  const contacted = sql`${params.contactedAt}::timestamptz`;
  const given = params.nextFollowupAt !== undefined;
  const givenValue =
    params.nextFollowupAt === undefined || params.nextFollowupAt === null
      ? sql`null::timestamptz`
      : sql`${params.nextFollowupAt}::timestamptz`;
  const [row] = await queryRows<{
    writable: boolean;
    log: FollowupRow | string | null;
    customer: CustomerRow | string | null;
  }>(
    db,
    sql`with cur as (
          select ${customers.id}, ${customers.status}, ${customers.lastContactAt},
            ${customers.nextFollowupAt}, ${writableBy(customers, userId)} as writable
          from ${customers}
          where ${customers.id} = ${params.customerId} and ${readableBy(customers, userId)}
          for update),
        plan as (
          select cur.id,
            (cur.last_contact_at is null or ${contacted} >= cur.last_contact_at) as latest,
            case when ${sql.raw(String(given))} then ${givenValue}
                 else ${contacted} + make_interval(days => ${params.cadence(sql`cur.status`)}) end
              as scheduled
          from cur where cur.writable),
        log as (
          insert into ${followupLogs}
            (${col(followupLogs.id)}, ${col(followupLogs.userId)}, ${col(followupLogs.customerId)},
             ${col(followupLogs.channel)}, ${col(followupLogs.note)}, ${col(followupLogs.contactedAt)},
             ${col(followupLogs.nextFollowupAt)}, ${col(followupLogs.createdAt)})
          select ${params.id}, ${userId}, plan.id, ${params.channel}, ${params.note},
                 ${contacted}, plan.scheduled, ${now}::timestamptz
          from plan
          returning *),
        upd as (
          update ${customers} c set
            ${col(customers.lastContactAt)} = greatest(${c.lastContactAt}, ${contacted}),
            ${col(customers.nextFollowupAt)} = case when ${sql.raw(String(given))} or plan.latest
                                    then plan.scheduled
                                    else ${c.nextFollowupAt} end,
            ${col(customers.status)} = case when ${c.status} = 'new' then 'contacted' else ${c.status} end,
            ${col(customers.updatedAt)} = ${now}::timestamptz
          from plan where ${c.id} = plan.id
          returning ${COLUMNS})
        select cur.writable, row_to_json(log.*) as log, row_to_json(upd.*) as customer
        from cur left join log on true left join upd on true`,
  );
  return row;
}

/**
 * A page of a customer's follow-up logs, newest contact first, in one statement; `found` tells
 * whether the caller sees the customer. The log is the company's: whoever logged a contact,
 * everybody who sees the customer sees it. Past the last page a second statement counts.
 */
export async function listFollowups(
  db: Db,
  params: { userId: string; customerId: string; page: number; size: number },
) {
  const { userId, customerId } = params;
  const f = alias(followupLogs, "f");
  const rows = await queryRows<FollowupRow & { found: boolean; total_count: number | null }>(
    db,
    sql`with cust as (select ${customers.id} from ${customers}
          where ${customers.id} = ${customerId} and ${readableBy(customers, userId)}),
        page as (
          select ${columnList([f.id, f.userId, f.customerId, f.channel, f.note, f.contactedAt, f.nextFollowupAt, f.createdAt])},
            count(*) over () as total_count
          from ${followupLogs} ${f} join cust on ${f.customerId} = cust.id
          order by ${f.contactedAt} desc, ${f.id} desc
          limit ${params.size} offset ${offsetOf(params.page, params.size)})
        select exists (select 1 from cust) as found, page.*
        from (select 1) one left join page on true`,
  );
  const found = rows[0]?.found === true;
  const items = rows.filter((r) => r.id !== null);
  let total = items.length > 0 ? Number(items[0]!.total_count) : 0;
  if (found && items.length === 0 && params.page > 1) {
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${followupLogs}
          where ${followupLogs.customerId} = ${customerId}`,
    );
    total = count?.n ?? 0;
  }
  return { found, items: items as FollowupRow[], total };
}

export type CustomerFacts = Pick<
  DbRow<typeof customers>,
  | "id"
  | "company"
  | "contact_name"
  | "country"
  | "status"
  | "notes"
  | "tags"
  | "estimated_value"
  | "estimated_currency"
  | "last_contact_at"
  | "next_followup_at"
> & {
  logs: Pick<DbRow<typeof followupLogs>, "channel" | "note" | "contacted_at">[] | string | null;
};

/**
 * A customer the user sees with its last `logs` follow-up logs (newest first, whoever logged
 * them), in one statement.
 */
export async function getCustomerFacts(
  db: Db,
  params: { userId: string; id: string; logs: number },
): Promise<CustomerFacts | undefined> {
  const f = alias(followupLogs, "f");
  const [row] = await queryRows<CustomerFacts>(
    db,
    sql`select ${columnList([c.id, c.company, c.contactName, c.country, c.status, c.notes, c.tags, c.estimatedValue, c.estimatedCurrency, c.lastContactAt, c.nextFollowupAt])},
          (select coalesce(json_agg(l order by l.contacted_at desc), '[]'::json)
             from (select ${f.channel}, ${f.note}, ${f.contactedAt} from ${followupLogs} ${f}
                   where ${f.customerId} = ${c.id}
                   order by ${f.contactedAt} desc limit ${sql.raw(String(params.logs))}) l) as logs
        from ${customers} ${c} where ${c.id} = ${params.id} and ${readableBy(c, params.userId)}`,
  );
  return row;
}
