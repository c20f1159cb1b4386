import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { CustomerStatus } from "../../db/schema";
import type { Deps } from "../../deps";
import { ApiError, notFound, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { escapeLike } from "../../lib/sql-text";
import type {
  CustomerInput,
  CustomerListQueryInput,
  CustomerPatchInput,
  CustomerSortKey,
  FollowupInput,
} from "./schemas";

/**
 * Allowed status changes (docs/customers.md). Setting the status a customer already has is a
 * no-op and always allowed; anything else not listed is a 409.
 */
const STATUS_TRANSITIONS: Record<CustomerStatus, readonly CustomerStatus[]> = {
  new: ["contacted", "negotiating", "quoted", "lost", "dormant"],
  contacted: ["negotiating", "quoted", "won", "lost", "dormant"],
  negotiating: ["quoted", "won", "lost", "dormant"],
  quoted: ["negotiating", "won", "lost", "dormant"],
  won: ["negotiating", "dormant"],
  lost: ["contacted", "dormant"],
  dormant: ["contacted", "negotiating"],
};

/** Days from a contact to the next follow-up, by the status the customer had at the contact. */
const FOLLOWUP_CADENCE_DAYS: Record<CustomerStatus, number | null> = {
  new: 2,
  contacted: 3,
  negotiating: 2,
  quoted: 3,
  won: 30,
  lost: null,
  dormant: null,
};

/** How far in the future a contacted_at may be (client clocks drift). */
const CLOCK_SKEW_MS = 60_000;

export const SILENCE_DAYS_SQL = sql`coalesce((select (value #>> '{}')::int from system_config
  where key = 'customers.silence_days'), 14)`;

const COLUMNS = sql.raw(
  `c.id, c.user_id, c.company, c.contact_name, c.email, c.phone, c.whatsapp, c.country, c.source,
   c.tags, c.status, c.notes, c.estimated_value, c.estimated_currency, c.last_contact_at,
   c.next_followup_at, c.created_at, c.updated_at`,
);

export interface CustomerRow {
  id: string;
  user_id: string;
  company: string | null;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  whatsapp: string | null;
  country: string | null;
  source: string | null;
  tags: string[] | string;
  status: CustomerStatus;
  notes: string | null;
  estimated_value: number | null;
  estimated_currency: string;
  last_contact_at: Date | string | null;
  next_followup_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

function customerOut(r: CustomerRow) {
  return {
    id: r.id,
    user_id: r.user_id,
    company: r.company,
    contact_name: r.contact_name,
    email: r.email,
    phone: r.phone,
    whatsapp: r.whatsapp,
    country: r.country,
    source: r.source,
    tags: typeof r.tags === "string" ? (JSON.parse(r.tags) as string[]) : (r.tags ?? []),
    status: r.status,
    notes: r.notes,
    estimated_value: r.estimated_value === null ? null : Number(r.estimated_value),
    estimated_currency: r.estimated_currency,
    last_contact_at: iso(r.last_contact_at),
    next_followup_at: iso(r.next_followup_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** Blank strings are stored as null; emails lower-cased; tags trimmed and de-duplicated. */
function normalise(input: Partial<CustomerInput>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (typeof value === "string") {
      const trimmed = value.trim();
      out[key] = trimmed === "" ? null : key === "email" ? trimmed.toLowerCase() : trimmed;
    } else if (key === "tags" && Array.isArray(value)) {
      out[key] = [...new Set(value.map((t: string) => t.trim()))];
    } else {
      out[key] = value;
    }
  }
  return out;
}

const WRITABLE = [
  "company",
  "contact_name",
  "email",
  "phone",
  "whatsapp",
  "country",
  "source",
  "tags",
  "status",
  "notes",
  "estimated_value",
  "estimated_currency",
  "next_followup_at",
] as const;

function columnValue(key: (typeof WRITABLE)[number], value: unknown): SQL {
  if (value === null) return sql`null`;
  if (key === "tags") return sql`${JSON.stringify(value)}::jsonb`;
  if (key === "next_followup_at") return sql`${value as string}::timestamptz`;
  return sql`${value}`;
}

export async function createCustomer(deps: Deps, userId: string, input: CustomerInput) {
  const values = normalise(input);
  if (!values.company && !values.contact_name && !values.email) {
    throw validationError([
      {
        loc: ["body", "company"],
        msg: "Give at least a company, a contact name or an email",
        type: "custom",
      },
    ]);
  }
  const now = nowIso(deps);
  const keys = WRITABLE.filter((k) => values[k] !== undefined);
  const columns = sql.join(
    [sql.raw("id, user_id, created_at, updated_at"), ...keys.map((k) => sql.identifier(k))],
    sql`, `,
  );
  const params = sql.join(
    [
      sql`${deps.ids.uuid()}`,
      sql`${userId}`,
      sql`${now}::timestamptz`,
      sql`${now}::timestamptz`,
      ...keys.map((k) => columnValue(k, values[k])),
    ],
    sql`, `,
  );
  const [row] = await queryRows<CustomerRow>(
    deps.db,
    sql`insert into customers as c (${columns}) values (${params}) returning ${COLUMNS}`,
  );
  return customerOut(row!);
}

export async function getCustomer(deps: Deps, userId: string, id: string) {
  const [row] = await queryRows<CustomerRow>(
    deps.db,
    sql`select ${COLUMNS} from customers c where c.id = ${id} and c.user_id = ${userId}`,
  );
  if (!row) throw notFound("Customer not found");
  return customerOut(row);
}

/**
 * One statement: locks the caller's row, applies the patch only when the status change is
 * allowed from the status it has, and reports which case happened (404, 409 or the new row).
 */
export async function updateCustomer(
  deps: Deps,
  userId: string,
  id: string,
  patch: CustomerPatchInput,
) {
  const values = normalise(patch);
  const keys = WRITABLE.filter((k) => values[k] !== undefined);
  const sets = keys.map((k) => sql`${sql.identifier(k)} = ${columnValue(k, values[k])}`);
  sets.push(sql`updated_at = ${nowIso(deps)}::timestamptz`);
  const target = values.status as CustomerStatus | undefined;
  const allowedFrom = target
    ? (Object.keys(STATUS_TRANSITIONS) as CustomerStatus[]).filter(
        (from) => from === target || STATUS_TRANSITIONS[from].includes(target),
      )
    : [];
  const guard = target
    ? sql`cur.status in (${sql.join(
        allowedFrom.map((s) => sql`${s}`),
        sql`, `,
      )})`
    : sql`true`;
  // The customer must keep a company, a contact name or an email after the change.
  const after = (key: "company" | "contact_name" | "email") =>
    keys.includes(key) ? columnValue(key, values[key]) : sql.raw(`cur.${key}`);
  const keepsIdentity = sql`coalesce(${after("company")}, ${after("contact_name")}, ${after("email")}) is not null`;
  const [row] = await queryRows<
    CustomerRow & { previous: CustomerStatus; updated: boolean; keeps_identity: boolean }
  >(
    deps.db,
    sql`with cur as (
          select id, status, company, contact_name, email from customers
          where id = ${id} and user_id = ${userId} for update),
        upd as (
          update customers c set ${sql.join(sets, sql`, `)}
          from cur where c.id = cur.id and ${guard} and ${keepsIdentity}
          returning ${COLUMNS})
        select cur.status as previous, (upd.id is not null) as updated,
          (select ${keepsIdentity} from cur) as keeps_identity, upd.*
        from cur left join upd on true`,
  );
  if (!row) throw notFound("Customer not found");
  if (!row.updated && !row.keeps_identity) {
    throw validationError([
      {
        loc: ["body"],
        msg: "A customer needs a company, a contact name or an email",
        type: "value_error",
      },
    ]);
  }
  if (!row.updated) {
    const allowed = STATUS_TRANSITIONS[row.previous];
    throw new ApiError(409, `A ${row.previous} customer cannot become ${target}`, {
      extra: { status: row.previous, allowed_statuses: allowed },
    });
  }
  return customerOut(row);
}

export async function deleteCustomer(deps: Deps, userId: string, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`delete from customers where id = ${id} and user_id = ${userId} returning id`,
  );
  if (rows.length === 0) throw notFound("Customer not found");
}

const SORT_SQL: Record<CustomerSortKey, { expr: string; nullable: boolean }> = {
  created_at: { expr: "c.created_at", nullable: false },
  updated_at: { expr: "c.updated_at", nullable: false },
  last_contact_at: { expr: "c.last_contact_at", nullable: true },
  next_followup_at: { expr: "c.next_followup_at", nullable: true },
  estimated_value: { expr: "c.estimated_value", nullable: true },
  company: { expr: "lower(c.company)", nullable: true },
};

function orderBy(sort: string): SQL {
  const desc = sort.startsWith("-");
  const key = (desc ? sort.slice(1) : sort) as CustomerSortKey;
  const { expr, nullable } = SORT_SQL[key];
  const dir = desc ? "desc" : "asc";
  // Customers without the value come last either way.
  return sql.raw(`${expr} ${dir}${nullable ? " nulls last" : ""}, c.id ${dir}`);
}

/**
 * search_text is company, contact and e-mail lower-cased. pg_trgm's index serves a LIKE whose
 * term holds a trigram; a shorter term (or one of CJK characters, which pg_trgm does not split
 * into trigrams under every locale) would make it read the whole index, so it is a strpos the
 * planner keeps on the btree indexes. Two texts, hence two cached plans of the named statement.
 */
function searchFilter(term: string): SQL {
  return /[a-z0-9]{3}/.test(term)
    ? sql`c.search_text like ${`%${escapeLike(term)}%`}`
    : sql`strpos(c.search_text, ${term}) > 0`;
}

export async function listCustomers(deps: Deps, userId: string, query: CustomerListQueryInput) {
  const filters: SQL[] = [sql`c.user_id = ${userId}`];
  if (query.status) filters.push(sql`c.status = ${query.status}`);
  if (query.country) filters.push(sql`lower(c.country) = ${query.country.toLowerCase()}`);
  if (query.tag) filters.push(sql`c.tags @> ${JSON.stringify([query.tag])}::jsonb`);
  if (query.due === true) {
    filters.push(sql`c.next_followup_at <= ${nowIso(deps)}::timestamptz`);
  } else if (query.due === false) {
    filters.push(
      sql`(c.next_followup_at is null or c.next_followup_at > ${nowIso(deps)}::timestamptz)`,
    );
  }
  if (query.q) {
    filters.push(searchFilter(query.q.toLowerCase()));
  }
  const where = sql.join(filters, sql` and `);
  const { rows, total } = await selectPage<CustomerRow>(deps.db, {
    columns: COLUMNS,
    from: sql`customers c`,
    where,
    order: orderBy(query.sort),
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(customerOut), total, page: query.page, size: query.size };
}

/** Silent: not won or lost, and the last contact (or creation) is older than silence_days. */
export async function listSilentCustomers(
  deps: Deps,
  userId: string,
  query: { page: number; size: number },
) {
  const now = sql`${nowIso(deps)}::timestamptz`;
  const where = sql`c.user_id = ${userId} and c.status not in ('won', 'lost')
    and coalesce(c.last_contact_at, c.created_at) < ${now} - make_interval(days => cfg.days)`;
  const cfg = sql`(select ${SILENCE_DAYS_SQL} as days) cfg`;
  const { rows, total } = await selectPage<
    CustomerRow & { silent_since: Date | string; silent_days: number; silence_days: number }
  >(deps.db, {
    columns: sql`${COLUMNS}, coalesce(c.last_contact_at, c.created_at) as silent_since,
      floor(extract(epoch from (${now} - coalesce(c.last_contact_at, c.created_at))) / 86400)::int
        as silent_days,
      cfg.days as silence_days`,
    from: sql`customers c, ${cfg}`,
    where,
    order: sql`coalesce(c.last_contact_at, c.created_at), c.id`,
    page: query.page,
    size: query.size,
  });
  let silenceDays = rows[0]?.silence_days;
  if (silenceDays === undefined) {
    const [row] = await queryRows<{ days: number }>(
      deps.db,
      sql`select ${SILENCE_DAYS_SQL} as days`,
    );
    silenceDays = row!.days;
  }
  return {
    items: rows.map(({ silent_since, silent_days, silence_days: _, ...r }) => ({
      ...customerOut(r),
      silent_since: iso(silent_since)!,
      silent_days: Number(silent_days),
    })),
    total,
    page: query.page,
    size: query.size,
    silence_days: Number(silenceDays),
  };
}

interface FollowupRow {
  id: string;
  user_id: string;
  customer_id: string;
  channel: FollowupInput["channel"];
  note: string | null;
  contacted_at: Date | string;
  next_followup_at: Date | string | null;
  created_at: Date | string;
}

const followupOut = (r: FollowupRow) => ({
  id: r.id,
  user_id: r.user_id,
  customer_id: r.customer_id,
  channel: r.channel,
  note: r.note,
  contacted_at: iso(r.contacted_at)!,
  next_followup_at: iso(r.next_followup_at),
  created_at: iso(r.created_at)!,
});

const cadenceSql = (statusColumn: SQL) =>
  sql`case ${statusColumn} ${sql.join(
    Object.entries(FOLLOWUP_CADENCE_DAYS).map(
      ([status, days]) => sql`when ${status} then ${days === null ? null : String(days)}::int`,
    ),
    sql` `,
  )} end`;

/**
 * Logs a contact in one statement: the log row, and the customer's last_contact_at (the later
 * of the two), next_followup_at and status (new becomes contacted). The next follow-up is the
 * one given, else contacted_at + the cadence of the status the customer had; a contact logged
 * with a date before the latest one on file leaves next_followup_at alone unless given.
 */
export async function logFollowup(
  deps: Deps,
  userId: string,
  customerId: string,
  input: FollowupInput,
) {
  const nowDate = deps.clock.now();
  const now = nowDate.toISOString();
  const contactedAt = input.contacted_at ? new Date(input.contacted_at) : nowDate;
  if (contactedAt.getTime() > nowDate.getTime() + CLOCK_SKEW_MS) {
    throw validationError([
      { loc: ["body", "contacted_at"], msg: "contacted_at is in the future", type: "custom" },
    ]);
  }
  const contacted = sql`${contactedAt.toISOString()}::timestamptz`;
  const given = input.next_followup_at !== undefined;
  const givenValue =
    input.next_followup_at === undefined || input.next_followup_at === null
      ? sql`null::timestamptz`
      : sql`${new Date(input.next_followup_at).toISOString()}::timestamptz`;
  const [row] = await queryRows<{ log: FollowupRow; customer: CustomerRow }>(
    deps.db,
    sql`with cur as (
          select id, status, last_contact_at, next_followup_at from customers
          where id = ${customerId} and user_id = ${userId} for update),
        plan as (
          select cur.id,
            (cur.last_contact_at is null or ${contacted} >= cur.last_contact_at) as latest,
            case when ${sql.raw(String(given))} then ${givenValue}
                 else ${contacted} + make_interval(days => ${cadenceSql(sql`cur.status`)}) end
              as scheduled
          from cur),
        log as (
          insert into followup_logs
            (id, user_id, customer_id, channel, note, contacted_at, next_followup_at, created_at)
          select ${deps.ids.uuid()}, ${userId}, plan.id, ${input.channel}, ${input.note ?? null},
                 ${contacted}, plan.scheduled, ${now}::timestamptz
          from plan
          returning *),
        upd as (
          update customers c set
            last_contact_at = greatest(c.last_contact_at, ${contacted}),
            next_followup_at = case when ${sql.raw(String(given))} or plan.latest then plan.scheduled
                                    else c.next_followup_at end,
            status = case when c.status = 'new' then 'contacted' else c.status end,
            updated_at = ${now}::timestamptz
          from plan where c.id = plan.id
          returning ${COLUMNS})
        select row_to_json(log.*) as log, row_to_json(upd.*) as customer from log, upd`,
  );
  if (!row) throw notFound("Customer not found");
  const log = typeof row.log === "string" ? (JSON.parse(row.log) as FollowupRow) : row.log;
  const customer =
    typeof row.customer === "string" ? (JSON.parse(row.customer) as CustomerRow) : row.customer;
  return { followup: followupOut(log), customer: customerOut(customer) };
}

export async function listFollowups(
  deps: Deps,
  userId: string,
  customerId: string,
  query: { page: number; size: number },
) {
  const rows = await queryRows<FollowupRow & { found: boolean; total_count: number | null }>(
    deps.db,
    sql`with cust as (select id from customers where id = ${customerId} and user_id = ${userId}),
        page as (
          select f.id, f.user_id, f.customer_id, f.channel, f.note, f.contacted_at,
                 f.next_followup_at, f.created_at, count(*) over () as total_count
          from followup_logs f join cust on f.customer_id = cust.id
          where f.user_id = ${userId}
          order by f.contacted_at desc, f.id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)})
        select exists (select 1 from cust) as found, page.*
        from (select 1) one left join page on true`,
  );
  if (!rows[0]?.found) throw notFound("Customer not found");
  const items = rows.filter((r) => r.id !== null);
  let total = items.length > 0 ? Number(items[0]!.total_count) : 0;
  if (items.length === 0 && query.page > 1) {
    const [count] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from followup_logs
          where user_id = ${userId} and customer_id = ${customerId}`,
    );
    total = count?.n ?? 0;
  }
  return { items: items.map(followupOut), total, page: query.page, size: query.size };
}
