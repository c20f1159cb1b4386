import { type SQL, sql } from "drizzle-orm";
import type { CustomerStatus } from "../../db/schema";
import { fromJsonb } from "../../db/sql";
import { ApiError, conflict, forbidden, notFound, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import type { CustomerRow, FollowupRow } from "./queries";
import * as queries from "./queries";
import type {
  CustomerInput,
  CustomerListQueryInput,
  CustomerPatchInput,
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

/** The statuses a customer may be moved from to `target` (itself included): PATCH and bulk. */
export function statusesLeadingTo(target: CustomerStatus): CustomerStatus[] {
  return (Object.keys(STATUS_TRANSITIONS) as CustomerStatus[]).filter(
    (from) => from === target || STATUS_TRANSITIONS[from].includes(target),
  );
}

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

function customerOut(r: CustomerRow) {
  return {
    id: r.id,
    org_id: r.org_id,
    user_id: r.user_id,
    owner_name: r.owner_name,
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

/**
 * A member sees the pool but works only on what they hold: changing a pool customer is refused
 * (409, not 404: it is visible) until they claim it.
 */
const poolCustomer = () =>
  conflict("pool: claim this customer (POST /api/v1/customers/{id}/claim) before changing it");

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
  const row = await queries.insertCustomer(deps.db, {
    id: deps.ids.uuid(),
    userId,
    now: nowIso(deps),
    fields: values,
  });
  return customerOut(row);
}

export async function getCustomer(deps: Deps, userId: string, id: string) {
  const row = await queries.getCustomer(deps.db, { userId, id });
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
  const target = values.status as CustomerStatus | undefined;
  const allowedFrom = target ? statusesLeadingTo(target) : null;
  const row = await queries.updateCustomer(deps.db, {
    userId,
    id,
    now: nowIso(deps),
    fields: values,
    allowedFrom,
  });
  if (!row) throw notFound("Customer not found");
  if (!row.writable) throw poolCustomer();
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
  const outcome = await queries.deleteCustomer(deps.db, { userId, id });
  if (outcome === "not_found") throw notFound("Customer not found");
  if (outcome === "pool") throw poolCustomer();
}

export async function listCustomers(deps: Deps, userId: string, query: CustomerListQueryInput) {
  const owner = query.owner === userId ? "me" : query.owner;
  const { rows, total } = await queries.listCustomers(deps.db, {
    userId,
    owner,
    now: nowIso(deps),
    status: query.status,
    country: query.country,
    tag: query.tag,
    due: query.due,
    q: query.q?.toLowerCase(),
    sort: query.sort,
    page: query.page,
    size: query.size,
  });
  // A member's list holds no colleague's customer; only when it comes back empty is it worth
  // asking whether the filter itself was refused (no second round trip otherwise).
  if (rows.length === 0 && owner && owner !== "me" && owner !== "pool") {
    if (!(await queries.callerSeesAll(deps.db, userId))) {
      throw forbidden("Listing another member's customers needs the manager role");
    }
  }
  return { items: rows.map(customerOut), total, page: query.page, size: query.size };
}

/** Silent: not won or lost, and the last contact (or creation) is older than silence_days. */
export async function listSilentCustomers(
  deps: Deps,
  userId: string,
  query: { page: number; size: number },
) {
  const { rows, total } = await queries.listSilentCustomers(deps.db, {
    userId,
    now: nowIso(deps),
    page: query.page,
    size: query.size,
  });
  const silenceDays = rows[0]?.silence_days ?? (await queries.silenceDays(deps.db));
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
  const contactedAt = input.contacted_at ? new Date(input.contacted_at) : nowDate;
  if (contactedAt.getTime() > nowDate.getTime() + CLOCK_SKEW_MS) {
    throw validationError([
      { loc: ["body", "contacted_at"], msg: "contacted_at is in the future", type: "custom" },
    ]);
  }
  const row = await queries.insertFollowup(deps.db, {
    id: deps.ids.uuid(),
    userId,
    customerId,
    channel: input.channel,
    note: input.note ?? null,
    contactedAt: contactedAt.toISOString(),
    nextFollowupAt:
      input.next_followup_at === undefined || input.next_followup_at === null
        ? input.next_followup_at
        : new Date(input.next_followup_at).toISOString(),
    cadence: cadenceSql,
    now: nowDate.toISOString(),
  });
  if (!row) throw notFound("Customer not found");
  if (!row.writable || row.log === null || row.customer === null) throw poolCustomer();
  return {
    followup: followupOut(fromJsonb(row.log)),
    customer: customerOut(fromJsonb(row.customer)),
  };
}

export async function listFollowups(
  deps: Deps,
  userId: string,
  customerId: string,
  query: { page: number; size: number },
) {
  const { found, items, total } = await queries.listFollowups(deps.db, {
    userId,
    customerId,
    page: query.page,
    size: query.size,
  });
  if (!found) throw notFound("Customer not found");
  return { items: items.map(followupOut), total, page: query.page, size: query.size };
}
