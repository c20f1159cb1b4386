import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ASYNC_COMMIT } from "../../../db/batches";
import { type Db, queryRows, queryRowsPrepared } from "../../../db/client";
import {
  type CustomerStatus,
  customerOwnershipEvents,
  customers,
  notifications,
  type OwnershipAction,
  orgMembers,
  orgs,
  users,
} from "../../../db/schema";
import { callerOrgSql, callerSeesAllSql, visibleTo } from "../../../db/scope";
import { offsetOf } from "../../../lib/pagination";
import { notificationInsert } from "../../notifications/queries/insert";

/** The customers table as `c`, as the rest of the customers module reads it. */
const c = alias(customers, "c");
const e = alias(customerOwnershipEvents, "e");

/** One row of a customer's ownership history, as the statements return it. */
export interface OwnershipEventRow {
  from_user_id: string | null;
  to_user_id: string | null;
  action: OwnershipAction;
  reason: string | null;
  actor_id: string | null;
  at: Date | string;
}

const EVENT_COLUMNS = sql.raw(
  "org_id, customer_id, from_user_id, to_user_id, action, reason, actor_id, at",
);
const EVENT_OUT = sql.raw("from_user_id, to_user_id, action, reason, actor_id, at");

/**
 * held_since as a holder change sets it: the new holder's recycle clock starts now (null for
 * the pool, where no clock runs).
 */
export const heldSince = (to: SQL, at: SQL) =>
  sql`held_since = case when ${to} is null then null else ${at} end`;

/** An ownership event per row of `source` (columns org_id, customer_id, from_user_id, to_user_id). */
const insertEvents = (
  source: string,
  action: OwnershipAction,
  reason: string | null,
  actor: string | null,
  now: string,
) =>
  sql`insert into ${customerOwnershipEvents} (${EVENT_COLUMNS})
    select s.org_id, s.customer_id, s.from_user_id, s.to_user_id, ${action}, ${reason}::text,
      ${actor}::uuid, ${now}::timestamptz
    from ${sql.raw(source)} s
    returning ${EVENT_OUT}`;

/**
 * Locks the caller's membership row for the rest of the transaction and reads the organisation's
 * settings: two claims by one member queue here, so the second counts the first one's claim.
 */
export async function lockMember(
  db: Db,
  userId: string,
): Promise<{ org_id: string; settings: unknown } | undefined> {
  const [row] = await queryRows<{ org_id: string; settings: unknown }>(
    db,
    sql`select ${orgMembers.orgId} as org_id, ${orgs.settings} as settings
        from ${orgMembers} join ${orgs} on ${orgs.id} = ${orgMembers.orgId}
        where ${orgMembers.userId} = ${userId}::uuid
        for update of ${orgMembers}`,
  );
  return row;
}

type ClaimVerdict =
  | "ok"
  | "not_found"
  | "yours"
  | "held"
  | "max_claims_per_day"
  | "max_customers_per_member"
  | "reclaim_cooldown_days";

export interface ClaimOutcome {
  verdict: ClaimVerdict;
  claims_today: number;
  held: number;
  /** When the caller last released (or lost by recycle) this customer, for the cooldown. */
  left_at: Date | string | null;
  event: OwnershipEventRow | null;
}

/**
 * A pool customer to the caller in one statement: judges the rules on what the statement sees
 * (run it after lockMember, in the same transaction, so the counts include the caller's claims
 * committed just before) and writes the claim with its event. The update's `user_id is null`
 * makes concurrent claims of one customer end with exactly one holder; a loser's verdict is `ok`
 * with no event.
 */
export async function claimCustomer(
  db: Db,
  p: {
    userId: string;
    id: string;
    now: string;
    dayStart: string;
    maxClaimsPerDay: number | null;
    maxCustomersPerMember: number | null;
    reclaimCooldownDays: number | null;
  },
): Promise<ClaimOutcome> {
  const me = sql`${p.userId}::uuid`;
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<ClaimOutcome>(
    db,
    sql`with target as (
          select ${c.id} as id, ${c.userId} as user_id, ${c.orgId} as org_id
          from ${customers} ${c}
          where ${c.id} = ${p.id}::uuid and ${visibleTo(c, p.userId, { pool: true })}),
        counts as (
          select
            (select count(*)::int from ${customerOwnershipEvents} ${e}
              where ${e.orgId} = (select org_id from target) and ${e.actorId} = ${me}
                and ${e.action} = 'claim' and ${e.at} >= ${p.dayStart}::timestamptz) as claims_today,
            (select count(*)::int from ${customers} ${c}
              where ${c.orgId} = (select org_id from target) and ${c.userId} = ${me}) as held,
            (select max(${e.at}) from ${customerOwnershipEvents} ${e}
              where ${e.customerId} = ${p.id}::uuid and ${e.fromUserId} = ${me}
                and ${e.action} in ('release', 'recycle')) as left_at),
        verdict as (
          select case
            when not exists (select 1 from target) then 'not_found'
            when (select user_id from target) = ${me} then 'yours'
            when (select user_id from target) is not null then 'held'
            when ${p.maxClaimsPerDay}::int is not null
              and counts.claims_today >= ${p.maxClaimsPerDay}::int then 'max_claims_per_day'
            when ${p.maxCustomersPerMember}::int is not null
              and counts.held >= ${p.maxCustomersPerMember}::int then 'max_customers_per_member'
            when ${p.reclaimCooldownDays}::int is not null and counts.left_at is not null
              and counts.left_at > ${at} - make_interval(days => ${p.reclaimCooldownDays}::int)
              then 'reclaim_cooldown_days'
            else 'ok' end as verdict, counts.*
          from counts),
        claimed as (
          update ${customers} set user_id = ${me}, held_since = ${at}, updated_at = ${at}
          from verdict
          where ${customers.id} = ${p.id}::uuid and ${customers.userId} is null
            and ${customers.orgId} = (select org_id from target) and verdict.verdict = 'ok'
          returning ${customers.orgId} as org_id, ${customers.id} as customer_id,
            null::uuid as from_user_id, ${customers.userId} as to_user_id),
        event as (${insertEvents("claimed", "claim", null, p.userId, p.now)})
        select verdict.verdict, verdict.claims_today, verdict.held, verdict.left_at,
          (select to_jsonb(event) from event) as event
        from verdict`,
  );
  return row!;
}

export interface ChangeOutcome {
  /** The customer is visible to the caller. */
  found: boolean;
  /** transfer: the caller is a manager, admin or owner. */
  allowed: boolean;
  /** transfer: the new holder is a member of the caller's organisation. */
  target_ok: boolean;
  holder: string | null;
  event: OwnershipEventRow | null;
}

/**
 * Release (to the pool) or transfer (to `to`) of one customer in one statement: locks the row,
 * changes the holder when the caller may, writes the event, and says which case happened.
 * Release: the holder, or anyone who sees the whole organisation. Transfer: managers and up.
 */
export async function changeHolder(
  db: Db,
  p: {
    userId: string;
    id: string;
    now: string;
    action: "release" | "transfer";
    to: string | null;
    reason: string | null;
  },
): Promise<ChangeOutcome> {
  const me = sql`${p.userId}::uuid`;
  const to = sql`${p.to}::uuid`;
  const seesAll = callerSeesAllSql(p.userId);
  const allowed =
    p.action === "transfer"
      ? seesAll
      : sql`(cur.user_id is not null and (cur.user_id = ${me} or ${seesAll}))`;
  const targetOk =
    p.action === "transfer"
      ? sql`exists (select 1 from ${orgMembers} where ${orgMembers.userId} = ${to}
          and ${orgMembers.orgId} = ${callerOrgSql(p.userId)})`
      : sql`true`;
  const [row] = await queryRows<ChangeOutcome>(
    db,
    sql`with cur as (
          select ${c.id} as id, ${c.userId} as user_id, ${c.orgId} as org_id
          from ${customers} ${c}
          where ${c.id} = ${p.id}::uuid and ${visibleTo(c, p.userId, { pool: true })}
          for update of ${c}),
        judged as (
          select cur.*, ${allowed} as allowed, ${targetOk} as target_ok from cur),
        changed as (
          update ${customers} set user_id = ${to}, ${heldSince(to, sql`${p.now}::timestamptz`)},
            updated_at = ${p.now}::timestamptz
          from judged
          where ${customers.id} = judged.id and judged.allowed and judged.target_ok
            and judged.user_id is distinct from ${to}
          returning ${customers.orgId} as org_id, ${customers.id} as customer_id,
            judged.user_id as from_user_id, ${customers.userId} as to_user_id),
        event as (${insertEvents("changed", p.action, p.reason, p.userId, p.now)})
        select exists (select 1 from cur) as found,
          coalesce((select allowed from judged), ${p.action === "transfer" ? seesAll : sql`false`})
            as allowed,
          coalesce((select target_ok from judged), ${targetOk}) as target_ok,
          (select user_id from cur) as holder,
          (select to_jsonb(event) from event) as event`,
  );
  return row!;
}

/** A customer's ownership history, oldest first, when the caller sees the customer. */
export async function listOwnership(
  db: Db,
  p: { userId: string; id: string; page: number; size: number },
): Promise<{ found: boolean; items: OwnershipEventRow[]; total: number }> {
  const rows = await queryRows<
    OwnershipEventRow & { found: boolean; total_count: number | null; at: string | null }
  >(
    db,
    sql`with cust as (select ${c.id} as id from ${customers} ${c}
          where ${c.id} = ${p.id}::uuid and ${visibleTo(c, p.userId, { pool: true })}),
        page as (
          select ${e.fromUserId} as from_user_id, ${e.toUserId} as to_user_id,
            ${e.action} as action, ${e.reason} as reason, ${e.actorId} as actor_id, ${e.at} as at,
            count(*) over () as total_count
          from ${customerOwnershipEvents} ${e} join cust on ${e.customerId} = cust.id
          order by ${e.at}, ${e.id}
          limit ${p.size} offset ${offsetOf(p.page, p.size)})
        select exists (select 1 from cust) as found, page.*
        from (select 1) one left join page on true`,
  );
  const found = rows[0]?.found === true;
  const items = rows.filter((r) => r.at !== null);
  let total = items.length > 0 ? Number(items[0]!.total_count) : 0;
  if (found && items.length === 0 && p.page > 1) {
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${customerOwnershipEvents}
          where ${customerOwnershipEvents.customerId} = ${p.id}::uuid`,
    );
    total = count?.n ?? 0;
  }
  return {
    found,
    items: items.map(({ found: _, total_count: __, ...r }) => r),
    total,
  };
}

interface BulkRow {
  id: string;
  refusal: string | null;
  done: boolean;
}

export interface BulkOutcome {
  /** The caller may do the action at all (transfer: manager and up). */
  allowed: boolean;
  /** transfer: the new holder is a member of the caller's organisation. */
  target_ok: boolean;
  rows: BulkRow[];
}

export type BulkAction =
  | { action: "release"; reason: string }
  | { action: "transfer"; to: string; reason: string | null }
  | { action: "set_status"; status: CustomerStatus; allowedFrom: CustomerStatus[] }
  | { action: "delete" };

/** The row every bulk refusal of a pool customer a member has not claimed reads. */
const CLAIM_FIRST = "pool: claim this customer before changing it";

/**
 * One statement for up to 1,000 ids: locks the visible ones (a member's own and the pool's,
 * everything in the organisation for managers and up), judges each (`refusal`, null when it
 * goes ahead), applies the action to the rest and writes an ownership event for every change
 * of holder. An id the caller cannot see is refused as `not found`, whoever's it is.
 */
export async function bulkChange(
  db: Db,
  p: { userId: string; ids: string[]; now: string } & BulkAction,
): Promise<BulkOutcome> {
  const me = sql`${p.userId}::uuid`;
  const at = sql`${p.now}::timestamptz`;
  const seesAll = callerSeesAllSql(p.userId);
  let allowed: SQL = sql`true`;
  let targetOk: SQL = sql`true`;
  let judge: SQL;
  let act: SQL;
  const changedHolder = (to: SQL) =>
    sql`update ${customers} set user_id = ${to}, ${heldSince(to, at)}, updated_at = ${at}
      from judged where ${customers.id} = judged.id and judged.refusal is null
      returning ${customers.id} as id, ${customers.orgId} as org_id, ${customers.id} as customer_id,
        judged.user_id as from_user_id, ${customers.userId} as to_user_id`;
  let event: SQL = sql`select 1`;
  switch (p.action) {
    case "release":
      judge = sql`when cur.user_id is null then 'already in the pool'`;
      act = changedHolder(sql`null::uuid`);
      event = insertEvents("acted", "release", p.reason, p.userId, p.now);
      break;
    case "transfer": {
      const to = sql`${p.to}::uuid`;
      allowed = seesAll;
      targetOk = sql`exists (select 1 from ${orgMembers} where ${orgMembers.userId} = ${to}
        and ${orgMembers.orgId} = ${callerOrgSql(p.userId)})`;
      judge = sql`when cur.user_id is not distinct from ${to} then 'already held by that member'`;
      act = changedHolder(to);
      event = insertEvents("acted", "transfer", p.reason, p.userId, p.now);
      break;
    }
    case "set_status":
      judge = sql`when not cur.writable then ${CLAIM_FIRST}
        when cur.status <> all (${`{${p.allowedFrom.join(",")}}`}::text[])
          then 'a ' || cur.status || ' customer cannot become ' || ${p.status}::text`;
      act = sql`update ${customers} set status = ${p.status}, updated_at = ${at}
        from judged where ${customers.id} = judged.id and judged.refusal is null
        returning ${customers.id} as id`;
      break;
    case "delete":
      judge = sql`when not cur.writable then ${CLAIM_FIRST}`;
      act = sql`delete from ${customers} using judged
        where ${customers.id} = judged.id and judged.refusal is null
        returning ${customers.id} as id`;
      break;
  }
  // A PostgreSQL array literal as one parameter (the ids are validated UUIDs): drizzle would
  // spread a JS array into one parameter per element.
  const ids = `{${p.ids.join(",")}}`;
  const rows = await queryRows<BulkRow & { allowed: boolean; target_ok: boolean }>(
    db,
    sql`with gate as (select ${allowed} as allowed, ${targetOk} as target_ok),
        input as (
          select x.id, min(x.n) as n from unnest(${ids}::uuid[]) with ordinality as x(id, n)
          group by x.id),
        cur as (
          select ${c.id} as id, ${c.userId} as user_id, ${c.status} as status,
            (coalesce(${c.userId} = ${me}, false) or ${seesAll}) as writable
          from ${customers} ${c}
          where ${c.id} = any(${ids}::uuid[]) and ${visibleTo(c, p.userId, { pool: true })}
          for update of ${c}),
        judged as (
          select input.id, input.n, cur.user_id, case
              when not gate.allowed then 'forbidden'
              when not gate.target_ok then 'not a member of the organisation'
              when cur.id is null then 'not found'
              ${judge}
            end as refusal
          from input cross join gate left join cur on cur.id = input.id),
        acted as (${act}),
        event as (${event})
        select judged.id, judged.refusal, (acted.id is not null) as done,
          gate.allowed, gate.target_ok
        from judged cross join gate left join acted on acted.id = judged.id
        order by judged.n`,
  );
  return {
    allowed: rows[0]?.allowed ?? true,
    target_ok: rows[0]?.target_ok ?? true,
    rows: rows.map(({ id, refusal, done }) => ({ id, refusal, done })),
  };
}

// ---------------------------------------------------------------------------------------------
// The overnight recycle (recycle.ts): reads, per organisation with pool.recycle_after_days, its
// due held customers by the time their clock started (customers_pool_recycle_idx), a page at a
// time, then recycles them by primary key in short batches (ADR 0103).

/**
 * Where a customer's recycle clock started: its last contact (its creation when never
 * contacted), or when its holder got it, whichever is later. The index
 * customers_pool_recycle_idx is on exactly this expression.
 */
const recycleClockSql = (t: typeof c) =>
  sql`greatest(coalesce(${t.lastContactAt}, ${t.createdAt}), ${t.heldSince})`;
const since = recycleClockSql(c);
const customerName = sql`coalesce(${c.company}, ${c.contactName}, ${c.email}, 'A customer')`;

/** One organisation's recycle rule as a batch statement reads it. */
export interface RecycleRule {
  org_id: string;
  days: number;
  /** Days between the clock's start and the warning (recycle_after_days - warn_days_before). */
  warn_offset: number | null;
  exempt: string[];
}

/** Where a walk resumes: the organisation, clock start (as PostgreSQL prints it) and id. */
export interface RecycleCursor {
  org_id: string;
  at: string;
  id: string;
}

/**
 * The oldest recycle clock of any held customer, epoch ms (customers_held_clock_idx: one
 * probe), null when no customer is held. Every due customer's clock is before the run's cutoff
 * less its organisation's warning (or recycle) days, so a run whose bound is at or before this
 * has nothing to do, whatever the number of organisations.
 */
export async function oldestHeldClock(db: Db): Promise<number | null> {
  const [row] = await queryRows<{ ms: number | string }>(
    db,
    sql`select (extract(epoch from ${since}) * 1000)::float8 as ms from ${customers} ${c}
        where ${c.userId} is not null order by ${since} limit 1`,
  );
  return row ? Number(row.ms) : null;
}

/** The organisations with a recycle rule, as stored (parsed by the caller). */
export async function orgsWithRecycleRule(db: Db): Promise<{ id: string; settings: unknown }[]> {
  return queryRows(
    db,
    sql`select ${orgs.id} as id, ${orgs.settings} as settings from ${orgs}
        where jsonb_typeof(${orgs.settings} #> '{pool,recycle_after_days}') = 'number'
        order by ${orgs.id}`,
  );
}

/**
 * A customer the walk found due: `recycle` (past its organisation's recycle_after_days) or `warn`
 * (its clock crossed into the warning window during the UTC day before the cutoff).
 */
export interface DueCustomer {
  kind: "recycle" | "warn";
  id: string;
  org_id: string;
  user_id: string;
  customer_name: string;
  /** The UTC day it returns to the pool unless followed up (warn; null for recycle). */
  recycle_on: string | null;
  /** The organisation's recycle_after_days. */
  days: number;
}

/**
 * The next page of due customers of `rules`' organisations, read-only, in (organisation, clock
 * start, id) order from the cursor: per organisation two index ranges of
 * customers_pool_recycle_idx, the customers past N days (clock start before cutoff - N) and the
 * ones that crossed into the warning window during the day before the cutoff (clock start in
 * [cutoff - (N - W) - 1 day, cutoff - (N - W))); nothing between them is read. The first range
 * comes wholly before the second in clock order, so the cursor runs through both. Exempt
 * statuses are a filter. Locks nothing: the recycle re-checks each row as it locks it.
 */
export async function dueBatch(
  db: Db,
  p: { rules: RecycleRule[]; cutoff: string; after: RecycleCursor | null; limit: number },
): Promise<{ rows: DueCustomer[]; next: RecycleCursor | null }> {
  const cutoff = sql`${p.cutoff}::timestamptz`;
  const after = p.after;
  const from = after
    ? sql`(case when r.org_id = ${after.org_id}::uuid then ${after.at}::timestamptz
            else '-infinity'::timestamptz end,
          case when r.org_id = ${after.org_id}::uuid then ${after.id}::uuid
            else '00000000-0000-0000-0000-000000000000'::uuid end)`
    : sql`('-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid)`;
  const range = (kind: "recycle" | "warn", window: SQL) =>
    sql`(select ${kind}::text as kind, ${c.id} as id, ${c.orgId} as org_id, ${c.userId} as user_id,
          ${since} as since, ${customerName} as name, r.days
        from ${customers} ${c}
        where ${c.orgId} = r.org_id and ${c.userId} is not null and ${window}
          and not (r.exempt @> to_jsonb(${c.status}))
          and (${since}, ${c.id}) > ${from}
        order by ${since}, ${c.id}
        limit ${p.limit})`;
  const rows = await queryRows<DueCustomer & { since: string }>(
    db,
    sql`with walked as (
        select w.* from jsonb_to_recordset(${JSON.stringify(p.rules)}::jsonb)
          as r(org_id uuid, days int, warn_offset int, exempt jsonb)
        cross join lateral (
          select * from (
            ${range("recycle", sql`${since} < ${cutoff} - make_interval(days => r.days)`)}
            union all
            ${range(
              "warn",
              sql`r.warn_offset is not null
                and ${since} >= ${cutoff} - make_interval(days => r.warn_offset + 1)
                and ${since} < ${cutoff} - make_interval(days => r.warn_offset)`,
            )}) d
          order by d.since, d.id
          limit ${p.limit}) w
        ${after ? sql`where r.org_id >= ${after.org_id}::uuid` : sql``}
        limit ${p.limit})
      select kind, id, org_id, user_id, name as customer_name, days, since::text as since,
        case when kind = 'warn' then to_char((since + make_interval(days => days))
          at time zone 'UTC' + interval '1 day', 'YYYY-MM-DD') end as recycle_on
      from walked order by org_id, since, id`,
  );
  const last = rows.at(-1);
  return {
    rows,
    next: last ? { org_id: last.org_id, at: last.since, id: last.id } : null,
  };
}

/** A customer named in its holder's warning. */
export interface WarnedCustomer {
  user_id: string;
  customer_id: string;
  customer_name: string;
  /** The UTC day it returns to the pool unless followed up. */
  recycle_on: string;
}

/** A customer to recycle, as dueBatch found it, with its organisation's rule. */
export interface RecycleTarget {
  id: string;
  org_id: string;
  days: number;
  exempt: string[];
}

/**
 * Recycles `targets` in one statement: locks each with SKIP LOCKED (a row a user is writing is
 * the next run's) and re-checks it (still held, in its organisation, past its N days, status
 * not exempt), so a follow-up, claim or status change since the read keeps it. Each goes to the
 * pool with its `recycle` event (actor null), and each holder's notification of the UTC day
 * (`pool_recycled`, dedupe key pool_recycled:<day>) is written or its count raised. The rows
 * are found by primary key: the statement's time is its rows', nothing else. Returns how many
 * went.
 *
 * The statement commits without waiting for its WAL flush (synchronous_commit off for its own
 * transaction only, set inside it): the row locks go at once instead of after a disk flush per
 * batch, and a crash can lose only the last batches, which the next run finds due again and
 * redoes (a batch's events and notification counts are in its transaction, lost with it).
 */
export async function recycleCustomers(
  db: Db,
  p: { targets: RecycleTarget[]; cutoff: string; now: string; day: string },
): Promise<number> {
  if (p.targets.length === 0) return 0;
  const cutoff = sql`${p.cutoff}::timestamptz`;
  const at = sql`${p.now}::timestamptz`;
  const count = (data: SQL) => sql`coalesce((${data} ->> 'count')::int, 0)`;
  const merged = sql`(${count(sql`${notifications.data}`)} + ${count(sql`excluded.data`)})`;
  // A named statement (its values all parameters): a run sends it hundreds of times, and its
  // planning was a fixed part of every batch.
  const [row] = await queryRowsPrepared<{ taken: number }>(
    db,
    sql`with walked as (
        select ${c.id} as id, ${c.orgId} as org_id, ${c.userId} as user_id, ${since} as since,
          ${customerName} as name, t.days
        from jsonb_to_recordset(${JSON.stringify(p.targets)}::jsonb)
          as t(id uuid, org_id uuid, days int, exempt jsonb)
        join ${customers} ${c} on ${c.id} = t.id
        where ${c.orgId} = t.org_id and ${c.userId} is not null
          and ${since} < ${cutoff} - make_interval(days => t.days)
          and not (t.exempt @> to_jsonb(${c.status}))
        for update of ${c} skip locked),
      recycled as (
        update ${customers} set user_id = null, held_since = null, updated_at = ${at}
        from walked where ${customers.id} = walked.id
        returning ${customers.id} as id),
      event as (
        insert into ${customerOwnershipEvents} (${EVENT_COLUMNS})
        select w.org_id, w.id, w.user_id, null, 'recycle',
          'pool.recycle_after_days (' || w.days || ')', null, ${at}
        from walked w join recycled using (id)),
      holders as (
        select w.user_id, count(*)::int as n, max(w.days) as days,
          (jsonb_agg(jsonb_build_object('customer_id', w.id, 'customer_name', w.name)
            order by w.since, w.id)) as customers
        from walked w join recycled using (id) group by w.user_id),
      notice as (${notificationInsert(
        "pool_recycled",
        sql`select h.user_id,
            h.n || case when h.n = 1 then ' customer' else ' customers' end
              || ' returned to the pool' as title,
            'No follow-up for ' || h.days || ' days (pool.recycle_after_days): '
              || h.n || case when h.n = 1 then ' customer you held is' else ' customers you held are' end
              || ' back in the pool for anyone to claim.' as body,
            jsonb_build_object('count', h.n, 'day', ${p.day}::text, 'recycle_after_days', h.days,
              'customers', jsonb_path_query_array(h.customers, '$[0 to 4]')) as data,
            ${`pool_recycled:${p.day}`}::text as dedupe_key
          from holders h`,
        at,
        sql`do update set
          title = ${merged} || ' customers returned to the pool',
          body = 'No follow-up for ' || (excluded.data ->> 'recycle_after_days')
            || ' days (pool.recycle_after_days): ' || ${merged}
            || ' customers you held are back in the pool for anyone to claim.',
          data = ${notifications.data} || jsonb_build_object('count', ${merged},
            'customers', jsonb_path_query_array(
              coalesce(${notifications.data} -> 'customers', '[]'::jsonb)
                || (excluded.data -> 'customers'), '$[0 to 4]'))`,
      )})
      select (select count(*)::int from recycled) as taken,
        ${ASYNC_COMMIT}`,
  );
  return row?.taken ?? 0;
}

/** A holder's warning of a UTC day, as written by writeWarnings. */
export interface WarningRow {
  user_id: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  dedupe_key: string;
}

/**
 * Writes a chunk of warnings in one statement, one per holder and UTC day: a rerun the same day
 * finds the same customers (the window is the day's) and writes nothing. A user deleted since
 * the walk is left out. Returns how many were new.
 */
export async function writeWarnings(db: Db, p: { rows: WarningRow[]; now: string }) {
  if (p.rows.length === 0) return 0;
  const source = sql`select d.user_id, d.title, d.body, d.data, d.dedupe_key
    from jsonb_to_recordset(${JSON.stringify(p.rows)}::jsonb)
      as d(user_id uuid, title text, body text, data jsonb, dedupe_key text)
    where exists (select 1 from ${users} u where u.id = d.user_id)`;
  const rows = await queryRows<{ one: number }>(
    db,
    sql`${notificationInsert("pool_recycle_warning", source, p.now)} returning 1 as one`,
  );
  return rows.length;
}
